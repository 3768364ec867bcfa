import { sql, type Kysely, type Transaction } from 'kysely';
import { inListSlices, parameterChunks } from '../../db/statement-slices.js';
import type { Database } from '../../db/types.js';
import type { Figures, Touch } from './domain/figures.js';

/**
 * The blocks' figures (migration 0045). Kysely only; every statement is scoped by
 * shop_id. Upserts add to counters with rows sorted by key, so two batches that add to
 * the same rows lock them in the same order on PostgreSQL and wait rather than deadlock.
 */
export type Executor = Kysely<Database> | Transaction<Database>;

export interface BlockKey {
  readonly id: number;
  readonly code: string;
}

/** The shop's blocks among `codes` (by code) and `ids` (by id). */
export async function findBlockKeys(db: Executor, shopId: string, codes: readonly string[], ids: readonly number[]): Promise<BlockKey[]> {
  if (codes.length === 0 && ids.length === 0) return [];
  const found: BlockKey[] = [];
  for (const slice of inListSlices(codes)) {
    const rows = await db
      .selectFrom('recommendation_blocks')
      .select(['id', 'code'])
      .where('shop_id', '=', shopId)
      .where('code', 'in', slice)
      .execute();
    for (const r of rows) found.push({ id: Number(r.id), code: r.code });
  }
  for (const slice of inListSlices(ids)) {
    const rows = await db
      .selectFrom('recommendation_blocks')
      .select(['id', 'code'])
      .where('shop_id', '=', shopId)
      .where('id', 'in', slice)
      .execute();
    for (const r of rows) found.push({ id: Number(r.id), code: r.code });
  }
  return found;
}

/** The stored touches of these profiles and items (a superset of the pairs asked for). */
export async function findTouches(
  db: Executor,
  shopId: string,
  profileIds: readonly number[],
  itemIds: readonly string[],
): Promise<Touch[]> {
  if (profileIds.length === 0 || itemIds.length === 0) return [];
  const touches: Touch[] = [];
  for (const profiles of inListSlices(profileIds)) {
    for (const items of inListSlices(itemIds)) {
      const rows = await db
        .selectFrom('recommendation_block_touches')
        .select(['profile_id', 'item_id', 'code', 'touched_at'])
        .where('shop_id', '=', shopId)
        .where('profile_id', 'in', profiles)
        .where('item_id', 'in', items)
        .execute();
      for (const r of rows) touches.push({ profileId: Number(r.profile_id), itemId: r.item_id, code: r.code, at: Number(r.touched_at) });
    }
  }
  return touches;
}

/** Keeps the newest touch of each (profile, item): an older one arriving late changes nothing. */
export async function upsertTouches(db: Executor, shopId: string, touches: readonly Touch[]): Promise<void> {
  if (touches.length === 0) return;
  const rows = touches
    .map((t) => ({ shop_id: shopId, profile_id: t.profileId, item_id: t.itemId, code: t.code, touched_at: t.at }))
    .sort((a, b) => a.profile_id - b.profile_id || (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));
  for (const chunk of parameterChunks(rows, 5)) {
    await db
      .insertInto('recommendation_block_touches')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['shop_id', 'profile_id', 'item_id'])
          .doUpdateSet({ code: (eb) => eb.ref('excluded.code'), touched_at: (eb) => eb.ref('excluded.touched_at') })
          .where((eb) => eb('recommendation_block_touches.touched_at', '<=', eb.ref('excluded.touched_at'))),
      )
      .execute();
  }
}

export interface DayFigures extends Figures {
  readonly code: string;
  readonly day: string;
}

export async function addToDays(db: Executor, shopId: string, days: readonly DayFigures[]): Promise<void> {
  if (days.length === 0) return;
  const rows = days
    .map((d) => ({
      shop_id: shopId,
      code: d.code,
      day: d.day,
      impressions: d.impressions,
      clicks: d.clicks,
      views: d.views,
      carts: d.carts,
      orders: d.orders,
      revenue: d.revenue,
    }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const add = (column: 'impressions' | 'clicks' | 'views' | 'carts' | 'orders' | 'revenue') =>
    sql<number>`${sql.ref(`recommendation_block_days.${column}`)} + ${sql.ref(`excluded.${column}`)}`;
  for (const chunk of parameterChunks(rows, 9)) {
    await db
      .insertInto('recommendation_block_days')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'code', 'day']).doUpdateSet({
          impressions: add('impressions'),
          clicks: add('clicks'),
          views: add('views'),
          carts: add('carts'),
          orders: add('orders'),
          revenue: add('revenue'),
        }),
      )
      .execute();
  }
}

/** A block's days in [from, to]: one range of the primary key. */
export async function readDays(db: Executor, shopId: string, code: string, from: string, to: string): Promise<DayFigures[]> {
  const rows = await db
    .selectFrom('recommendation_block_days')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  return rows.map((r) => ({
    code: r.code,
    day: r.day,
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    views: Number(r.views),
    carts: Number(r.carts),
    orders: Number(r.orders),
    revenue: Number(r.revenue),
  }));
}

/** A deleted block's figures and touches go with it: a new block of the same code starts at zero. */
export async function deleteFigures(db: Executor, shopId: string, code: string): Promise<void> {
  await db.deleteFrom('recommendation_block_days').where('shop_id', '=', shopId).where('code', '=', code).execute();
  await db.deleteFrom('recommendation_block_touches').where('shop_id', '=', shopId).where('code', '=', code).execute();
}
