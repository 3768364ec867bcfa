import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MessagingLimitsTable } from '../../db/types.js';

/** Kysely only: messaging limits and the cap counters. Every query filters by shop_id. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type LimitsRow = Selectable<MessagingLimitsTable>;

export async function listLimits(db: Executor, shopId: string): Promise<LimitsRow[]> {
  return db.selectFrom('messaging_limits').selectAll().where('shop_id', '=', shopId).orderBy('channel').execute();
}

/** Replaces the shop's limits with `rows`. */
export async function replaceLimits(db: Executor, shopId: string, rows: readonly Insertable<MessagingLimitsTable>[]): Promise<void> {
  await db.deleteFrom('messaging_limits').where('shop_id', '=', shopId).execute();
  if (rows.length > 0)
    await db
      .insertInto('messaging_limits')
      .values([...rows])
      .execute();
}

/**
 * Counts one message in a profile's period unless the count has reached `cap`: one
 * conditional upsert, so that concurrent writers never pass the cap together. True when
 * it was counted.
 */
export async function countUnderCap(
  db: Executor,
  key: { shopId: string; profileId: number; channel: string; period: string },
  cap: number,
): Promise<boolean> {
  if (cap <= 0) return false;
  const row = await db
    .insertInto('bulk_cap_counters')
    .values({ shop_id: key.shopId, profile_id: key.profileId, channel: key.channel, period: key.period, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'profile_id', 'channel', 'period'])
        .doUpdateSet((eb) => ({ count: eb('bulk_cap_counters.count', '+', 1) }))
        .where('bulk_cap_counters.count', '<', cap),
    )
    .returning('count')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes back one count (a day counted whose week was full), in the same transaction. */
export async function uncount(db: Executor, key: { shopId: string; profileId: number; channel: string; period: string }): Promise<void> {
  await db
    .updateTable('bulk_cap_counters')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('shop_id', '=', key.shopId)
    .where('profile_id', '=', key.profileId)
    .where('channel', '=', key.channel)
    .where('period', '=', key.period)
    .execute();
}
