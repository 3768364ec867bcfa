import { sql } from 'kysely';
import type { Executor } from './rollups.repo.js';

/**
 * Kysely only: the reads of the dashboards' backfill (backfill.ts), each a keyset page of
 * one shop's history after a cursor and up to the marks migration 0038 left, in the order
 * of the table's primary key; and its saved state, moved on by a conditional UPDATE.
 */

export interface BackfillRow {
  readonly cutoff: number;
  readonly eventsUntil: number;
  readonly ledgerUntil: number;
  readonly phase: string;
  readonly cursor: string;
}

export async function readState(db: Executor, shopId: string): Promise<BackfillRow | undefined> {
  const row = await db.selectFrom('dashboard_backfill').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
  if (!row) return undefined;
  return {
    cutoff: Number(row.cutoff),
    eventsUntil: Number(row.events_until),
    ledgerUntil: Number(row.ledger_until),
    phase: row.phase,
    cursor: row.cursor,
  };
}

/** Moves the saved state on from `from`; false when another run moved it first. */
export async function advanceState(
  db: Executor,
  shopId: string,
  from: { readonly phase: string; readonly cursor: string },
  to: { readonly phase: string; readonly cursor: string },
  now: number,
): Promise<boolean> {
  const moved = await db
    .updateTable('dashboard_backfill')
    .set({ phase: to.phase, cursor: to.cursor, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('phase', '=', from.phase)
    .where('cursor', '=', from.cursor)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

export function eventsAfter(db: Executor, shopId: string, afterId: number, untilId: number, limit: number) {
  return db
    .selectFrom('events')
    .select(['id', 'profile_id', 'event', 'time'])
    .where('shop_id', '=', shopId)
    .where('id', '>', afterId)
    .where('id', '<=', untilId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Orders of events up to `untilEventId`, with their event's time. */
export function ordersAfter(db: Executor, shopId: string, afterId: number, untilEventId: number, limit: number) {
  return db
    .selectFrom('orders as o')
    .innerJoin('events as e', (j) => j.onRef('e.shop_id', '=', 'o.shop_id').onRef('e.id', '=', 'o.event_id'))
    .select(['o.id', 'o.order_price', 'o.items_total', 'e.time'])
    .where('o.shop_id', '=', shopId)
    .where('o.id', '>', afterId)
    .where('o.event_id', '<=', untilEventId)
    .orderBy('o.id')
    .limit(limit)
    .execute();
}

export function membersAfter(db: Executor, shopId: string, afterProfileId: number, before: number, limit: number) {
  return db
    .selectFrom('loyalty_members')
    .select(['profile_id', 'created_at'])
    .where('shop_id', '=', shopId)
    .where('profile_id', '>', afterProfileId)
    .where('created_at', '<', before)
    .orderBy('profile_id')
    .limit(limit)
    .execute();
}

export function ledgerAfter(db: Executor, shopId: string, afterId: number, untilId: number, limit: number) {
  return db
    .selectFrom('loyalty_transactions')
    .select(['id', 'entry', 'kind', 'amount', 'status', 'created_at', 'updated_at'])
    .where('shop_id', '=', shopId)
    .where('id', '>', afterId)
    .where('id', '<=', untilId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Sent, non-test deliveries sent before `before`, after the (code, seq) key. */
export function deliveriesAfter(db: Executor, shopId: string, after: readonly [string, number] | undefined, before: number, limit: number) {
  let query = db
    .selectFrom('messaging_deliveries')
    .select(['code', 'seq', 'channel', 'type', 'mailing_id', 'sent_at', 'delivered_at', 'opened_at', 'clicked_at', 'hard_bounced_at'])
    .where('shop_id', '=', shopId)
    .where('test', '=', 0)
    .where('status', '=', 'sent')
    .where('sent_at', '<', before);
  if (after) query = query.where((eb) => eb.or([eb('code', '>', after[0]), eb.and([eb('code', '=', after[0]), eb('seq', '>', after[1])])]));
  return query.orderBy('code').orderBy('seq').limit(limit).execute();
}

/** One row per message with a purchase before `before`, after the code `afterCode`. */
export async function purchasesAfter(
  db: Executor,
  shopId: string,
  afterCode: string,
  before: number,
  limit: number,
): Promise<{ code: string; type: string; mailing_id: number; at: number }[]> {
  const { rows } = await sql<{ code: string; type: string; mailing_id: number; at: number }>`
    select code, min(type) as type, min(mailing_id) as mailing_id, min(purchased_at) as at
    from messaging_deliveries
    where shop_id = ${shopId} and test = 0 and status = 'sent' and purchased_at < ${before} and code > ${afterCode}
    group by code order by code limit ${limit}`.execute(db);
  return rows;
}
