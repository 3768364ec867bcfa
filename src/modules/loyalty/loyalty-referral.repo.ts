import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { PreparedQuery } from '../../db/prepared-query.js';
import type { Database, LoyaltyReferralProgramsTable, LoyaltyReferralsTable } from '../../db/types.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type ProgramRow = Selectable<LoyaltyReferralProgramsTable>;
export type ReferralRow = Selectable<LoyaltyReferralsTable>;

export async function findProgram(db: Executor, shopId: string): Promise<ProgramRow | undefined> {
  return db.selectFrom('loyalty_referral_programs').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
}

export async function upsertProgram(db: Executor, row: ProgramRow): Promise<ProgramRow> {
  const { shop_id: _shop, created_at: _created, ...changes } = row;
  return db
    .insertInto('loyalty_referral_programs')
    .values(row)
    .onConflict((oc) => oc.column('shop_id').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findCodeOf(db: Executor, shopId: string, profileId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('loyalty_referral_codes')
    .select('code')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return row?.code;
}

/** The profile a code was given to (possibly since merged into another). */
export async function findCodeOwner(db: Executor, shopId: string, code: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('loyalty_referral_codes')
    .select('profile_id')
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.profile_id);
}

/**
 * Gives the member a code unless it has one (the primary key decides between two first
 * asks). A code already given to another member of the shop violates the unique index:
 * the caller draws another.
 */
export async function insertCode(db: Executor, shopId: string, profileId: number, code: string, now: number): Promise<void> {
  await db
    .insertInto('loyalty_referral_codes')
    .values({ shop_id: shopId, profile_id: profileId, code, created_at: now })
    .onConflict((oc) => oc.columns(['shop_id', 'profile_id']).doNothing())
    .execute();
}

// Compiled once (db/prepared-query.ts): every checkout of a member asks it.
const referralRow = new PreparedQuery(2, (db, shopId: string, refereeId: number) =>
  db.selectFrom('loyalty_referrals').selectAll().where('shop_id', '=', shopId).where('referee_id', '=', refereeId),
);

export async function findReferral(db: Executor, shopId: string, refereeId: number): Promise<ReferralRow | undefined> {
  return (await referralRow.execute(db, shopId, refereeId))[0];
}

/**
 * Records that `referrerId` referred `refereeId`: only the first referrer of a referee
 * (the primary key), and only a referee with no purchase recorded yet (a customer who has
 * bought already was not brought by anyone). True when recorded.
 */
export async function insertReferral(db: Executor, shopId: string, refereeId: number, referrerId: number, now: number): Promise<boolean> {
  const result = await db
    .insertInto('loyalty_referrals')
    .columns(['shop_id', 'referee_id', 'referrer_id', 'status', 'order_id', 'transaction_id', 'created_at', 'updated_at'])
    .expression(
      db
        // Typed: PostgreSQL reads an untyped parameter in a select list as text.
        .selectNoFrom([
          sql<string>`cast(${shopId} as text)`.as('shop_id'),
          sql<number>`cast(${refereeId} as bigint)`.as('referee_id'),
          sql<number>`cast(${referrerId} as bigint)`.as('referrer_id'),
          sql<string>`cast(${'open'} as text)`.as('status'),
          sql<string | null>`cast(null as text)`.as('order_id'),
          sql<number | null>`cast(null as bigint)`.as('transaction_id'),
          sql<number>`cast(${now} as bigint)`.as('created_at'),
          sql<number>`cast(${now} as bigint)`.as('updated_at'),
        ])
        .where((w) =>
          w.not(
            w.exists(
              w.selectFrom('loyalty_purchases').select('order_id').where('shop_id', '=', shopId).where('profile_id', '=', refereeId),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.columns(['shop_id', 'referee_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * open → `status` for the referee's purchase `orderId`, once: the one conditional UPDATE
 * that makes a referral reward (or close) at most once, and only while the purchase is
 * still confirmed and still the referee's.
 */
export async function settleReferral(
  trx: Transaction<Database>,
  shopId: string,
  refereeId: number,
  orderId: string,
  status: 'rewarded' | 'closed',
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('loyalty_referrals')
    .set({ status, order_id: orderId, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('referee_id', '=', refereeId)
    .where('status', '=', 'open')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('loyalty_purchases')
          .select('order_id')
          .where('loyalty_purchases.shop_id', '=', shopId)
          .where('loyalty_purchases.order_id', '=', orderId)
          .where('loyalty_purchases.profile_id', '=', refereeId)
          .where('loyalty_purchases.status', '=', 'confirmed'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setReferralTransaction(
  trx: Transaction<Database>,
  shopId: string,
  refereeId: number,
  transactionId: number,
): Promise<void> {
  await trx
    .updateTable('loyalty_referrals')
    .set({ transaction_id: transactionId })
    .where('shop_id', '=', shopId)
    .where('referee_id', '=', refereeId)
    .execute();
}

/** rewarded → cancelled for the purchase `orderId`, once; the reward's transaction id when this call cancelled it. */
export async function cancelReferralReward(
  trx: Transaction<Database>,
  shopId: string,
  refereeId: number,
  orderId: string,
  now: number,
): Promise<number | null | undefined> {
  const row = await trx
    .updateTable('loyalty_referrals')
    .set({ status: 'cancelled', updated_at: now })
    .where('shop_id', '=', shopId)
    .where('referee_id', '=', refereeId)
    .where('order_id', '=', orderId)
    .where('status', '=', 'rewarded')
    .returning('transaction_id')
    .executeTakeFirst();
  return row === undefined ? undefined : row.transaction_id === null ? null : Number(row.transaction_id);
}

/** How many members the referrer brought, and how many of them earned it a reward that stands. */
export async function countReferrals(db: Executor, shopId: string, referrerId: number): Promise<{ referrals: number; rewarded: number }> {
  const rows = await db
    .selectFrom('loyalty_referrals')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('shop_id', '=', shopId)
    .where('referrer_id', '=', referrerId)
    .groupBy('status')
    .execute();
  const count = (status?: string) =>
    rows.filter((r) => status === undefined || r.status === status).reduce((sum, r) => sum + Number(r.n), 0);
  return { referrals: count(), rewarded: count('rewarded') };
}

/**
 * A profile merge (an identity merge participant, in the merge's transaction). The
 * surviving profile keeps its own referrer if it has one, else takes the merged one's; it
 * becomes the referrer of whom the merged profile referred. A referral of the survivor by
 * itself is dropped.
 */
export async function mergeReferrals(trx: Transaction<Database>, shopId: string, fromId: number, intoId: number): Promise<void> {
  const intoReferred = await findReferral(trx, shopId, intoId);
  if (!intoReferred) {
    await trx
      .updateTable('loyalty_referrals')
      .set({ referee_id: intoId })
      .where('shop_id', '=', shopId)
      .where('referee_id', '=', fromId)
      .where('referrer_id', '<>', intoId)
      .execute();
  }
  await trx.deleteFrom('loyalty_referrals').where('shop_id', '=', shopId).where('referee_id', '=', fromId).execute();
  await trx
    .deleteFrom('loyalty_referrals')
    .where('shop_id', '=', shopId)
    .where('referee_id', '=', intoId)
    .where('referrer_id', '=', fromId)
    .execute();
  await trx
    .updateTable('loyalty_referrals')
    .set({ referrer_id: intoId })
    .where('shop_id', '=', shopId)
    .where('referrer_id', '=', fromId)
    .execute();
}
