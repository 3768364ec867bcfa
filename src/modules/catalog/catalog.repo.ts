import type { CompiledQuery, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type {
  CatalogCategoriesTable,
  CatalogLocationsTable,
  CatalogProductCategoriesTable,
  CatalogProductsTable,
  CatalogsTable,
  Database,
  FeedImportsTable,
} from '../../db/types.js';
import { refreshPlannerStatistics, type Dialect } from '../../db/dialect.js';
import { keptPrepared, PreparedQuery } from '../../db/prepared-query.js';

/**
 * The feed import's SQL (Kysely only, the same for SQLite and PostgreSQL). Every query
 * filters by shop_id. Staged rows are written in multi-row inserts sized under both
 * databases' bound-parameter limits (SQLite 32,766, PostgreSQL 65,535).
 */

export type Executor = Kysely<Database> | Transaction<Database>;
export type CatalogRow = Selectable<CatalogsTable>;
export type FeedImportRow = Selectable<FeedImportsTable>;
export type ProductRow = Insertable<CatalogProductsTable>;
export type CategoryRow = Insertable<CatalogCategoriesTable>;
export type LocationRow = Insertable<CatalogLocationsTable>;

/**
 * Bound parameters per statement: far under SQLite's 32,766 and PostgreSQL's 65,535; small
 * enough that a statement's parameter array stays out of V8's large-object space (which is
 * collected lazily and showed up as peak RSS during big imports).
 */
// 200 rows of catalog_products' 25 columns: the staging batch (catalog.staging.ts) in one statement.
const MAX_PARAMS = 5_000;
const DELETE_BATCH = 5_000;

type StagedTable = 'catalog_products' | 'catalog_categories' | 'catalog_locations' | 'catalog_category_ids' | 'catalog_product_categories';

/**
 * The text of full-size multi-row inserts, by table, columns, row count and dialect. An
 * import sends hundreds of statements that differ only in their values: compiling each
 * through Kysely's query builder cost more than SQLite spent running it. Only full chunks
 * are cached (a remainder's size varies), so the cache stays a few entries, and so their
 * texts are marked to be kept prepared (keptPrepared, db/prepared-query.ts): parsing a statement of 5,000
 * parameters anew for each batch cost PostgreSQL more than running it.
 */
const fullChunkSql = new Map<string, CompiledQuery>();

function nullRow(columns: readonly string[]): Record<string, null> {
  return Object.fromEntries(columns.map((column) => [column, null]));
}

function chunkSql(db: Executor, table: StagedTable, columns: readonly string[], count: number): CompiledQuery {
  // One row's statement names the dialect (its quoting and placeholders) in its text.
  const oneRow = db
    .insertInto(table)
    .values(nullRow(columns) as never)
    .compile().sql;
  const key = `${count}\u0000${oneRow}`;
  let text = fullChunkSql.get(key);
  if (text === undefined) {
    const rows = Array.from({ length: count }, () => nullRow(columns));
    text = keptPrepared(
      db
        .insertInto(table)
        .values(rows as never)
        .compile(),
    );
    fullChunkSql.set(key, text);
  }
  return text;
}

/** Inserts rows in statements of at most MAX_PARAMS bound values each. */
async function insertChunked<T extends StagedTable>(db: Executor, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    if (chunk.length < perStatement) {
      // Kysely's insert types are generic over the table; the rows are the table's own.
      await db.insertInto(table).values(chunk).execute();
      continue;
    }
    const parameters: unknown[] = [];
    for (const row of chunk) {
      const record = row as Record<string, unknown>;
      for (const column of columns) parameters.push(record[column] ?? null);
    }
    await db.executeQuery({ ...chunkSql(db, table, columns, chunk.length), parameters });
  }
}

/**
 * PostgreSQL plans the served reads (products.repo: a batch of ids, named statements) from
 * catalog_products' statistics; those of the table before an import would have it walk a
 * whole generation instead of probing the primary key. Run before a landing; the key
 * columns suffice (db/dialect.ts refreshPlannerStatistics; a no-op on SQLite).
 */
export async function refreshServedReadStatistics(db: Executor, dialect: Dialect): Promise<void> {
  await refreshPlannerStatistics<Database>(db, dialect, 'catalog_products', { columns: ['shop_id', 'generation', 'id'] });
}

export async function ensureCatalogRow(db: Executor, shopId: string, refreshMinutes: number, now: number): Promise<void> {
  await db
    .insertInto('catalogs')
    .values({
      shop_id: shopId,
      generation: 0,
      last_generation: 0,
      landed_at: null,
      feed_url: null,
      refresh_minutes: refreshMinutes,
      next_fetch_at: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('shop_id').doNothing())
    .execute();
}

// Compiled once (db/prepared-query.ts): the checkout reads the served generation on every request.
const catalogRow = new PreparedQuery(1, (db, shopId: string) => db.selectFrom('catalogs').selectAll().where('shop_id', '=', shopId));

export async function findCatalog(db: Executor, shopId: string): Promise<CatalogRow | undefined> {
  return (await catalogRow.execute(db, shopId))[0];
}

/** Hands out generation `expected + 1`; false when another import took it first. */
export async function takeGeneration(db: Executor, shopId: string, expected: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('catalogs')
    .set({ last_generation: expected + 1, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('last_generation', '=', expected)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The running import's heartbeat: an import whose catalog row stops moving is abandoned. */
export async function touchCatalog(db: Executor, shopId: string, now: number): Promise<void> {
  await db.updateTable('catalogs').set({ updated_at: now }).where('shop_id', '=', shopId).execute();
}

/** Serves `generation`, only if no later import has taken a generation meanwhile. */
export async function landGeneration(db: Executor, shopId: string, generation: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('catalogs')
    .set({ generation, landed_at: now, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('last_generation', '=', generation)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateFeedSettings(
  db: Executor,
  shopId: string,
  patch: { feed_url?: string | null; refresh_minutes?: number; next_fetch_at?: number | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('catalogs')
    .set({ ...patch, updated_at: now })
    .where('shop_id', '=', shopId)
    .execute();
}

/** Moves the fetch schedule from `due` to `next`; false when another run already moved it. */
export async function moveNextFetch(db: Executor, shopId: string, due: number, next: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('catalogs')
    .set({ next_fetch_at: next, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('next_fetch_at', '=', due)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertImport(db: Executor, row: FeedImportRow): Promise<void> {
  await db.insertInto('feed_imports').values(row).execute();
}

export async function findImport(db: Executor, shopId: string, generation: number): Promise<FeedImportRow | undefined> {
  return db.selectFrom('feed_imports').selectAll().where('shop_id', '=', shopId).where('generation', '=', generation).executeTakeFirst();
}

export async function finishImport(
  db: Executor,
  shopId: string,
  generation: number,
  patch: Pick<FeedImportRow, 'status' | 'products' | 'categories' | 'locations' | 'skipped_count' | 'skipped' | 'error'>,
  now: number,
): Promise<void> {
  await db
    .updateTable('feed_imports')
    .set({ ...patch, finished_at: now })
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .execute();
}

/** Imports still marked running below `generation` died with their process. */
export async function failAbandonedImports(db: Executor, shopId: string, generation: number, now: number): Promise<void> {
  await db
    .updateTable('feed_imports')
    .set({ status: 'failed', error: 'The import stopped before it finished (abandoned).', finished_at: now })
    .where('shop_id', '=', shopId)
    .where('generation', '<', generation)
    .where('status', '=', 'running')
    .execute();
}

/** The shop's imports newest first; with `before`, only those older than that generation (keyset paging). */
export async function listImports(db: Executor, shopId: string, limit: number, before?: number): Promise<FeedImportRow[]> {
  let query = db.selectFrom('feed_imports').selectAll().where('shop_id', '=', shopId);
  if (before !== undefined) query = query.where('generation', '<', before);
  return query.orderBy('generation', 'desc').limit(limit).execute();
}

/** The products, and the category rows of each (catalog_product_categories, 0037), in the caller's transaction. */
export async function insertProducts(db: Executor, rows: readonly ProductRow[]): Promise<void> {
  await insertChunked(db, 'catalog_products', rows);
  const listed: Insertable<CatalogProductCategoriesTable>[] = [];
  for (const row of rows) {
    for (const category of new Set(JSON.parse(row.category_ids) as string[])) {
      listed.push({ shop_id: row.shop_id, generation: row.generation, category_id: category, product_id: row.id });
    }
  }
  await insertChunked(db, 'catalog_product_categories', listed);
}

export async function insertCategories(db: Executor, rows: readonly CategoryRow[]): Promise<void> {
  await insertChunked(db, 'catalog_categories', rows);
}

export async function insertLocations(db: Executor, rows: readonly LocationRow[]): Promise<void> {
  await insertChunked(db, 'catalog_locations', rows);
}

/** The internal ids a shop's categories already have. */
export async function findCategoryIds(db: Executor, shopId: string, externalIds: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const perStatement = Math.floor(MAX_PARAMS / 2);
  for (let i = 0; i < externalIds.length; i += perStatement) {
    const rows = await db
      .selectFrom('catalog_category_ids')
      .select(['external_id', 'id'])
      .where('shop_id', '=', shopId)
      .where('external_id', 'in', externalIds.slice(i, i + perStatement))
      .execute();
    for (const row of rows) ids.set(row.external_id, Number(row.id));
  }
  return ids;
}

export async function maxCategoryId(db: Executor, shopId: string): Promise<number> {
  const row = await db
    .selectFrom('catalog_category_ids')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('shop_id', '=', shopId)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

export async function insertCategoryIds(
  db: Executor,
  rows: readonly { shop_id: string; external_id: string; id: number }[],
): Promise<void> {
  await insertChunked(db, 'catalog_category_ids', rows);
}

/**
 * Staged products that only a category could make widgetable: what the late-category
 * pass looks at when offers came before the categories. Keyset-paged by id.
 */
export async function findWidgetCandidates(
  db: Executor,
  shopId: string,
  generation: number,
  afterId: string,
  limit: number,
): Promise<{ id: string; category_ids: string }[]> {
  return db
    .selectFrom('catalog_products')
    .select(['id', 'category_ids'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('widgetable', '=', 0)
    .where('price', 'is not', null)
    .where('name', 'is not', null)
    .where('url', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markWidgetable(db: Executor, shopId: string, generation: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('catalog_products')
    .set({ widgetable: 1 })
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('id', 'in', ids)
    .execute();
}

/** The generations of a shop's staged or served rows that `which` selects. */
async function generationsOf(
  db: Executor,
  shopId: string,
  which: { readonly below: number } | { readonly only: number },
): Promise<number[]> {
  if ('only' in which) return [which.only];
  // Distinct over the key's leading columns: an index range, not the rows.
  const rows = await db
    .selectFrom('catalog_products')
    .select('generation')
    .distinct()
    .where('shop_id', '=', shopId)
    .where('generation', '<', which.below)
    .union((eb) =>
      eb.selectFrom('catalog_categories').select('generation').where('shop_id', '=', shopId).where('generation', '<', which.below),
    )
    .union((eb) =>
      eb.selectFrom('catalog_locations').select('generation').where('shop_id', '=', shopId).where('generation', '<', which.below),
    )
    .union((eb) =>
      eb.selectFrom('catalog_product_categories').select('generation').where('shop_id', '=', shopId).where('generation', '<', which.below),
    )
    .execute();
  return [...new Set(rows.map((r) => Number(r.generation)))];
}

/**
 * Deletes a shop's catalog rows of the generations `which` selects, a batch at a time so
 * that no single statement holds the database long (SQLite has one writer). Batches are
 * key ranges of the primary key (shop_id, generation, id): the boundary is found by an
 * index walk and the delete is a range, which no planner can turn into a nested loop.
 */
export async function deleteGenerations(
  db: Kysely<Database>,
  shopId: string,
  which: { readonly below: number } | { readonly only: number },
): Promise<void> {
  for (const generation of await generationsOf(db, shopId, which)) {
    for (;;) {
      const edge = await db
        .selectFrom('catalog_products')
        .select('id')
        .where('shop_id', '=', shopId)
        .where('generation', '=', generation)
        .orderBy('id')
        .offset(DELETE_BATCH - 1)
        .limit(1)
        .executeTakeFirst();
      let query = db.deleteFrom('catalog_products').where('shop_id', '=', shopId).where('generation', '=', generation);
      if (edge !== undefined) query = query.where('id', '<=', edge.id);
      await query.execute();
      if (edge === undefined) break;
    }
    await deleteProductCategories(db, shopId, generation);
    // Categories and locations are bounded (100,000 each) and small: one statement each.
    await db.deleteFrom('catalog_categories').where('shop_id', '=', shopId).where('generation', '=', generation).execute();
    await db.deleteFrom('catalog_locations').where('shop_id', '=', shopId).where('generation', '=', generation).execute();
  }
}

/** A generation's category rows, in key ranges of DELETE_BATCH rows like its products. */
async function deleteProductCategories(db: Kysely<Database>, shopId: string, generation: number): Promise<void> {
  for (;;) {
    const edge = await db
      .selectFrom('catalog_product_categories')
      .select(['category_id', 'product_id'])
      .where('shop_id', '=', shopId)
      .where('generation', '=', generation)
      .orderBy('category_id')
      .orderBy('product_id')
      .offset(DELETE_BATCH - 1)
      .limit(1)
      .executeTakeFirst();
    let query = db.deleteFrom('catalog_product_categories').where('shop_id', '=', shopId).where('generation', '=', generation);
    if (edge !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('category_id', '<', edge.category_id),
          eb.and([eb('category_id', '=', edge.category_id), eb('product_id', '<=', edge.product_id)]),
        ]),
      );
    }
    await query.execute();
    if (edge === undefined) return;
  }
}
