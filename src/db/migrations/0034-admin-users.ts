import type { Kysely } from 'kysely';
import { addSerialPrimaryKey, type Dialect } from '../dialect.js';

/**
 * People who sign in to the admin UI (src/modules/admin-users, docs/admin-users.md).
 * Not shop data: a user may reach several shops, so these tables do not lead with shop_id.
 * - `admin_users`: the account. `email_key` is the email lower-cased, unique, so that two
 *   spellings of one address cannot both exist on either database. The password is a
 *   scrypt hash whose string carries its own parameters; null while the user is invited.
 * - `admin_sessions`: one row per sign-in, keyed by the SHA-256 of the cookie's id, so a
 *   copy of the table signs no one in.
 * - `admin_invitations`: one-time links, keyed by the SHA-256 of the token; `used_at` is set
 *   by one conditional UPDATE, so a link works exactly once however many use it at once.
 * - `admin_api_tokens`: a user's `pat_…` bearer tokens, by SHA-256.
 */
export function adminUsers(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addSerialPrimaryKey(db.schema.createTable('admin_users'), dialect)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('shops', 'text')
        .addColumn('disabled', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('last_sign_in_at', 'bigint')
        .execute();

      await db.schema
        .createTable('admin_sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('idle_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('admin_sessions_user').on('admin_sessions').columns(['user_id', 'created_at']).execute();

      await db.schema
        .createTable('admin_invitations')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('shops', 'text')
        .addColumn('user_id', 'bigint', (c) => c.references('admin_users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('admin_invitations_user').on('admin_invitations').columns(['user_id']).execute();

      await addSerialPrimaryKey(db.schema.createTable('admin_api_tokens'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('admin_api_tokens_user').on('admin_api_tokens').columns(['user_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['admin_api_tokens', 'admin_invitations', 'admin_sessions', 'admin_users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
