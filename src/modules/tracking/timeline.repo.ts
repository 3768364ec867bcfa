import type { Executor, EventRow, OrderRow } from './tracking.repo.js';

/**
 * A customer's history for the admin UI (docs/admin-lists.md), newest first, keyset paged
 * by (time, id). Kysely only. The key's first part is a range of the indexes
 * (shop_id, profile_id, time) and (shop_id, profile_id, created_at) of migration 0004,
 * read backwards; the id only breaks ties within one millisecond.
 */

export interface TimeKey {
  readonly time: number;
  readonly id: number;
}

export async function listProfileEvents(
  db: Executor,
  shopId: string,
  profileId: number,
  before: TimeKey | null,
  limit: number,
): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll().where('shop_id', '=', shopId).where('profile_id', '=', profileId);
  if (before !== null) {
    query = query.where('time', '<=', before.time).where((eb) => eb.or([eb('time', '<', before.time), eb('id', '<', before.id)]));
  }
  return query.orderBy('time', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function listProfileOrders(
  db: Executor,
  shopId: string,
  profileId: number,
  before: TimeKey | null,
  limit: number,
): Promise<OrderRow[]> {
  let query = db.selectFrom('orders').selectAll().where('shop_id', '=', shopId).where('profile_id', '=', profileId);
  if (before !== null) {
    query = query
      .where('created_at', '<=', before.time)
      .where((eb) => eb.or([eb('created_at', '<', before.time), eb('id', '<', before.id)]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
