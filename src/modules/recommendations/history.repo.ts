import type { Executor } from './models.repo.js';

/**
 * Kysely only: a customer's recent product events, read at request time by the personal
 * recommenders (interesting, recently_viewed) and to leave out what they just bought.
 * Reads tracking's `events` through its (shop_id, profile_id, time) index.
 */

export interface HistoryRow {
  readonly event: 'view' | 'cart' | 'purchase';
  readonly time: number;
  /** JSON array of tracked items. */
  readonly items: string;
}

/** The newest product events of these profiles (a live profile and those merged into it) since `since`, newest first. */
export async function listRecentProductEvents(
  db: Executor,
  shopId: string,
  profileIds: readonly number[],
  since: number,
  limit: number,
): Promise<HistoryRow[]> {
  if (profileIds.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .select(['event', 'time', 'items'])
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', profileIds)
    .where('time', '>=', since)
    .where('custom', '=', 0)
    .where('event', 'in', ['view', 'cart', 'purchase'])
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ event: r.event as HistoryRow['event'], time: Number(r.time), items: r.items }));
}
