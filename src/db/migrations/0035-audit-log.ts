import type { Kysely } from 'kysely';
import { addSerialPrimaryKey, type Dialect } from '../dialect.js';

/**
 * The audit log (src/modules/audit, docs/audit-log.md): one row per change made through
 * the admin API or the admin UI, and per sign-in. Not shop data in the tenant sense: an
 * entry may concern no shop (a user created, the superuser's shop list), so its key is
 * its own id, which also orders the log (keyset paging, newest first).
 * - `audit_log_shop`: one shop's entries, newest first.
 * - `audit_log_actor`: one user's entries, newest first.
 * - `audit_log_at`: the retention job's deletes of entries older than the kept days.
 */
export function auditLog(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addSerialPrimaryKey(db.schema.createTable('audit_log'), dialect)
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('shop_id', 'text')
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_user_id', 'bigint')
        .addColumn('actor_email', 'text')
        .addColumn('actor_via', 'text')
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('audit_log_shop').on('audit_log').columns(['shop_id', 'id']).execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_user_id', 'id']).execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('audit_log').execute();
    },
  };
}
