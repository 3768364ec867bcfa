import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  Database,
  HoldStatus,
  LoyaltyHoldsTable,
  LoyaltyLotsTable,
  LoyaltySettingsTable,
  LoyaltyTransactionsTable,
  LotStatus,
} from '../../db/types.js';
import { PreparedQuery, PreparedQueryFamily, PreparedRowQuery } from '../../db/prepared-query.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type SettingsRow = Selectable<LoyaltySettingsTable>;
export type LotRow = Selectable<LoyaltyLotsTable>;
export type TransactionRow = Selectable<LoyaltyTransactionsTable>;
export type HoldRow = Selectable<LoyaltyHoldsTable>;

export async function findSettings(db: Executor, shopId: string): Promise<SettingsRow | undefined> {
  return db.selectFrom('loyalty_settings').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
}

export async function upsertSettings(db: Executor, row: SettingsRow): Promise<SettingsRow> {
  const { shop_id: _shop, created_at: _created, ...changes } = row;
  return db
    .insertInto('loyalty_settings')
    .values(row)
    .onConflict((oc) => oc.column('shop_id').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Makes the profile a member; false when it was one already. */
export async function insertMember(db: Executor, shopId: string, profileId: number, now: number): Promise<boolean> {
  const result = await db
    .insertInto('loyalty_members')
    .values({ shop_id: shopId, profile_id: profileId, version: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['shop_id', 'profile_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

// The checkout's reads of the member, compiled once (db/prepared-query.ts).
const memberRow = new PreparedQuery(2, (db, shopId: string, profileId: number) =>
  db.selectFrom('loyalty_members').select('profile_id').where('shop_id', '=', shopId).where('profile_id', '=', profileId),
);

export async function isMember(db: Executor, shopId: string, profileId: number): Promise<boolean> {
  return (await memberRow.execute(db, shopId, profileId)).length > 0;
}

/**
 * The per-member lock of every ledger write: an UPDATE of the member row, which
 * PostgreSQL holds until the transaction ends, so that the member's writes run one after
 * another and each reads the lots as the previous one left them (SQLite has one writer).
 * False when the profile is not a member.
 */
// Every ledger write runs these two first: compiled once (db/prepared-query.ts).
const memberLock = new PreparedQuery(3, (db, shopId: string, profileId: number, now: number) =>
  db
    .updateTable('loyalty_members')
    .set((eb) => ({ version: eb('version', '+', sql.lit(1)), updated_at: now }))
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .returning('profile_id'),
);

export async function lockMember(trx: Transaction<Database>, shopId: string, profileId: number, now: number): Promise<boolean> {
  return (await memberLock.execute(trx, shopId, profileId, now)).length === 1;
}

const sequenceStep = new PreparedQuery(1, (db, shopId: string) =>
  db
    .insertInto('loyalty_sequences')
    .values({ shop_id: shopId, last_id: sql.lit(1) })
    .onConflict((oc) => oc.column('shop_id').doUpdateSet((eb) => ({ last_id: eb('loyalty_sequences.last_id', '+', sql.lit(1)) })))
    .returning('last_id'),
);

/** The next ledger transaction id of the shop. */
export async function nextTransactionId(trx: Transaction<Database>, shopId: string): Promise<number> {
  const row = (await sequenceStep.execute(trx, shopId))[0];
  if (!row) throw new Error('The ledger sequence returned no row');
  return Number(row.last_id);
}

// The ledger's writes that every apply, confirm and cancel runs, compiled once per row shape (db/prepared-query.ts).
const transactionInsert = new PreparedRowQuery(0, (db, row: TransactionRow) => db.insertInto('loyalty_transactions').values(row));
const lotInsert = new PreparedRowQuery(0, (db, row: LotRow) => db.insertInto('loyalty_lots').values(row));

export async function insertTransaction(db: Executor, row: TransactionRow): Promise<void> {
  await transactionInsert.run(db, row);
}

export async function insertLot(db: Executor, row: LotRow): Promise<void> {
  await lotInsert.run(db, row);
}

/** The member's lots that may pay (confirmed, something left), in no particular order. */
// The statuses and the zero are literals of the SQL rather than bound values: SQLite plans
// a prepared statement once, and plans this read of a member's few lots several times
// faster when it sees them.
const openLots = new PreparedQuery(2, (db, shopId: string, profileId: number) =>
  db
    .selectFrom('loyalty_lots')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('status', 'in', [sql.lit<LotStatus>('confirmed'), sql.lit<LotStatus>('pending')])
    .where('remaining', '>', sql.lit(0)),
);

export async function listOpenLots(db: Executor, shopId: string, profileId: number): Promise<LotRow[]> {
  return openLots.execute(db, shopId, profileId);
}

// One text per set of statuses the callers name (two), which are literals of the SQL as in openLots.
const lotTake = new PreparedQueryFamily(
  (statuses: string) =>
    new PreparedQuery(4, (db, shopId: string, lotId: number, amount: number, now: number) =>
      db
        .updateTable('loyalty_lots')
        .set((eb) => ({ remaining: eb('remaining', '-', amount), updated_at: now }))
        .where('shop_id', '=', shopId)
        .where('id', '=', lotId)
        .where(
          'status',
          'in',
          statuses.split(',').map((status) => sql.lit(status as LotStatus)),
        )
        .where('remaining', '>=', amount),
    ),
);

/**
 * Takes `amount` from a lot, only if it still has that much: the database, not an
 * earlier read, guarantees no lot goes below zero. False when it had not.
 */
export async function takeFromLot(
  trx: Transaction<Database>,
  shopId: string,
  lotId: number,
  amount: number,
  now: number,
  statuses: readonly LotStatus[],
): Promise<boolean> {
  const result = await lotTake.of(statuses.join(',')).run(trx, shopId, lotId, amount, now);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

const lotReturn = new PreparedQuery(4, (db, shopId: string, lotId: number, amount: number, now: number) =>
  db
    .updateTable('loyalty_lots')
    .set((eb) => ({ remaining: eb('remaining', '+', amount), updated_at: now }))
    .where('shop_id', '=', shopId)
    .where('id', '=', lotId),
);

/** Gives back what an allocation took from a lot (a release, later a refund). */
export async function returnToLot(trx: Transaction<Database>, shopId: string, lotId: number, amount: number, now: number): Promise<void> {
  await lotReturn.run(trx, shopId, lotId, amount, now);
}

/** The most allocations one prepared insert writes; a draw from more lots takes several. */
const ALLOCATIONS_PER_INSERT = 8;
const allocationInsert = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(2 + 2 * size, (db, shopId: string, transactionId: number, ...lots: number[]) =>
      db.insertInto('loyalty_allocations').values(
        Array.from({ length: size }, (_, i) => ({
          shop_id: shopId,
          transaction_id: transactionId,
          lot_id: lots[2 * i] as number,
          amount: lots[2 * i + 1] as number,
        })),
      ),
    ),
);

export async function insertAllocations(
  db: Executor,
  shopId: string,
  transactionId: number,
  parts: readonly { lotId: number; amount: number }[],
): Promise<void> {
  for (let at = 0; at < parts.length; at += ALLOCATIONS_PER_INSERT) {
    const slice = parts.slice(at, at + ALLOCATIONS_PER_INSERT);
    await allocationInsert.of(slice.length).run(db, shopId, transactionId, ...slice.flatMap((p) => [p.lotId, p.amount]));
  }
}

export async function listAllocations(db: Executor, shopId: string, transactionId: number): Promise<{ lot_id: number; amount: number }[]> {
  return db
    .selectFrom('loyalty_allocations')
    .select(['lot_id', 'amount'])
    .where('shop_id', '=', shopId)
    .where('transaction_id', '=', transactionId)
    .orderBy('lot_id')
    .execute();
}

const holdInsert = new PreparedRowQuery(0, (db, row: HoldRow) => db.insertInto('loyalty_holds').values(row));

export async function insertHold(db: Executor, row: HoldRow): Promise<void> {
  await holdInsert.run(db, row);
}

/**
 * Moves an active hold of the member to `status`: the one conditional UPDATE that
 * decides between release and capture, so a hold is settled once. False when it was not active.
 */
export async function settleHold(
  trx: Transaction<Database>,
  shopId: string,
  holdId: number,
  status: Exclude<HoldStatus, 'active'>,
  now: number,
): Promise<HoldRow | undefined> {
  return trx
    .updateTable('loyalty_holds')
    .set({ status, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', holdId)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

export async function setTransactionStatus(
  trx: Transaction<Database>,
  shopId: string,
  id: number,
  status: TransactionRow['status'],
  now: number,
): Promise<void> {
  await trx
    .updateTable('loyalty_transactions')
    .set({ status, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .execute();
}

/** A lot of the member (its id is its credit's transaction id). */
export async function findLot(db: Executor, shopId: string, profileId: number, lotId: number): Promise<LotRow | undefined> {
  return db
    .selectFrom('loyalty_lots')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('id', '=', lotId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
}

/** A transaction of the member; another member's or another shop's is not found. */
export async function findTransaction(db: Executor, shopId: string, profileId: number, id: number): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('loyalty_transactions')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
}

export async function findHold(db: Executor, shopId: string, id: number): Promise<HoldRow | undefined> {
  return db.selectFrom('loyalty_holds').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

/** Moves a lot from one of `from` to `to`: a conditional UPDATE; false when it was in none of them. */
export async function setLotStatus(
  trx: Transaction<Database>,
  shopId: string,
  lotId: number,
  from: readonly LotStatus[],
  to: LotStatus,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('loyalty_lots')
    .set({ status: to, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', lotId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels a transaction that is still `from`: the one UPDATE that lets a refund happen once. */
export async function cancelTransaction(
  trx: Transaction<Database>,
  shopId: string,
  id: number,
  from: LotStatus,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('loyalty_transactions')
    .set({ status: 'cancelled', updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listActiveHolds(db: Executor, shopId: string, profileId: number): Promise<HoldRow[]> {
  return db
    .selectFrom('loyalty_holds')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('status', '=', 'active')
    .execute();
}

/** The member's transactions, newest first. */
export async function listTransactions(db: Executor, shopId: string, profileId: number, limit: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('loyalty_transactions')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * A profile merge (an identity merge participant, in the merge's transaction): the merged
 * profile's ledger moves to the surviving one, whole, so that no bonus is lost. The
 * surviving profile becomes a member if the merged one was.
 */
export async function moveLedger(trx: Transaction<Database>, shopId: string, fromId: number, intoId: number, now: number): Promise<void> {
  // The member row first, as every ledger write takes it first: the same lock order, no deadlock.
  const removed = await trx.deleteFrom('loyalty_members').where('shop_id', '=', shopId).where('profile_id', '=', fromId).executeTakeFirst();
  for (const table of ['loyalty_transactions', 'loyalty_lots', 'loyalty_holds'] as const) {
    await trx.updateTable(table).set({ profile_id: intoId }).where('shop_id', '=', shopId).where('profile_id', '=', fromId).execute();
  }
  if (Number(removed.numDeletedRows) > 0) await insertMember(trx, shopId, intoId, now);
}
