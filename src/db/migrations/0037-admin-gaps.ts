import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The admin UI's remaining reads (docs/admin-lists.md):
 * - certificates (shop_id, pool_id, id): one pool's certificates, newest first, as a range.
 * - admin_sessions.public_id: the id the account screen shows and revokes a session by.
 *   Random and unrelated to the cookie's id (whose hash keys the row), so that listing
 *   sessions reveals nothing that signs in; the sessions of before are given one here.
 */
export function adminGaps(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('certificates_pool_idx').on('certificates').columns(['shop_id', 'pool_id', 'id']).execute();

      await db.schema.alterTable('admin_sessions').addColumn('public_id', 'text').execute();
      const { rows } = await sql<{ id_hash: string }>`select id_hash from admin_sessions`.execute(db);
      for (const row of rows) {
        const publicId = crypto.randomBytes(16).toString('base64url');
        await sql`update admin_sessions set public_id = ${publicId} where id_hash = ${row.id_hash}`.execute(db);
      }
      await db.schema.createIndex('admin_sessions_public_id').on('admin_sessions').columns(['public_id']).unique().execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('admin_sessions_public_id').execute();
      await db.schema.alterTable('admin_sessions').dropColumn('public_id').execute();
      await db.schema.dropIndex('certificates_pool_idx').execute();
    },
  };
}
