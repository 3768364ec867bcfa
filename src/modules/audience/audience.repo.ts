import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type {
  AudienceImportChunksTable,
  AudienceImportsTable,
  AudienceProfilesTable,
  Database,
  ProfilePushTokensTable,
} from '../../db/types.js';
import { PreparedQuery } from '../../db/prepared-query.js';
import { BulkStatement } from '../../db/statement-slices.js';

/** Kysely only: imports, their chunks, and what an import stores per profile. Scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type ImportRow = Selectable<AudienceImportsTable>;
export type ChunkRow = Selectable<AudienceImportChunksTable>;
export type AttributesRow = Selectable<AudienceProfilesTable>;
export type PushTokenRow = Selectable<ProfilePushTokensTable>;

// --- imports and chunks -----------------------------------------------------------------

export async function insertImport(db: Executor, row: ImportRow): Promise<void> {
  await db.insertInto('audience_imports').values(row).execute();
}

export async function findImport(db: Executor, shopId: string, id: number): Promise<ImportRow | undefined> {
  return db.selectFrom('audience_imports').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

/** Newest first; uploads still being received are not imports yet. With `before`, only older ids (keyset paging). */
export async function listImports(db: Executor, shopId: string, limit: number, before?: number): Promise<ImportRow[]> {
  let query = db.selectFrom('audience_imports').selectAll().where('shop_id', '=', shopId).where('status', '!=', 'receiving');
  if (before !== undefined) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

export async function updateImport(
  db: Executor,
  shopId: string,
  id: number,
  patch: Updateable<AudienceImportsTable>,
  onlyIfStatus?: readonly ImportRow['status'][],
): Promise<boolean> {
  let query = db.updateTable('audience_imports').set(patch).where('shop_id', '=', shopId).where('id', '=', id);
  if (onlyIfStatus) query = query.where('status', 'in', onlyIfStatus);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Moves the cursor from chunk `from` to `to` and returns the import as it is now:
 * undefined when the cursor is no longer at `from` (another worker processed it). On
 * PostgreSQL this also locks the import row until the transaction ends, so two workers
 * never write one chunk twice.
 */
export async function advanceCursor(
  db: Executor,
  shopId: string,
  id: number,
  from: number,
  to: number,
  now: number,
): Promise<ImportRow | undefined> {
  return db
    .updateTable('audience_imports')
    .set({ next_chunk: to, status: 'running', updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('next_chunk', '=', from)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
}

/** Uploads (CLI) that were never sealed, older than `before`: their process died. */
export async function deleteStaleUploads(db: Executor, shopId: string, before: number): Promise<void> {
  await db
    .deleteFrom('audience_imports')
    .where('shop_id', '=', shopId)
    .where('status', '=', 'receiving')
    .where('updated_at', '<', before)
    .execute();
}

export async function deleteImport(db: Executor, shopId: string, id: number): Promise<void> {
  await db.deleteFrom('audience_imports').where('shop_id', '=', shopId).where('id', '=', id).execute();
}

export async function insertChunks(db: Executor, rows: readonly ChunkRow[]): Promise<void> {
  // A chunk is large text: a few per statement keep each statement's size moderate.
  for (let i = 0; i < rows.length; i += 20)
    await db
      .insertInto('audience_import_chunks')
      .values(rows.slice(i, i + 20))
      .execute();
}

export type ChunkSize = Pick<ChunkRow, 'seq' | 'records'>;

/** How many records the next `limit` chunks from `fromSeq` on hold (their bodies are not read). */
export async function findChunkSizes(db: Executor, shopId: string, importId: number, fromSeq: number, limit: number): Promise<ChunkSize[]> {
  return db
    .selectFrom('audience_import_chunks')
    .select(['seq', 'records'])
    .where('shop_id', '=', shopId)
    .where('import_id', '=', importId)
    .where('seq', '>=', fromSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** The chunks `fromSeq` to `toSeq` (exclusive), in order. */
export async function findChunks(db: Executor, shopId: string, importId: number, fromSeq: number, toSeq: number): Promise<ChunkRow[]> {
  return db
    .selectFrom('audience_import_chunks')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('import_id', '=', importId)
    .where('seq', '>=', fromSeq)
    .where('seq', '<', toSeq)
    .orderBy('seq')
    .execute();
}

/** The raw records are kept until the import is done; then they are only a copy. */
export async function deleteChunks(db: Executor, shopId: string, importId: number): Promise<void> {
  await db.deleteFrom('audience_import_chunks').where('shop_id', '=', shopId).where('import_id', '=', importId).execute();
}

// --- what an import stores per profile --------------------------------------------------

/** The attribute columns (everything but the key and the times). */
export const ATTRIBUTE_COLUMNS = [
  'first_name',
  'middle_name',
  'last_name',
  'gender',
  'birthday',
  'location',
  'loyalty_card_location',
  'loyalty_status',
  'fb_id',
  'vk_id',
  'kids',
  'auto',
  'age',
  'loyalty_bonuses',
  'loyalty_bonuses_to_next_level',
  'bought_something',
  'email_bulk',
  'email_chain',
  'email_transactional',
  'sms_bulk',
  'sms_chain',
  'sms_transactional',
] as const satisfies readonly (keyof AudienceProfilesTable)[];

const UPSERT_ATTRIBUTES = new BulkStatement<AttributesRow>(ATTRIBUTE_COLUMNS.length + 4, (db, rows) =>
  db
    .insertInto('audience_profiles')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'profile_id']).doUpdateSet((eb) => ({
        ...Object.fromEntries(
          ATTRIBUTE_COLUMNS.map((column) => [column, eb.fn.coalesce(eb.ref(`excluded.${column}`), eb.ref(`audience_profiles.${column}`))]),
        ),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    ),
);

/**
 * Upserts attributes set-wise: a null column is "not given" and keeps what is stored;
 * a given value replaces it. One row per profile (the caller folds duplicates).
 */
export async function upsertAttributes(db: Executor, rows: readonly AttributesRow[]): Promise<void> {
  await UPSERT_ATTRIBUTES.execute(db, rows);
}

// Compiled once (db/prepared-query.ts): every message reads its recipient's attributes and tokens.
const attributesRow = new PreparedQuery(2, (db, shopId: string, profileId: number) =>
  db.selectFrom('audience_profiles').selectAll().where('shop_id', '=', shopId).where('profile_id', '=', profileId),
);
const pushTokenRows = new PreparedQuery(2, (db, shopId: string, profileId: number) =>
  db
    .selectFrom('profile_push_tokens')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('created_at')
    .orderBy('token'),
);

export async function findAttributes(db: Executor, shopId: string, profileId: number): Promise<AttributesRow | undefined> {
  const [row] = await attributesRow.execute(db, shopId, profileId);
  return row;
}

/** Attribute rows and push tokens of many live profiles, a query each (a page of bulk recipients). */
export async function findAttributesMany(
  db: Executor,
  shopId: string,
  profileIds: readonly number[],
): Promise<{ rows: AttributesRow[]; tokens: PushTokenRow[] }> {
  if (profileIds.length === 0) return { rows: [], tokens: [] };
  const ids = [...profileIds];
  const rows = await db.selectFrom('audience_profiles').selectAll().where('shop_id', '=', shopId).where('profile_id', 'in', ids).execute();
  const tokens = await db
    .selectFrom('profile_push_tokens')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', ids)
    .orderBy('created_at')
    .orderBy('token')
    .execute();
  return { rows, tokens };
}

const UPSERT_PUSH_TOKENS = new BulkStatement<PushTokenRow>(6, (db, rows) =>
  db
    .insertInto('profile_push_tokens')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'token']).doUpdateSet((eb) => ({
        platform: eb.ref('excluded.platform'),
        profile_id: eb.ref('excluded.profile_id'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    ),
);

/** A token moves to the profile that sent it last (one token, one app install). */
export async function upsertPushTokens(db: Executor, rows: readonly PushTokenRow[]): Promise<void> {
  await UPSERT_PUSH_TOKENS.execute(db, rows);
}

export async function listPushTokens(db: Executor, shopId: string, profileId: number): Promise<PushTokenRow[]> {
  return pushTokenRows.execute(db, shopId, profileId);
}

/**
 * A merge: the survivor keeps its own attributes and takes the merged profile's where it
 * has none (the older profile wins, as for properties in docs/identity.md); the merged
 * profile's tokens become the survivor's.
 */
export async function moveAttributes(db: Executor, shopId: string, fromId: number, intoId: number, now: number): Promise<void> {
  await db
    .insertInto('audience_profiles')
    .columns(['shop_id', 'profile_id', ...ATTRIBUTE_COLUMNS, 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('audience_profiles')
        .select([
          'shop_id',
          sql<number>`cast(${intoId} as bigint)`.as('profile_id'),
          ...ATTRIBUTE_COLUMNS,
          'created_at',
          sql<number>`cast(${now} as bigint)`.as('updated_at'),
        ])
        .where('shop_id', '=', shopId)
        .where('profile_id', '=', fromId),
    )
    .onConflict((oc) =>
      oc.columns(['shop_id', 'profile_id']).doUpdateSet((eb) => ({
        ...Object.fromEntries(
          ATTRIBUTE_COLUMNS.map((column) => [column, eb.fn.coalesce(eb.ref(`audience_profiles.${column}`), eb.ref(`excluded.${column}`))]),
        ),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  await db.deleteFrom('audience_profiles').where('shop_id', '=', shopId).where('profile_id', '=', fromId).execute();
  await db
    .updateTable('profile_push_tokens')
    .set({ profile_id: intoId, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}

export async function findPushToken(db: Executor, shopId: string, token: string): Promise<PushTokenRow | undefined> {
  return db.selectFrom('profile_push_tokens').selectAll().where('shop_id', '=', shopId).where('token', '=', token).executeTakeFirst();
}
