import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The admin UI's remaining reads (docs/admin-lists.md):
 * - certificates (shop_id, pool_id, id): one pool's certificates, newest first, as a range.
 */
export function adminGaps(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('certificates_pool_idx').on('certificates').columns(['shop_id', 'pool_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('certificates_pool_idx').execute();
    },
  };
}
