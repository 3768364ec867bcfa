import { sql, type Selectable, type Transaction } from 'kysely';
import { PreparedQuery, PreparedQueryFamily, PreparedRowQuery } from '../../db/prepared-query.js';
import { inListSlices } from '../../db/statement-slices.js';
import type { Database, PromoCodesTable, PromoCodeUsesTable, PromoUseStatus } from '../../db/types.js';
import type { Executor } from './promotions.repo.js';

export type { Executor };

export type PromoCodeRow = Selectable<PromoCodesTable>;
export type PromoCodeUseRow = Selectable<PromoCodeUsesTable>;

/**
 * Inserts the codes that are free and answers those it inserted (RETURNING gives the
 * inserted rows only, on both databases); a code the shop has already is left as it was.
 */
export async function insertCodes(db: Executor, rows: readonly PromoCodeRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insertInto('promo_codes')
    .values([...rows])
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .returning('code')
    .execute();
  return inserted.map((r) => r.code);
}

export async function findCode(db: Executor, shopId: string, code: string): Promise<PromoCodeRow | undefined> {
  return db.selectFrom('promo_codes').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

// The checkout's reads of the codes it is given, one prepared text per padded IN list size (db/prepared-query.ts).
const codeRows = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(1 + size, (db, shopId: string, ...codes: string[]) =>
      db.selectFrom('promo_codes').selectAll().where('shop_id', '=', shopId).where('code', 'in', codes),
    ),
);

export async function findCodes(db: Executor, shopId: string, codes: readonly string[]): Promise<PromoCodeRow[]> {
  const rows: PromoCodeRow[] = [];
  for (const slice of inListSlices([...new Set(codes)])) rows.push(...(await codeRows.of(slice.length).execute(db, shopId, ...slice)));
  return rows;
}

/** A promotion's codes in code order, after the keyset `after`. */
export async function listCodes(
  db: Executor,
  shopId: string,
  promotionId: number,
  after: string | undefined,
  limit: number,
): Promise<PromoCodeRow[]> {
  let query = db.selectFrom('promo_codes').selectAll().where('shop_id', '=', shopId).where('promotion_id', '=', promotionId);
  if (after !== undefined) query = query.where('code', '>', after);
  return query.orderBy('code').limit(limit).execute();
}

/**
 * Blocks one use of the code if it has one left and has not ended: the single
 * conditional UPDATE that holds `used + blocked <= usage_limit` under any concurrency
 * (PostgreSQL re-checks the condition on the row it waited for). Undefined: refused.
 */
// Compiled once (db/prepared-query.ts): every apply with a code runs it.
const blockTaken = new PreparedQuery(3, (db, shopId: string, code: string, now: number) =>
  db
    .updateTable('promo_codes')
    .set((eb) => ({ blocked: eb('blocked', '+', sql.lit(1)), updated_at: now }))
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb(eb('used', '+', eb.ref('blocked')), '<', eb.ref('usage_limit'))]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .returning(['promotion_id', 'per_member_limit']),
);

export async function takeBlock(
  trx: Transaction<Database>,
  shopId: string,
  code: string,
  now: number,
): Promise<Pick<PromoCodeRow, 'promotion_id' | 'per_member_limit'> | undefined> {
  return (await blockTaken.execute(trx, shopId, code, now))[0];
}

/** Moves the code's counters by a settled use: a block given back, a block counted, a use un-counted. */
export async function moveCounters(
  trx: Transaction<Database>,
  shopId: string,
  code: string,
  change: { blocked: -1 | 0; used: -1 | 0 | 1 },
  now: number,
): Promise<void> {
  await trx
    .updateTable('promo_codes')
    .set((eb) => ({ blocked: eb('blocked', '+', change.blocked), used: eb('used', '+', change.used), updated_at: now }))
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .execute();
}

/**
 * Counts one more use or block of the code by the member if that stays within `limit`:
 * an upsert whose update is conditional, so that concurrent blocks of one member never
 * pass the limit. False: the member has used it up.
 */
export async function takeMemberSlot(
  trx: Transaction<Database>,
  shopId: string,
  code: string,
  profileId: number,
  limit: number,
): Promise<boolean> {
  const row = await trx
    .insertInto('promo_code_members')
    .values({ shop_id: shopId, code, profile_id: profileId, taken: 1 })
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'code', 'profile_id'])
        .doUpdateSet((eb) => ({ taken: eb('promo_code_members.taken', '+', 1) }))
        .where('promo_code_members.taken', '<', limit),
    )
    .returning('taken')
    .executeTakeFirst();
  return row !== undefined;
}

export async function giveBackMemberSlot(trx: Transaction<Database>, shopId: string, code: string, profileId: number): Promise<void> {
  await trx
    .updateTable('promo_code_members')
    .set((eb) => ({ taken: eb('taken', '-', 1) }))
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where('profile_id', '=', profileId)
    .where('taken', '>', 0)
    .execute();
}

/**
 * Marks the order's use of the code blocked: a new row, or a released one taken again.
 * Undefined when the order already has it blocked, used or cancelled.
 */
// Compiled once (db/prepared-query.ts): every apply with a code runs it.
const useClaim = new PreparedRowQuery(0, (db, row: PromoCodeUseRow) =>
  db
    .insertInto('promo_code_uses')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'order_id', 'code'])
        .doUpdateSet({ status: sql.lit<PromoUseStatus>('blocked'), profile_id: row.profile_id, updated_at: row.updated_at })
        .where('promo_code_uses.status', '=', sql.lit<PromoUseStatus>('released')),
    )
    .returningAll(),
);

export async function claimUse(trx: Transaction<Database>, row: PromoCodeUseRow): Promise<PromoCodeUseRow | undefined> {
  return (await useClaim.run(trx, row)).rows[0];
}

export async function findUse(db: Executor, shopId: string, orderId: string, code: string): Promise<PromoCodeUseRow | undefined> {
  return db
    .selectFrom('promo_code_uses')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('code', '=', code)
    .executeTakeFirst();
}

/** The codes this order has blocked, with the buyer each was blocked for. */
export async function blockedCodesOf(db: Executor, shopId: string, orderId: string): Promise<{ code: string; profileId: number | null }[]> {
  const rows = await db
    .selectFrom('promo_code_uses')
    .select(['code', 'profile_id'])
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', 'blocked')
    .execute();
  return rows.map((r) => ({ code: r.code, profileId: r.profile_id === null ? null : Number(r.profile_id) }));
}

/** A member's uses and blocks of these codes (promo_code_members.taken). */
const memberTaken = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(2 + size, (db, shopId: string, profileId: number, ...codes: string[]) =>
      db
        .selectFrom('promo_code_members')
        .select(['code', 'taken'])
        .where('shop_id', '=', shopId)
        .where('profile_id', '=', profileId)
        .where('code', 'in', codes),
    ),
);

export async function memberTakenOf(
  db: Executor,
  shopId: string,
  profileId: number,
  codes: readonly string[],
): Promise<Map<string, number>> {
  const taken = new Map<string, number>();
  for (const slice of inListSlices([...new Set(codes)])) {
    for (const r of await memberTaken.of(slice.length).execute(db, shopId, profileId, ...slice)) taken.set(r.code, Number(r.taken));
  }
  return taken;
}
