import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, WalletPassesTable } from '../../../db/types.js';

/** Wallet passes and device registrations (migration 0026). Every query names its shop. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type PassRow = Selectable<WalletPassesTable>;

export interface PassToDeliver {
  readonly serial_number: string;
  readonly push_token: string;
}

export async function insertPass(db: Executor, row: PassRow): Promise<void> {
  await db.insertInto('wallet_passes').values(row).execute();
}

export async function findPass(db: Executor, shopId: string, serialNumber: string): Promise<PassRow | undefined> {
  return db
    .selectFrom('wallet_passes')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('serial_number', '=', serialNumber)
    .executeTakeFirst();
}

export async function listPassesOf(db: Executor, shopId: string, profileId: number): Promise<PassRow[]> {
  return db
    .selectFrom('wallet_passes')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('created_at')
    .orderBy('serial_number')
    .execute();
}

/**
 * Puts a message on every pass of a profile. updated_at moves to `stamp` (a whole second,
 * see wallet.service.ts) or, for a pass already changed in that second or later, one
 * second past its last change: every change gets a Last-Modified of its own, which
 * If-Modified-Since (whole seconds) can tell apart.
 */
export async function setMessage(db: Executor, shopId: string, profileId: number, message: string, stamp: number): Promise<number> {
  const result = await db
    .updateTable('wallet_passes')
    .set({
      message,
      updated_at: sql<number>`case when updated_at >= ${stamp} then updated_at + 1000 else ${stamp} end`,
    })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The registrations of a profile's passes: one push per device and pass. */
export async function listDeliveries(db: Executor, shopId: string, profileId: number): Promise<PassToDeliver[]> {
  return db
    .selectFrom('wallet_passes as p')
    .innerJoin('wallet_registrations as r', (join) =>
      join
        .onRef('r.shop_id', '=', 'p.shop_id')
        .onRef('r.serial_number', '=', 'p.serial_number')
        .onRef('r.pass_type_id', '=', 'p.pass_type_id'),
    )
    .select(['p.serial_number', 'r.push_token'])
    .where('p.shop_id', '=', shopId)
    .where('p.profile_id', '=', profileId)
    .orderBy('p.serial_number')
    .orderBy('r.device_library_id')
    .execute();
}

/** Inserts a registration; false when the device had registered the pass already. */
export async function insertRegistration(
  db: Executor,
  row: { shop_id: string; device_library_id: string; pass_type_id: string; serial_number: string; push_token: string; now: number },
): Promise<boolean> {
  const { now, ...key } = row;
  const result = await db
    .insertInto('wallet_registrations')
    .values({ ...key, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['shop_id', 'device_library_id', 'pass_type_id', 'serial_number']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A device registering again may bring a new push token. */
export async function updateRegistrationToken(
  db: Executor,
  key: { shop_id: string; device_library_id: string; pass_type_id: string; serial_number: string },
  pushToken: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('wallet_registrations')
    .set({ push_token: pushToken, updated_at: now })
    .where('shop_id', '=', key.shop_id)
    .where('device_library_id', '=', key.device_library_id)
    .where('pass_type_id', '=', key.pass_type_id)
    .where('serial_number', '=', key.serial_number)
    .execute();
}

export async function deleteRegistration(
  db: Executor,
  key: { shop_id: string; device_library_id: string; pass_type_id: string; serial_number: string },
): Promise<number> {
  const result = await db
    .deleteFrom('wallet_registrations')
    .where('shop_id', '=', key.shop_id)
    .where('device_library_id', '=', key.device_library_id)
    .where('pass_type_id', '=', key.pass_type_id)
    .where('serial_number', '=', key.serial_number)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteRegistrationsByPushToken(db: Executor, shopId: string, pushToken: string): Promise<number> {
  const result = await db
    .deleteFrom('wallet_registrations')
    .where('shop_id', '=', shopId)
    .where('push_token', '=', pushToken)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function shopHasPasses(db: Executor, shopId: string): Promise<boolean> {
  const row = await db.selectFrom('wallet_passes').select('serial_number').where('shop_id', '=', shopId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The device's passes of a type changed after `since` (ms), oldest change first; all when undefined. */
export async function listUpdatedSerials(
  db: Executor,
  shopId: string,
  deviceLibraryId: string,
  passTypeId: string,
  since: number | undefined,
  limit: number,
): Promise<{ serial_number: string; updated_at: number }[]> {
  let query = db
    .selectFrom('wallet_registrations as r')
    .innerJoin('wallet_passes as p', (join) =>
      join
        .onRef('p.shop_id', '=', 'r.shop_id')
        .onRef('p.serial_number', '=', 'r.serial_number')
        .onRef('p.pass_type_id', '=', 'r.pass_type_id'),
    )
    .select(['p.serial_number', 'p.updated_at'])
    .where('r.shop_id', '=', shopId)
    .where('r.device_library_id', '=', deviceLibraryId)
    .where('r.pass_type_id', '=', passTypeId);
  if (since !== undefined) query = query.where('p.updated_at', '>', since);
  const rows = await query.orderBy('p.updated_at').orderBy('p.serial_number').limit(limit).execute();
  return rows.map((row) => ({ serial_number: row.serial_number, updated_at: Number(row.updated_at) }));
}

/** The identity merge participant: the merged profile's passes become the survivor's. */
export async function moveProfilePasses(trx: Transaction<Database>, shopId: string, fromId: number, intoId: number): Promise<void> {
  await trx
    .updateTable('wallet_passes')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}
