import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, RecommendationPredictorsTable } from '../../db/types.js';
import type { Executor } from './models.repo.js';

/**
 * Kysely only: the stored probability-to-purchase model of a shop, and the reads of one
 * customer's recent orders and activity that a prediction needs. Every statement is
 * scoped by shop_id; the customer reads are bounded index ranges
 * (orders_shop_profile_created_idx, events_shop_profile_time_idx).
 */
export type PredictorRow = Selectable<RecommendationPredictorsTable>;

export async function replacePredictor(trx: Transaction<Database>, row: RecommendationPredictorsTable): Promise<void> {
  await trx.deleteFrom('recommendation_predictors').where('shop_id', '=', row.shop_id).execute();
  await trx.insertInto('recommendation_predictors').values(row).execute();
}

export async function findPredictor(db: Executor, shopId: string): Promise<PredictorRow | undefined> {
  return db.selectFrom('recommendation_predictors').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
}

/** The profile's orders in (`since`, `until`]: how many, their items_total summed, the last one's time. */
export async function summarizeOrders(
  db: Executor,
  shopId: string,
  profileId: number,
  since: number,
  until: number,
): Promise<{ count: number; revenue: number; lastAt: number | null }> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('items_total').as('revenue'),
      eb.fn.max<number | string | null>('created_at').as('last_at'),
    ])
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('created_at', '>', since)
    .where('created_at', '<=', until)
    .executeTakeFirst();
  return {
    count: Number(row?.count ?? 0),
    revenue: Number(row?.revenue ?? 0),
    lastAt: row?.last_at === null || row?.last_at === undefined ? null : Number(row.last_at),
  };
}

/** Times of the profile's product views and cart events in (`since`, `until`], newest first, at most `limit`. */
export async function listRecentActivity(
  db: Executor,
  shopId: string,
  profileId: number,
  since: number,
  until: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('events')
    .select('time')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('time', '>', since)
    .where('time', '<=', until)
    .where(sql<boolean>`event in ('view', 'cart') and custom = 0`)
    .orderBy('time', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.time));
}
