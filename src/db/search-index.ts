import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from './dialect.js';

/*
 * Product search (modules/search, migration 0007-search): the one large difference of
 * the dialects (db/dialect.ts holds the small ones).
 *
 * Both dialects index the same columns with the same folding, so that a query finds the
 * same products on either: the name, the vendor, the model, and the vendor code with the
 * barcode; lower-cased; `ё` read as `е`; split at every character that is neither a
 * letter nor a digit; no stemming and no stop words. Each index entry also carries one
 * scope token for `<shop_id>` and `<generation>`, so a match is confined to the shop's
 * served generation inside the index itself instead of being filtered afterwards across
 * every shop's catalog. Only searchable products are indexed (SEARCHABLE_PRODUCT).
 *
 * Both keep the index beside catalog_products, by triggers on it, so the feed import
 * writes products without knowing search exists and the table keeps its shape. The
 * definitions below are what migration 0007 built: changing them needs a new migration.
 */

/** A word of a search query: lower-cased letters and digits only (modules/search/domain/query.ts). */
export interface SearchTerm {
  readonly text: string;
  /** Matches every indexed word that starts with `text` (the word being typed). */
  readonly prefix: boolean;
}

/**
 * Which products are indexed and searched, and listed by GET /products and GET
 * /category/{id}: shown in widgets, not ignored, in stock.
 */
export const LISTED_PRODUCT = { widgetable: 1, ignored: 0, available: 1 } as const;
const SEARCHABLE_PRODUCT = (alias: string) =>
  `${alias}widgetable = ${LISTED_PRODUCT.widgetable} and ${alias}ignored = ${LISTED_PRODUCT.ignored} and ` +
  `${alias}available = ${LISTED_PRODUCT.available}`;

const SEARCH_FTS_TABLE = 'catalog_products_fts';
const SEARCH_PG_TABLE = 'catalog_products_search';

/**
 * Characters PostgreSQL's text-search parser would keep inside a token (`iphone-15` gives
 * `-15`, `2.5` stays whole) while SQLite's unicode61 tokenizer splits there: ASCII
 * punctuation and common typographic marks, replaced by spaces. A bracket expression of
 * the characters themselves, not `[[:punct:]]`, so the locale does not change it; and
 * regexp_replace, not translate(), which cost twice as much on every imported row.
 */
const PG_SEPARATORS = `[]!"#$%&'()*+,./:;<=>?@[\\\\^_\`{|}~«»„“”‘’–—…№·×-]`;

/**
 * The scope lexeme starts with a character no query term can hold (terms are letters and
 * digits), so that a prefix such as `sa:*` never matches it.
 */
const PG_SCOPE_MARK = '#';

function pgText(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `ё` read as `е`, separators as spaces, then the `simple` configuration: lower-cased words. */
function pgFolded(text: string): string {
  const folded = `replace(replace(${text}, 'ё', 'е'), 'Ё', 'Е')`;
  return `to_tsvector('simple'::regconfig, regexp_replace(${folded}, ${pgText(PG_SEPARATORS)}, ' ', 'g'))`;
}

/**
 * PostgreSQL's search document of the catalog_products row `r`: weight A the name, B
 * vendor and model, C vendor code and barcode, and the scope lexeme (no position).
 */
function pgSearchDocument(r: string): string {
  const col = (name: string) => `coalesce(${r}.${name}, '')`;
  return (
    `setweight(${pgFolded(col('name'))}, 'A')` +
    ` || setweight(${pgFolded(`${col('vendor')} || ' ' || ${col('model')}`)}, 'B')` +
    ` || setweight(${pgFolded(`${col('vendor_code')} || ' ' || ${col('barcode')}`)}, 'C')` +
    ` || array_to_tsvector(array['${PG_SCOPE_MARK}s' || ${r}.shop_id || 'g' || ${r}.generation::text])`
  );
}

/** The search rows of the catalog_products rows `r` drawn from `source`. */
function pgIndexRows(source: string, r: string): string {
  return (
    `insert into ${SEARCH_PG_TABLE} (shop_id, generation, id, document) ` +
    `select ${r}.shop_id, ${r}.generation, ${r}.id, ${pgSearchDocument(r)} from ${source} ${r} ` +
    `where ${SEARCHABLE_PRODUCT(`${r}.`)}`
  );
}

function pgUnindexRows(source: string): string {
  return (
    `delete from ${SEARCH_PG_TABLE} s using ${source} o ` + `where s.shop_id = o.shop_id and s.generation = o.generation and s.id = o.id`
  );
}

/** SQLite: `ё` read as `е` (unicode61 with remove_diacritics 0 keeps it apart otherwise). */
function sqliteFolded(expression: string): string {
  return `replace(replace(${expression}, 'ё', 'е'), 'Ё', 'Е')`;
}

function sqliteIndexValues(row: 'new' | 'old' | 'p'): string {
  return (
    `${row}.rowid, 's' || ${row}.shop_id || 'g' || ${row}.generation, ` +
    `${sqliteFolded(`${row}.name`)}, ${sqliteFolded(`${row}.vendor`)}, ${sqliteFolded(`${row}.model`)}, ` +
    `coalesce(${row}.vendor_code, '') || ' ' || coalesce(${row}.barcode, '')`
  );
}

const SQLITE_INDEX_COLUMNS = 'rowid, scope, name, vendor, model, codes';

/**
 * Creates the product search index and indexes the rows already there.
 *
 * SQLite: a contentless FTS5 table whose rowid is catalog_products' rowid, kept by row
 * triggers. Contentless, so the text is not stored twice; a row leaves the index by FTS5's
 * 'delete' command, which takes the values it was indexed with: the triggers compute them
 * from `old` with the very expressions that indexed `new`. That costs a few microseconds
 * per row, where `contentless_delete=1` (delete by rowid alone) cost about four times as
 * much on the 100,000 deletions that follow every re-import.
 *
 * PostgreSQL: a table of (shop_id, generation, id, document tsvector) under a GIN index,
 * kept by statement-level triggers with transition tables (one INSERT … SELECT per
 * statement of the import, not one call per row). The document is stored rather than
 * indexed as an expression because ranking reads the document of every match:
 * recomputing it cost about 8 µs a row (0.4 s for a prefix matching 50,000 products)
 * where reading the stored one costs a twentieth of that.
 */
export async function createProductSearchIndex(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  if (dialect === 'postgres') {
    await run(
      `create table ${SEARCH_PG_TABLE} (shop_id text not null, generation bigint not null, id text not null, ` +
        `document tsvector not null, primary key (shop_id, generation, id))`,
    );
    await run(`create index ${SEARCH_PG_TABLE}_document_idx on ${SEARCH_PG_TABLE} using gin (document)`);
    const trigger = async (event: 'insert' | 'delete' | 'update', referencing: string, body: string) => {
      const name = `${SEARCH_PG_TABLE}_${event}`;
      await run(`create function ${name}() returns trigger language plpgsql as $body$ begin ${body}; return null; end $body$`);
      await run(
        `create trigger ${name} after ${event} on catalog_products referencing ${referencing} ` +
          `for each statement execute function ${name}()`,
      );
    };
    await trigger('insert', 'new table as new_rows', pgIndexRows('new_rows', 'n'));
    await trigger('delete', 'old table as old_rows', pgUnindexRows('old_rows'));
    // The import updates a staged row's widgetable flag when its category comes after it
    // in the feed. (PostgreSQL allows no column list beside transition tables.)
    await trigger('update', 'old table as old_rows new table as new_rows', `${pgUnindexRows('old_rows')}; ${pgIndexRows('new_rows', 'n')}`);
    await rebuildProductSearchIndex(db, dialect);
    return;
  }
  await run(
    `create virtual table ${SEARCH_FTS_TABLE} using fts5(scope, name, vendor, model, codes, ` +
      `content='', tokenize='unicode61 remove_diacritics 0')`,
  );
  const indexRow = `insert into ${SEARCH_FTS_TABLE}(${SQLITE_INDEX_COLUMNS}) values (${sqliteIndexValues('new')});`;
  const unindexRow = `insert into ${SEARCH_FTS_TABLE}(${SEARCH_FTS_TABLE}, ${SQLITE_INDEX_COLUMNS}) values ('delete', ${sqliteIndexValues('old')});`;
  await run(
    `create trigger ${SEARCH_FTS_TABLE}_ai after insert on catalog_products ` + `when ${SEARCHABLE_PRODUCT('new.')} begin ${indexRow} end`,
  );
  await run(
    `create trigger ${SEARCH_FTS_TABLE}_ad after delete on catalog_products ` +
      `when ${SEARCHABLE_PRODUCT('old.')} begin ${unindexRow} end`,
  );
  // The import updates a staged row's widgetable flag when its category comes after it in
  // the feed; any update of an indexed column is followed.
  const updatedColumns = 'shop_id, generation, name, vendor, model, vendor_code, barcode, widgetable, ignored, available';
  await run(
    `create trigger ${SEARCH_FTS_TABLE}_au after update of ${updatedColumns} on catalog_products begin ` +
      `insert into ${SEARCH_FTS_TABLE}(${SEARCH_FTS_TABLE}, ${SQLITE_INDEX_COLUMNS}) ` +
      `select 'delete', ${sqliteIndexValues('old')} where ${SEARCHABLE_PRODUCT('old.')}; ` +
      `insert into ${SEARCH_FTS_TABLE}(${SQLITE_INDEX_COLUMNS}) ` +
      `select ${sqliteIndexValues('new')} where ${SEARCHABLE_PRODUCT('new.')}; end`,
  );
  await rebuildProductSearchIndex(db, dialect);
}

export async function dropProductSearchIndex(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  if (dialect === 'postgres') {
    for (const event of ['insert', 'delete', 'update']) {
      await run(`drop trigger if exists ${SEARCH_PG_TABLE}_${event} on catalog_products`);
      await run(`drop function if exists ${SEARCH_PG_TABLE}_${event}()`);
    }
    await run(`drop table if exists ${SEARCH_PG_TABLE}`);
    return;
  }
  for (const suffix of ['ai', 'ad', 'au']) await run(`drop trigger if exists ${SEARCH_FTS_TABLE}_${suffix}`);
  await run(`drop table if exists ${SEARCH_FTS_TABLE}`);
}

/**
 * Empties the index and indexes every searchable row again; run it in one transaction.
 * On SQLite the index is keyed by catalog_products' implicit rowid, which SQLite's VACUUM
 * keeps in practice but does not promise to: run this after a VACUUM to be sure.
 */
export async function rebuildProductSearchIndex<DB>(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  if (dialect === 'postgres') {
    await run(`delete from ${SEARCH_PG_TABLE}`);
    await run(pgIndexRows('catalog_products', 'p'));
    return;
  }
  await run(`insert into ${SEARCH_FTS_TABLE}(${SEARCH_FTS_TABLE}) values ('delete-all')`);
  await run(
    `insert into ${SEARCH_FTS_TABLE}(${SQLITE_INDEX_COLUMNS}) select ${sqliteIndexValues('p')} ` +
      `from catalog_products p where ${SEARCHABLE_PRODUCT('p.')}`,
  );
}

/**
 * A SELECT of the matches: `shop_id, generation, id, search_rank` (lower is better) of
 * the searchable products of the scope's generation that match every term (AND); a
 * prefix term matches the words it starts. Terms hold letters and digits only, so they
 * are quoted as they are. `terms` must not be empty. The scope lives in the match itself
 * (its token); the caller restates shop_id and generation outside this SELECT.
 *
 * Rank: SQLite's bm25 weighs a match in the name 10, vendor and model 4, codes 2;
 * PostgreSQL's ts_rank weighs A (name) 1.0, B (vendor, model) 0.4, C (codes) 0.2. Both
 * put a match in the name first; ties are broken by the caller.
 */
export function productMatchesSql(
  dialect: Dialect,
  scope: { readonly shopId: string; readonly generation: number },
  terms: readonly SearchTerm[],
): RawBuilder<unknown> {
  if (terms.length === 0) throw new Error('productMatchesSql needs at least one term');
  const scopeToken = `s${scope.shopId}g${scope.generation}`;
  if (dialect === 'postgres') {
    const tsTerms = terms.map((t) => `'${t.text}'${t.prefix ? ':*' : ''}`).join(' & ');
    const termsQuery = sql`to_tsquery('simple', ${tsTerms})`;
    // Normalisation 1 divides by 1 + log(document length): a shorter text that matches
    // ranks higher, as bm25's length normalisation does on SQLite.
    return sql`select s.shop_id, s.generation, s.id, -ts_rank(s.document, ${termsQuery}, 1) as search_rank
      from ${sql.raw(SEARCH_PG_TABLE)} s
      where s.document @@ (${`'${PG_SCOPE_MARK}${scopeToken}'`}::tsquery && ${termsQuery})`;
  }
  const words = terms.map((t) => `"${t.text}"${t.prefix ? '*' : ''}`).join(' AND ');
  const match = `scope : "${scopeToken}" AND {name vendor model codes} : (${words})`;
  // bm25 exists only in the statement that holds the MATCH.
  return sql`select p.shop_id, p.generation, p.id, ${sql.raw(`bm25(${SEARCH_FTS_TABLE}, 0.0, 10.0, 4.0, 4.0, 2.0)`)} as search_rank
    from ${sql.raw(SEARCH_FTS_TABLE)} f join catalog_products p on p.rowid = f.rowid
    where ${sql.raw(SEARCH_FTS_TABLE)} match ${match} and ${sql.raw(SEARCHABLE_PRODUCT('p.'))}`;
}
