import { sql } from 'kysely';
import type { Executor } from './messaging.repo.js';

/**
 * A channel's health (migration 0041): counts per hour in a ring of 24 slots, and the last
 * vendor error. Written on the send path in the transaction that records the outcome, so
 * reading the health of a day is at most 24 rows a channel, never a scan of deliveries.
 */

export const HOUR_MS = 3_600_000;
export const STAT_SLOTS = 24;

export type StatKind = 'sent' | 'failed' | 'bounced';

/**
 * Adds one to `kind` in the slot of `at`'s hour. The slot of a new hour starts again from
 * this count; a count for an hour older than the slot holds (a clock a day behind) is dropped.
 */
export async function countOutcome(db: Executor, shopId: string, channel: string, kind: StatKind, at: number): Promise<void> {
  const hour = Math.floor(at / HOUR_MS);
  const row = { sent: 0, failed: 0, bounced: 0, [kind]: 1 };
  const column = (name: StatKind) =>
    sql<number>`case when excluded.hour > messaging_channel_stats.hour then excluded.${sql.ref(name)}
      when excluded.hour = messaging_channel_stats.hour then messaging_channel_stats.${sql.ref(name)} + excluded.${sql.ref(name)}
      else messaging_channel_stats.${sql.ref(name)} end`;
  await db
    .insertInto('messaging_channel_stats')
    .values({ shop_id: shopId, channel, slot: hour % STAT_SLOTS, hour, ...row })
    .onConflict((oc) =>
      oc.columns(['shop_id', 'channel', 'slot']).doUpdateSet({
        sent: column('sent'),
        failed: column('failed'),
        bounced: column('bounced'),
        hour: sql<number>`case when excluded.hour > messaging_channel_stats.hour then excluded.hour else messaging_channel_stats.hour end`,
      }),
    )
    .execute();
}

export async function recordError(
  db: Executor,
  row: { shopId: string; channel: string; vendor: string; error: string; at: number },
): Promise<void> {
  const values = { shop_id: row.shopId, channel: row.channel, vendor: row.vendor, error: row.error, at: row.at };
  await db
    .insertInto('messaging_channel_errors')
    .values(values)
    .onConflict((oc) => oc.columns(['shop_id', 'channel']).doUpdateSet({ vendor: row.vendor, error: row.error, at: row.at }))
    .execute();
}

export interface ChannelCounts {
  readonly channel: string;
  readonly sent: number;
  readonly failed: number;
  readonly bounced: number;
}

/** Per channel of the shop: the counts of the hour of `now` and the 23 before it. */
export async function countsSince(db: Executor, shopId: string, now: number): Promise<ChannelCounts[]> {
  const from = Math.floor(now / HOUR_MS) - (STAT_SLOTS - 1);
  const rows = await db
    .selectFrom('messaging_channel_stats')
    .select((eb) => [
      'channel',
      eb.fn.sum<number | string>('sent').as('sent'),
      eb.fn.sum<number | string>('failed').as('failed'),
      eb.fn.sum<number | string>('bounced').as('bounced'),
    ])
    .where('shop_id', '=', shopId)
    .where('hour', '>=', from)
    .groupBy('channel')
    .execute();
  return rows.map((r) => ({ channel: r.channel, sent: Number(r.sent), failed: Number(r.failed), bounced: Number(r.bounced) }));
}

export interface LastError {
  readonly channel: string;
  readonly vendor: string;
  readonly error: string;
  readonly at: number;
}

export async function lastErrors(db: Executor, shopId: string): Promise<LastError[]> {
  const rows = await db.selectFrom('messaging_channel_errors').selectAll().where('shop_id', '=', shopId).execute();
  return rows.map((r) => ({ channel: r.channel, vendor: r.vendor, error: r.error, at: Number(r.at) }));
}

/**
 * Takes one test send from the shop's allowance: `limit` per window of `windowMs`, counted
 * by one conditional UPDATE, so concurrent requests cannot pass it. False when spent.
 */
export async function takeTestSend(db: Executor, shopId: string, now: number, limit: number, windowMs: number): Promise<boolean> {
  await db
    .insertInto('messaging_channel_tests')
    .values({ shop_id: shopId, window_start: now, used: 0 })
    .onConflict((oc) => oc.column('shop_id').doNothing())
    .execute();
  const expired = now - windowMs;
  const result = await db
    .updateTable('messaging_channel_tests')
    .set({
      used: sql<number>`case when window_start <= ${expired} then 1 else used + 1 end`,
      window_start: sql<number>`case when window_start <= ${expired} then ${now} else window_start end`,
    })
    .where('shop_id', '=', shopId)
    .where((eb) => eb.or([eb('window_start', '<=', expired), eb('used', '<', limit)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
