import type { Insertable, Selectable } from 'kysely';
import type { NpsReviewsTable } from '../../db/types.js';
import type { RateCount } from './domain/nps.js';
import type { Executor } from './settings.repo.js';
import { takeShopSequence } from '../../db/sequences.js';

/** Kysely only: NPS reviews, every statement scoped by shop_id. */
export type ReviewRow = Selectable<NpsReviewsTable> & { order_found: number | boolean };

export async function nextReviewId(db: Executor, shopId: string): Promise<number> {
  return takeShopSequence(db, 'nps_review_sequences', shopId, null);
}

/**
 * Stores the review, or, when the customer already gave one under the same channel,
 * category and key, replaces its rate, comment and day (one statement: the unique key
 * decides, so two concurrent retries still leave one review).
 */
export async function upsertReview(db: Executor, row: Insertable<NpsReviewsTable>): Promise<void> {
  await db
    .insertInto('nps_reviews')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'profile_id', 'channel', 'category', 'dedupe_key'])
        .doUpdateSet({ rate: row.rate, comment: row.comment, order_id: row.order_id, day: row.day, updated_at: row.updated_at }),
    )
    .execute();
}

export interface ReviewFilter {
  readonly from: string;
  readonly to: string;
  readonly channel?: string;
  readonly category?: string;
  readonly rateMin?: number;
  readonly rateMax?: number;
}

/** A page of reviews, newest day first and newest id first within a day, after the cursor's key. */
export async function listReviews(
  db: Executor,
  shopId: string,
  filter: ReviewFilter,
  after: readonly [string, number] | null,
  limit: number,
): Promise<ReviewRow[]> {
  let query = db
    .selectFrom('nps_reviews as r')
    .leftJoin('orders as o', (join) => join.onRef('o.shop_id', '=', 'r.shop_id').onRef('o.order_id', '=', 'r.order_id'))
    .selectAll('r')
    .select((eb) => eb.case().when('o.id', 'is not', null).then(1).else(0).end().as('order_found'))
    .where('r.shop_id', '=', shopId)
    .where('r.day', '>=', filter.from)
    .where('r.day', '<=', filter.to);
  if (filter.channel !== undefined) query = query.where('r.channel', '=', filter.channel);
  if (filter.category !== undefined) query = query.where('r.category', '=', filter.category);
  if (filter.rateMin !== undefined) query = query.where('r.rate', '>=', filter.rateMin);
  if (filter.rateMax !== undefined) query = query.where('r.rate', '<=', filter.rateMax);
  if (after !== null) {
    const [day, id] = after;
    query = query.where((eb) => eb.or([eb('r.day', '<', day), eb.and([eb('r.day', '=', day), eb('r.id', '<', id)])]));
  }
  return query.orderBy('r.day', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
}

/** Reviews counted per day, channel, category and rate over the period (the score's input). */
export async function countRates(db: Executor, shopId: string, filter: ReviewFilter): Promise<RateCount[]> {
  let query = db
    .selectFrom('nps_reviews')
    .select((eb) => ['day', 'channel', 'category', 'rate', eb.fn.countAll<number | string>().as('count')])
    .where('shop_id', '=', shopId)
    .where('day', '>=', filter.from)
    .where('day', '<=', filter.to);
  if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  const rows = await query.groupBy(['day', 'channel', 'category', 'rate']).execute();
  return rows.map((r) => ({ day: r.day, channel: r.channel, category: r.category, rate: Number(r.rate), count: Number(r.count) }));
}

export async function deleteReview(db: Executor, shopId: string, id: number): Promise<boolean> {
  const deleted = await db.deleteFrom('nps_reviews').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
