import type { Selectable, Transaction } from 'kysely';
import type { Database, LoyaltyEventRewardedTable, LoyaltyEventRewardsTable } from '../../db/types.js';
import type { Executor } from './loyalty.repo.js';

export type RuleRow = Selectable<LoyaltyEventRewardsTable>;
export type RewardedRow = Selectable<LoyaltyEventRewardedTable>;

export async function upsertRule(db: Executor, row: RuleRow): Promise<RuleRow> {
  return db
    .insertInto('loyalty_event_rewards')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'event_code']).doUpdateSet({ amount: row.amount, updated_at: row.updated_at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findRule(db: Executor, shopId: string, eventCode: string): Promise<RuleRow | undefined> {
  return db
    .selectFrom('loyalty_event_rewards')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('event_code', '=', eventCode)
    .executeTakeFirst();
}

/** The shop's rules by code; at most `limit`. */
export async function listRules(db: Executor, shopId: string, limit: number): Promise<RuleRow[]> {
  return db.selectFrom('loyalty_event_rewards').selectAll().where('shop_id', '=', shopId).orderBy('event_code').limit(limit).execute();
}

/** The codes the shop has a rule for (the tracking subscriber's cache). */
export async function listRuleCodes(db: Executor, shopId: string): Promise<string[]> {
  const rows = await db.selectFrom('loyalty_event_rewards').select('event_code').where('shop_id', '=', shopId).execute();
  return rows.map((r) => r.event_code);
}

/** False when the shop had no rule for the code. */
export async function deleteRule(db: Executor, shopId: string, eventCode: string): Promise<boolean> {
  const result = await db
    .deleteFrom('loyalty_event_rewards')
    .where('shop_id', '=', shopId)
    .where('event_code', '=', eventCode)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findRewarded(db: Executor, shopId: string, profileId: number, eventCode: string): Promise<RewardedRow | undefined> {
  return db
    .selectFrom('loyalty_event_rewarded')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('event_code', '=', eventCode)
    .executeTakeFirst();
}

/**
 * Records that the member was rewarded for the code. False when it already was: the
 * primary key (shop, member, code), not a read before, decides.
 */
export async function insertRewarded(trx: Transaction<Database>, row: RewardedRow): Promise<boolean> {
  const result = await trx
    .insertInto('loyalty_event_rewarded')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'profile_id', 'event_code']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * A profile merge (an identity merge participant, in the merge's transaction): the merged
 * profile's rewarded codes move to the survivor. A code both were rewarded for keeps the
 * survivor's row (the primary key allows one); the merged one's credit stays in the
 * ledger, which moved whole.
 */
export async function moveRewarded(trx: Transaction<Database>, shopId: string, fromId: number, intoId: number): Promise<void> {
  await trx
    .deleteFrom('loyalty_event_rewarded')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .where('event_code', 'in', (eb) =>
      eb.selectFrom('loyalty_event_rewarded').select('event_code').where('shop_id', '=', shopId).where('profile_id', '=', intoId),
    )
    .execute();
  await trx
    .updateTable('loyalty_event_rewarded')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}
