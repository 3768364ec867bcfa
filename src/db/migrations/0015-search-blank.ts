import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * GET /search/blank (docs/search.md): the shop's popular queries and a device's last
 * ones, read from the search log (migration 0007) within its two-week window.
 *
 * - (shop_id, type, time, query): the submitted queries (full searches and the search
 *   events of POST /push) of the window, grouped by query, without touching the rows.
 * - (shop_id, did, time): one device's queries, newest first.
 */
export function searchBlank(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('search_queries_shop_type_time_idx')
        .on('search_queries')
        .columns(['shop_id', 'type', 'time', 'query'])
        .execute();
      await db.schema.createIndex('search_queries_shop_did_idx').on('search_queries').columns(['shop_id', 'did', 'time']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('search_queries_shop_did_idx').execute();
      await db.schema.dropIndex('search_queries_shop_type_time_idx').execute();
    },
  };
}
