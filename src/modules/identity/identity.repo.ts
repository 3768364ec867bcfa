import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, DevicesTable, ProfileMergesTable, ProfilesTable } from '../../db/types.js';
import { PreparedQuery, PreparedQueryFamily } from '../../db/prepared-query.js';
import { BulkStatement, inListSlices, MAX_PARAMETERS } from '../../db/statement-slices.js';
import type { IdentifierField } from './domain/identifiers.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type ProfileRow = Selectable<ProfilesTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type MergeRow = Selectable<ProfileMergesTable>;
/** Identifier columns are named like the contract's parameters. */
export type IdentifierColumns = Partial<Record<IdentifierField, string>>;

// --- savepoints: the same statements on SQLite and PostgreSQL -------------------------

/** `name` is made by the service from a counter, never from input. */
export async function createSavepoint(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`savepoint ${sql.id(name)}`.execute(trx);
}

export async function rollbackToSavepoint(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`rollback to savepoint ${sql.id(name)}`.execute(trx);
}

export async function releaseSavepoint(trx: Transaction<Database>, name: string): Promise<void> {
  await sql`release savepoint ${sql.id(name)}`.execute(trx);
}

// --- profiles -------------------------------------------------------------------------

/** Inserts the profile; false when any unique key (an identifier, or the id) is taken. */
export async function insertProfile(db: Executor, row: ProfileRow): Promise<boolean> {
  const result = await db
    .insertInto('profiles')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Live profiles holding any of the given identifier values (at most one per column). */
export async function findLiveProfilesByIdentifiers(db: Executor, shopId: string, identifiers: IdentifierColumns): Promise<ProfileRow[]> {
  const entries = Object.entries(identifiers) as [IdentifierField, string][];
  if (entries.length === 0) return [];
  // One identifier (an email to /transact): the prepared text of its column.
  const [only] = entries;
  if (entries.length === 1 && only) return liveProfilesBy.of(only[0]).execute(db, shopId, only[1]);
  return db
    .selectFrom('profiles')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where((eb) => eb.or(entries.map(([column, value]) => eb(column, '=', value))))
    .where('merged_into', 'is', null)
    .execute();
}

/**
 * The live profiles of one identifier, the commonest lookup (a member by phone in every
 * checkout): one prepared text per identifier column (db/prepared-query.ts).
 */
const liveProfilesBy = new PreparedQueryFamily(
  (column: IdentifierField) =>
    new PreparedQuery(2, (db, shopId: string, value: string) =>
      db
        .selectFrom('profiles')
        .selectAll()
        .where('shop_id', '=', shopId)
        .where('merged_into', 'is', null)
        .where(column, '=', value)
        .orderBy('created_at')
        .orderBy('id'),
    ),
);

/** Live profiles matching every given criterion; `did` matches through the device. */
export async function findLiveProfiles(
  db: Executor,
  shopId: string,
  criteria: IdentifierColumns & { did?: string },
): Promise<ProfileRow[]> {
  const { did, ...identifiers } = criteria;
  const given = Object.entries(identifiers) as [IdentifierField, string][];
  const [only] = given;
  if (did === undefined && given.length === 1 && only) return liveProfilesBy.of(only[0]).execute(db, shopId, only[1]);
  let query = db.selectFrom('profiles').selectAll().where('shop_id', '=', shopId).where('merged_into', 'is', null);
  for (const [column, value] of Object.entries(identifiers) as [IdentifierField, string][]) {
    query = query.where(column, '=', value);
  }
  if (did !== undefined) {
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('devices').select('profile_id').where('shop_id', '=', shopId).where('did', '=', did),
    );
  }
  return query.orderBy('created_at').orderBy('id').execute();
}

/** The profile row, tombstone or not. */
// Compiled once (db/prepared-query.ts): a message reads its recipient twice, a delivery may again.
const profileRow = new PreparedQuery(2, (db, shopId: string, id: number) =>
  db.selectFrom('profiles').selectAll().where('shop_id', '=', shopId).where('id', '=', id),
);

export async function findProfileRow(db: Executor, shopId: string, id: number): Promise<ProfileRow | undefined> {
  const [row] = await profileRow.execute(db, shopId, id);
  return row;
}

/** The ids of the tombstones merged into a live profile (the index shop_id, merged_into). */
export async function listMergedIds(db: Executor, shopId: string, liveId: number): Promise<number[]> {
  const rows = await db.selectFrom('profiles').select('id').where('shop_id', '=', shopId).where('merged_into', '=', liveId).execute();
  return rows.map((row) => Number(row.id));
}

/** Profile rows by id, in one query (a page of bulk recipients). */
export async function findProfileRows(db: Executor, shopId: string, ids: readonly number[]): Promise<ProfileRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('profiles')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * Locks a live profile for the rest of the transaction by touching it, and returns its
 * newest version: an UPDATE locks the row on PostgreSQL and re-checks `merged_into` after
 * waiting for a concurrent writer, and needs no dialect branch (SQLite has one writer).
 */
export async function lockLiveProfile(db: Executor, shopId: string, id: number, now: number): Promise<ProfileRow | undefined> {
  return db
    .updateTable('profiles')
    .set({ updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('merged_into', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Fills identifier slots and sets properties of a live profile; false when it is gone. */
export async function updateLiveProfile(
  db: Executor,
  shopId: string,
  id: number,
  patch: IdentifierColumns & { properties?: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('profiles')
    .set({ ...patch, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('merged_into', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Turns a merged profile into a tombstone: its identifiers are released (so the survivor
 * can take them under the unique indexes) and it points at the survivor.
 */
export async function tombstoneProfile(db: Executor, shopId: string, fromId: number, intoId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('profiles')
    .set({
      merged_into: intoId,
      email: null,
      phone: null,
      external_id: null,
      loyalty_id: null,
      telegram_id: null,
      updated_at: now,
    })
    .where('shop_id', '=', shopId)
    .where('id', '=', fromId)
    .where('merged_into', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Older tombstones of the merged profile point straight at the survivor (one hop, always). */
export async function repointTombstones(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  await db.updateTable('profiles').set({ merged_into: intoId }).where('shop_id', '=', shopId).where('merged_into', '=', fromId).execute();
}

// --- devices --------------------------------------------------------------------------

export async function findDeviceRow(db: Executor, shopId: string, did: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('shop_id', '=', shopId).where('did', '=', did).executeTakeFirst();
}

/** Inserts the device; false when the shop already has that did. */
export async function insertDevice(db: Executor, row: DeviceRow): Promise<boolean> {
  const result = await db
    .insertInto('devices')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'did']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Sets last_seen_at and returns the row (locking it on PostgreSQL), or undefined when unknown. */
export async function touchDevice(db: Executor, shopId: string, did: string, now: number): Promise<DeviceRow | undefined> {
  return db
    .updateTable('devices')
    .set({ last_seen_at: now })
    .where('shop_id', '=', shopId)
    .where('did', '=', did)
    .returningAll()
    .executeTakeFirst();
}

/** Moves the device only if it still belongs to `fromId`. */
export async function relinkDevice(
  db: Executor,
  shopId: string,
  did: string,
  fromId: number,
  intoId: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('devices')
    .set({ profile_id: intoId, last_seen_at: now })
    .where('shop_id', '=', shopId)
    .where('did', '=', did)
    .where('profile_id', '=', fromId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function moveDevices(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  await db.updateTable('devices').set({ profile_id: intoId }).where('shop_id', '=', shopId).where('profile_id', '=', fromId).execute();
}

export async function listDevicesOf(db: Executor, shopId: string, profileIds: readonly number[]): Promise<DeviceRow[]> {
  if (profileIds.length === 0) return [];
  return db
    .selectFrom('devices')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', profileIds)
    .orderBy('created_at')
    .orderBy('did')
    .execute();
}

// --- merge log ------------------------------------------------------------------------

/** False when the random id is taken (the caller retries with another). */
export async function insertMergeRecord(db: Executor, row: MergeRow): Promise<boolean> {
  const result = await db
    .insertInto('profile_merges')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Records where the profile is either side, oldest first. */
export async function listMergeRecords(db: Executor, shopId: string, profileId: number): Promise<MergeRow[]> {
  return db
    .selectFrom('profile_merges')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where((eb) => eb.or([eb('from_profile_id', '=', profileId), eb('into_profile_id', '=', profileId)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

// --- set-wise statements of a batch resolution (batch-resolution.ts) -------------------

/** Identifier values per column, many per column. */
export type IdentifierValueSets = Partial<Record<IdentifierField, readonly string[]>>;

/**
 * Live profiles holding any of the given values: one SELECT per identifier column (and
 * IN list slice), joined by UNION ALL into as few statements as the parameter bound
 * allows. Each part uses its column's unique index; one OR over IN lists would make
 * SQLite's planner walk every live profile of the shop instead. Tombstones hold no
 * identifiers, so they never match.
 */
export async function findLiveProfilesByIdentifierSets(db: Executor, shopId: string, sets: IdentifierValueSets): Promise<ProfileRow[]> {
  const parts = (Object.entries(sets) as [IdentifierField, readonly string[]][]).flatMap(([column, values]) =>
    inListSlices([...new Set(values)]).map((slice) => ({ column, slice })),
  );
  const statements: (typeof parts)[] = [];
  let current: typeof parts = [];
  let parameters = 0;
  for (const part of parts) {
    if (current.length > 0 && parameters + part.slice.length > MAX_PARAMETERS) {
      statements.push(current);
      current = [];
      parameters = 0;
    }
    current.push(part);
    parameters += part.slice.length;
  }
  if (current.length > 0) statements.push(current);

  const found = new Map<number, ProfileRow>();
  for (const statement of statements) {
    const [first, ...rest] = statement.map(({ column, slice }) =>
      db.selectFrom('profiles').selectAll().where('shop_id', '=', shopId).where(column, 'in', slice),
    );
    if (!first) continue;
    const rows = await rest.reduce((query, part) => query.unionAll(part), first).execute();
    for (const row of rows) if (row.merged_into === null) found.set(row.id, row);
  }
  return [...found.values()];
}

/**
 * Locks live profiles for the rest of the transaction, set-wise (see lockLiveProfile),
 * and returns their newest versions; a profile merged or gone meanwhile is missing.
 */
export async function lockLiveProfiles(db: Executor, shopId: string, ids: readonly number[], now: number): Promise<ProfileRow[]> {
  const rows = new Map<number, ProfileRow>();
  for (const slice of inListSlices([...ids].sort((a, b) => a - b))) {
    const locked = await db
      .updateTable('profiles')
      .set({ updated_at: now })
      .where('shop_id', '=', shopId)
      .where('id', 'in', slice)
      .where('merged_into', 'is', null)
      .returningAll()
      .execute();
    for (const row of locked) rows.set(row.id, row);
  }
  return [...rows.values()];
}

const INSERT_PROFILES = new BulkStatement<ProfileRow>(11, (db, rows) =>
  db
    .insertInto('profiles')
    .values(rows)
    .onConflict((oc) => oc.doNothing()),
);

/** Inserts new profiles; returns how many were inserted (a row whose id or identifier is taken is not). */
export async function insertProfiles(db: Executor, rows: readonly ProfileRow[]): Promise<number> {
  return INSERT_PROFILES.execute(db, rows);
}

const REWRITE_PROFILES = new BulkStatement<ProfileRow>(11, (db, rows) =>
  db
    .insertInto('profiles')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'id']).doUpdateSet((eb) => ({
        email: eb.ref('excluded.email'),
        phone: eb.ref('excluded.phone'),
        external_id: eb.ref('excluded.external_id'),
        loyalty_id: eb.ref('excluded.loyalty_id'),
        telegram_id: eb.ref('excluded.telegram_id'),
        properties: eb.ref('excluded.properties'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    ),
);

/**
 * Writes the identifiers, properties and updated_at of existing profiles the caller has
 * locked, set-wise: an upsert whose insert never happens (every row exists), because
 * one multi-row UPDATE with per-row values has no syntax common to both dialects.
 */
export async function rewriteLockedProfiles(db: Executor, rows: readonly ProfileRow[]): Promise<void> {
  await REWRITE_PROFILES.execute(db, rows);
}
