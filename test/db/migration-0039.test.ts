import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { currentSchema } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { listMigrations } from '../../src/db/migrations/index.js';
import { variantOf, type AbSplit } from '../../src/modules/bulk/domain/bulk-mailing.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';

describe.each(TEST_DIALECTS)('migration 0039 on %s', (dialect) => {
  it('rewrites the A/B splits stored before into a test share with shares adding up to 100, and marks the held as the rest', async () => {
    const options = await freshDbOptions(dialect);
    const handle = createDb(options);
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: () => Promise.resolve(listMigrations(dialect)) },
        migrationTableSchema: await currentSchema(handle.db, handle.dialect),
      });
      expect((await migrator.migrateTo('0037-admin-gaps')).error).toBeUndefined();
      await sql`insert into shops (shop_id, secret_hash, name, currency, timezone, created_at, updated_at)
        values ('shop-a', 'h', 'A', 'RUB', 'UTC', 1, 1)`.execute(handle.db);
      const mailing = (id: number, ab: object | null) =>
        sql`insert into bulk_mailings (shop_id, id, name, segment_ids, templates, ab, send_at, stage, pages, cursor, position,
          slot_base, slot_count, created_at, updated_at)
          values ('shop-a', ${id}, 'm', '[1]', '{}', ${ab === null ? null : JSON.stringify(ab)}, 1, 'wait', 1, 0, 3, 1, 0, 1, 1)`.execute(
          handle.db,
        );
      const legacy = {
        variants: [{ share: 10, email: { subject: 'A' } }, { share: 10 }, { share: 13 }],
        decide_after_seconds: 5400,
        metric: 'clicks',
      };
      await mailing(1, legacy);
      await mailing(2, null);
      for (const [profile, status] of [
        [7, 'held'],
        [8, 'messaged'],
      ] as const) {
        await sql`insert into bulk_recipients (shop_id, mailing_id, profile_id, variant, status)
          values ('shop-a', 1, ${profile}, ${status === 'held' ? 'rest' : 'a'}, ${status})`.execute(handle.db);
      }
      expect((await migrateToLatest(handle)).applied).toContain('0039-campaigns');

      const rows = await handle.db.selectFrom('bulk_mailings').select(['id', 'ab', 'audience', 'decide_at']).orderBy('id').execute();
      const split = JSON.parse(rows[0]!.ab!) as AbSplit;
      expect(split).toEqual({
        test_share: 33,
        variants: [{ share: 30, email: { subject: 'A' } }, { share: 30 }, { share: 40 }],
        metric: 'clicks',
        after_hours: 2,
      });
      expect(variantOf(50, split)).toBe('rest');
      expect(rows[1]).toMatchObject({ ab: null, audience: null, decide_at: null });
      const recipients = await handle.db.selectFrom('bulk_recipients').select(['profile_id', 'rest']).orderBy('profile_id').execute();
      expect(recipients.map((r) => [Number(r.profile_id), Number(r.rest)])).toEqual([
        [7, 1],
        [8, 0],
      ]);
    } finally {
      await handle.destroy();
      await removeDatabase(options);
    }
  });
});
