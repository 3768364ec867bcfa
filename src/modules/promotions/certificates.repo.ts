import { sql, type Selectable, type Transaction } from 'kysely';
import { PreparedQuery, PreparedQueryFamily, PreparedRowQuery } from '../../db/prepared-query.js';
import { inListSlices } from '../../db/statement-slices.js';
import type { CertificateHoldsTable, CertificateHoldStatus, CertificatesTable, Database } from '../../db/types.js';
import type { Executor } from './promotions.repo.js';

export type { Executor };

export type CertificateRow = Selectable<CertificatesTable>;
export type CertificateHoldRow = Selectable<CertificateHoldsTable>;

export async function insertPool(db: Executor, shopId: string, id: number, name: string, now: number): Promise<void> {
  await db.insertInto('certificate_pools').values({ shop_id: shopId, id, name, created_at: now }).execute();
}

export async function findPool(db: Executor, shopId: string, id: number): Promise<{ id: number; name: string } | undefined> {
  const row = await db
    .selectFrom('certificate_pools')
    .select(['id', 'name'])
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { id: Number(row.id), name: row.name } : undefined;
}

/** False when the shop has a certificate with this code already (the unique index decides). */
export async function insertCertificate(db: Executor, row: CertificateRow): Promise<boolean> {
  const result = await db
    .insertInto('certificates')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findByCode(db: Executor, shopId: string, code: string): Promise<CertificateRow | undefined> {
  return db.selectFrom('certificates').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

// The checkout's read of the certificates it is given, one prepared text per padded IN list size (db/prepared-query.ts).
const certificateRows = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(1 + size, (db, shopId: string, ...codes: string[]) =>
      db.selectFrom('certificates').selectAll().where('shop_id', '=', shopId).where('code', 'in', codes),
    ),
);

export async function findByCodes(db: Executor, shopId: string, codes: readonly string[]): Promise<CertificateRow[]> {
  const rows: CertificateRow[] = [];
  for (const slice of inListSlices([...new Set(codes)]))
    rows.push(...(await certificateRows.of(slice.length).execute(db, shopId, ...slice)));
  return rows;
}

/**
 * Holds `amount` of the certificate if that much is free and it has not expired: one
 * conditional UPDATE (`balance - held >= amount`), so concurrent holds never overdraw it
 * (the CHECK `held <= balance` says the same). Undefined: refused.
 */
// Compiled once (db/prepared-query.ts): every apply with a certificate runs it.
const holdTaken = new PreparedQuery(4, (db, shopId: string, code: string, amount: number, now: number) =>
  db
    .updateTable('certificates')
    .set((eb) => ({ held: eb('held', '+', amount), updated_at: now }))
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .where((eb) => eb(eb('balance', '-', eb.ref('held')), '>=', amount))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returning('id'),
);

export async function takeHold(
  trx: Transaction<Database>,
  shopId: string,
  code: string,
  amount: number,
  now: number,
): Promise<{ id: number } | undefined> {
  const row = (await holdTaken.execute(trx, shopId, code, amount, now))[0];
  return row ? { id: Number(row.id) } : undefined;
}

/** Moves a settled hold's amount: released (held −), captured (held −, balance −) or restored (balance +). */
export async function moveAmounts(
  trx: Transaction<Database>,
  shopId: string,
  certificateId: number,
  change: { held: number; balance: number },
  now: number,
): Promise<void> {
  await trx
    .updateTable('certificates')
    .set((eb) => ({ held: eb('held', '+', change.held), balance: eb('balance', '+', change.balance), updated_at: now }))
    .where('shop_id', '=', shopId)
    .where('id', '=', certificateId)
    .execute();
}

/** Writes the order's hold of a certificate over a released one; undefined when the order's hold is captured or refunded. */
// Compiled once (db/prepared-query.ts): every apply with a certificate runs it.
const holdClaim = new PreparedRowQuery(0, (db, row: CertificateHoldRow) =>
  db
    .insertInto('certificate_holds')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'order_id', 'code'])
        .doUpdateSet({
          status: sql.lit<CertificateHoldStatus>('held'),
          amount: row.amount,
          certificate_id: row.certificate_id,
          updated_at: row.updated_at,
        })
        .where('certificate_holds.status', '=', sql.lit<CertificateHoldStatus>('released')),
    )
    .returningAll(),
);

export async function claimHold(trx: Transaction<Database>, row: CertificateHoldRow): Promise<CertificateHoldRow | undefined> {
  return (await holdClaim.run(trx, row)).rows[0];
}

/** What the order holds of each certificate code. */
export async function heldOf(db: Executor, shopId: string, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('certificate_holds')
    .select(['code', 'amount'])
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', 'held')
    .execute();
  return new Map(rows.map((r) => [r.code, Number(r.amount)]));
}

/** What a certificate is now: spendable, spent to zero, or past its expiry with money left. */
export type CertificateStatus = 'active' | 'spent' | 'expired';

/**
 * A page of the shop's certificates, newest (highest id) first, after `beforeId`: a range
 * of (shop_id, id), or of (shop_id, pool_id, id) for one pool (0037); the status is checked
 * on the rows of that range, since it moves with time.
 */
export async function listCertificates(
  db: Executor,
  shopId: string,
  filter: { poolId?: number | undefined; status?: CertificateStatus | undefined; now: number },
  beforeId: number | null,
  limit: number,
): Promise<CertificateRow[]> {
  let query = db.selectFrom('certificates').selectAll().where('shop_id', '=', shopId);
  if (filter.poolId !== undefined) query = query.where('pool_id', '=', filter.poolId);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  const now = filter.now;
  if (filter.status === 'spent') query = query.where('balance', '=', 0);
  else if (filter.status === 'active') {
    query = query.where('balance', '>', 0).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  } else if (filter.status === 'expired') query = query.where('balance', '>', 0).where('expires_at', '<=', now);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** A page of the shop's certificate pools by id, after `afterId`. */
export async function listPools(
  db: Executor,
  shopId: string,
  afterId: number | null,
  limit: number,
): Promise<Array<{ id: number; name: string; created_at: number }>> {
  let query = db.selectFrom('certificate_pools').select(['id', 'name', 'created_at']).where('shop_id', '=', shopId);
  if (afterId !== null) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, created_at: Number(r.created_at) }));
}
