import type { Kysely, Selectable, Transaction } from 'kysely';
import { PreparedQuery } from '../../db/prepared-query.js';
import type { Database, LoyaltyLevelLaddersTable, LoyaltyLevelsTable, LoyaltyPurchasesTable } from '../../db/types.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type LadderRow = Selectable<LoyaltyLevelLaddersTable>;
export type LevelRow = Selectable<LoyaltyLevelsTable>;
export type PurchaseRow = Selectable<LoyaltyPurchasesTable>;

export async function findLadder(db: Executor, shopId: string): Promise<LadderRow | undefined> {
  return db.selectFrom('loyalty_level_ladders').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
}

/** The levels of the shop's ladder, in ladder order (min_total ascending). */
export async function listLevels(db: Executor, shopId: string): Promise<LevelRow[]> {
  return db.selectFrom('loyalty_levels').selectAll().where('shop_id', '=', shopId).orderBy('position').execute();
}

/** Replaces the ladder whole, and makes `nextRunAt` the due instant of its recompute chain. */
export async function replaceLadder(
  trx: Transaction<Database>,
  shopId: string,
  windowDays: number,
  levels: readonly Omit<LevelRow, 'shop_id' | 'position'>[],
  nextRunAt: number,
  now: number,
): Promise<void> {
  await trx
    .insertInto('loyalty_level_ladders')
    .values({ shop_id: shopId, window_days: windowDays, next_run_at: nextRunAt, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('shop_id').doUpdateSet({ window_days: windowDays, next_run_at: nextRunAt, updated_at: now }))
    .execute();
  await trx.deleteFrom('loyalty_levels').where('shop_id', '=', shopId).execute();
  if (levels.length === 0) return;
  await trx
    .insertInto('loyalty_levels')
    .values(levels.map((l, position) => ({ shop_id: shopId, ...l, position })))
    .execute();
}

/**
 * Moves the recompute chain on from the link due at `from` to `to`: the one conditional
 * UPDATE that lets a single delivery of a link schedule the next. False when the chain
 * was already moved (another delivery, or a PUT that started a new chain).
 */
export async function moveNextRun(
  trx: Transaction<Database>,
  shopId: string,
  from: number,
  to: number | null,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('loyalty_level_ladders')
    .set({ next_run_at: to, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('next_run_at', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Makes every member's level due for a recompute (a new ladder): one statement, read lazily or by the job. */
export async function markAllMembersDue(trx: Transaction<Database>, shopId: string, now: number): Promise<void> {
  await trx.updateTable('loyalty_members').set({ level_expires_at: now }).where('shop_id', '=', shopId).execute();
}

export async function markMemberDue(trx: Transaction<Database>, shopId: string, profileId: number, now: number): Promise<void> {
  await trx
    .updateTable('loyalty_members')
    .set({ level_expires_at: now })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .execute();
}

/**
 * Locks the member row for a level recompute, as every ledger write locks it first (the
 * same lock, the same order: no deadlock), so that two recomputes of one member run one
 * after another and the later one reads the purchases the earlier one committed. False
 * when the profile is not a member.
 */
export async function lockMember(trx: Transaction<Database>, shopId: string, profileId: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('loyalty_members')
    .set({ updated_at: now })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Compiled once (db/prepared-query.ts): every checkout of a member reads it.
const memberLevel = new PreparedQuery(2, (db, shopId: string, profileId: number) =>
  db
    .selectFrom('loyalty_members')
    .select(['level_code', 'level_expires_at'])
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId),
);

/** The level a member's row stores; LoyaltyLevelsService.levelOf computes the current one from it. */
export interface StoredLevel {
  readonly code: string | null;
  readonly expiresAt: number | null;
}

/** The member's stored level; undefined when the profile is no member of the shop. */
export async function findStoredLevel(db: Executor, shopId: string, profileId: number): Promise<StoredLevel | undefined> {
  const row = (await memberLevel.execute(db, shopId, profileId))[0];
  return row && { code: row.level_code, expiresAt: row.level_expires_at === null ? null : Number(row.level_expires_at) };
}

export async function setMemberLevel(
  trx: Transaction<Database>,
  shopId: string,
  profileId: number,
  code: string | null,
  expiresAt: number | null,
): Promise<void> {
  await trx
    .updateTable('loyalty_members')
    .set({ level_code: code, level_expires_at: expiresAt })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .execute();
}

/** Members whose level is due (expired, or marked by a new ladder), soonest first. */
export async function listDueMembers(db: Executor, shopId: string, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('loyalty_members')
    .select('profile_id')
    .where('shop_id', '=', shopId)
    .where('level_expires_at', '<=', now)
    .orderBy('level_expires_at')
    .orderBy('profile_id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.profile_id));
}

/** Records a confirmed purchase; an order already recorded (in any status) is left as it is. True when inserted. */
export async function insertPurchase(trx: Transaction<Database>, row: PurchaseRow): Promise<boolean> {
  const result = await trx
    .insertInto('loyalty_purchases')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'order_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findPurchase(db: Executor, shopId: string, orderId: string): Promise<PurchaseRow | undefined> {
  return db.selectFrom('loyalty_purchases').selectAll().where('shop_id', '=', shopId).where('order_id', '=', orderId).executeTakeFirst();
}

/**
 * Confirmed → cancelled, once: the conditional UPDATE decides. Only while the purchase is
 * `profileId`'s (whose lock the caller holds). The row when it was cancelled by this call.
 */
export async function cancelPurchase(
  trx: Transaction<Database>,
  shopId: string,
  orderId: string,
  profileId: number,
  now: number,
): Promise<PurchaseRow | undefined> {
  return trx
    .updateTable('loyalty_purchases')
    .set({ status: 'cancelled', updated_at: now })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('profile_id', '=', profileId)
    .where('status', '=', 'confirmed')
    .returningAll()
    .executeTakeFirst();
}

/** The member's confirmed purchases made after `since` (those a window ending now or later can hold). */
export async function listPurchasesSince(
  db: Executor,
  shopId: string,
  profileId: number,
  since: number,
): Promise<{ amount: number; at: number }[]> {
  const rows = await db
    .selectFrom('loyalty_purchases')
    .select(['amount', 'purchased_at'])
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('purchased_at', '>', since)
    .where('status', '=', 'confirmed')
    .execute();
  return rows.map((r) => ({ amount: Number(r.amount), at: Number(r.purchased_at) }));
}

/** A profile merge: the merged profile's purchases count for the surviving one. */
export async function movePurchases(trx: Transaction<Database>, shopId: string, fromId: number, intoId: number): Promise<void> {
  await trx
    .updateTable('loyalty_purchases')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}
