import { sql, type Kysely } from 'kysely';
import { createProductSearchIndex, dropProductSearchIndex, type Dialect } from '../dialect.js';

/**
 * Search (src/modules/search, docs/search.md): the full-text index over the catalog's
 * products and the log of search queries.
 *
 * The index is kept by the database itself, by triggers on catalog_products (SQLite: an
 * FTS5 table; PostgreSQL: a table of tsvector documents under a GIN index), so the feed
 * import writes products without knowing search exists. Its definition lives in
 * db/dialect.ts, beside the statement that queries it.
 *
 * search_queries: one row per query, from GET /search (with its result count) and from
 * the `search` event of POST /push (result count unknown: null). Ids are random below
 * 2^53, as a per-shop key (shop_id, id) cannot auto-increment on SQLite. A pushed event's
 * id is unique per shop, which makes its at-least-once delivery idempotent. Rows older
 * than the two-week window are pruned by the service. No foreign key: a hot insert.
 */
export function search(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createProductSearchIndex(db, dialect);

      await db.schema
        .createTable('search_queries')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('id', 'bigint', (c) => c.notNull())
        .addColumn('time', 'bigint', (c) => c.notNull())
        // Normalised: trimmed, lower-cased, whitespace collapsed; at most 1,000 characters.
        .addColumn('query', 'text', (c) => c.notNull())
        // 'full_search', 'instant_search', or 'push' (the search event of POST /push).
        .addColumn('type', 'text', (c) => c.notNull())
        // Products found; null when unknown (a pushed event).
        .addColumn('results', 'integer')
        .addColumn('did', 'text')
        .addColumn('sid', 'text')
        .addColumn('event_id', 'bigint')
        .addPrimaryKeyConstraint('search_queries_pk', ['shop_id', 'id'])
        .execute();
      // NULL event ids (GET /search) never collide, on both dialects.
      await db.schema.createIndex('search_queries_shop_event_uq').on('search_queries').columns(['shop_id', 'event_id']).unique().execute();
      // Pruning by age.
      await db.schema.createIndex('search_queries_shop_time_idx').on('search_queries').columns(['shop_id', 'time']).execute();
      // GET /search/no_result_queries reads only these rows, and only these columns.
      await db.schema
        .createIndex('search_queries_no_result_idx')
        .on('search_queries')
        .columns(['shop_id', 'time', 'query'])
        .where(sql.ref('type'), '=', sql.lit('full_search'))
        .where(sql.ref('results'), '=', sql.lit(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('search_queries').execute();
      await dropProductSearchIndex(db, dialect);
    },
  };
}
