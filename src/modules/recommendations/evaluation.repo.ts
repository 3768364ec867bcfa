import { sql } from 'kysely';
import type { Executor } from './models.repo.js';

/**
 * Kysely only: what the offline evaluation reads besides the build's own reads (the test
 * period's orders, a customer's history before the cut-off, the served catalog). Every
 * statement is scoped by shop_id and pages by keyset or a bounded index range.
 */

export interface TestOrderRow {
  readonly id: number;
  readonly items: string;
  readonly profileId: number;
}

/** Orders made in (`from`, `until`] after `afterId`, by id. */
export async function listOrdersBetween(
  db: Executor,
  shopId: string,
  afterId: number,
  from: number,
  until: number,
  limit: number,
): Promise<TestOrderRow[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'items', 'profile_id'])
    .where('shop_id', '=', shopId)
    .where('id', '>', afterId)
    .where('created_at', '>', from)
    .where('created_at', '<=', until)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), items: r.items, profileId: Number(r.profile_id) }));
}

export interface HistoryRow {
  readonly event: string;
  readonly time: number;
  readonly items: string;
}

/** The profile's views, carts and purchases in (`from`, `until`], newest first, at most `limit` (events_shop_profile_time_idx). */
export async function listHistory(
  db: Executor,
  shopId: string,
  profileId: number,
  from: number,
  until: number,
  limit: number,
): Promise<HistoryRow[]> {
  const rows = await db
    .selectFrom('events')
    .select(['event', 'time', 'items'])
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('time', '>', from)
    .where('time', '<=', until)
    .where(sql<boolean>`event in ('view', 'cart', 'purchase') and custom = 0`)
    .orderBy('time', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ event: r.event, time: Number(r.time), items: r.items }));
}

export interface CatalogRow {
  readonly id: string;
  readonly price: number | null;
  readonly categoryIds: string;
  readonly params: string;
}

/** The served generation's products after `afterId`, by id. */
export async function listServedProducts(db: Executor, shopId: string, afterId: string, limit: number): Promise<CatalogRow[]> {
  const rows = await db
    .selectFrom('catalogs as c')
    .innerJoin('catalog_products as p', (join) => join.onRef('p.shop_id', '=', 'c.shop_id').onRef('p.generation', '=', 'c.generation'))
    .select(['p.id', 'p.price', 'p.category_ids', 'p.params'])
    .where('c.shop_id', '=', shopId)
    .where('p.id', '>', afterId)
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    price: r.price === null ? null : Number(r.price),
    categoryIds: r.category_ids,
    params: r.params,
  }));
}
