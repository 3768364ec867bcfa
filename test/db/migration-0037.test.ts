import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { currentSchema } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { listMigrations } from '../../src/db/migrations/index.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';

describe.each(TEST_DIALECTS)('migration 0037 on %s', (dialect) => {
  it('gives each session signed in before it a distinct random public id', async () => {
    const options = await freshDbOptions(dialect);
    const handle = createDb(options);
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: () => Promise.resolve(listMigrations(dialect)) },
        migrationTableSchema: await currentSchema(handle.db, handle.dialect),
      });
      const before = await migrator.migrateTo('0036-admin-lists');
      expect(before.error).toBeUndefined();
      await sql`insert into admin_users (email, email_key, role, disabled, created_at, updated_at)
        values ('a@example.org', 'a@example.org', 'owner', 0, 1, 1)`.execute(handle.db);
      for (const hash of ['h1', 'h2', 'h3']) {
        await sql`insert into admin_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at, idle_expires_at, expires_at)
          values (${hash}, 1, 'c', 1, 1, 2, 2)`.execute(handle.db);
      }
      expect((await migrateToLatest(handle)).applied).toContain('0037-admin-gaps');
      const rows = await handle.db.selectFrom('admin_sessions').select(['id_hash', 'public_id']).execute();
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.public_id).toMatch(/^[\w-]{22}$/);
      expect(new Set(rows.map((r) => r.public_id)).size).toBe(3);
    } finally {
      await handle.destroy();
      await removeDatabase(options);
    }
  });
});
