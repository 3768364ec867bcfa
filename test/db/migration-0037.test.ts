import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { currentSchema } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { listMigrations } from '../../src/db/migrations/index.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';

describe.each(TEST_DIALECTS)('migration 0037 on %s', (dialect) => {
  it('gives each session signed in before it a distinct random public id, and each stored product its category rows', async () => {
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
      // Products stored before: 2,500 (two backfill batches) of one shop, in one or two categories, and two of another shop.
      const product = (shop: string, generation: number, id: string, categories: string[]) =>
        sql`insert into catalog_products (shop_id, generation, id, available, category_ids, pictures, params, location_ids, ignored, widgetable)
          values (${shop}, ${generation}, ${id}, 1, ${JSON.stringify(categories)}, '[]', '[]', '[]', 0, 1)`.execute(handle.db);
      for (let i = 0; i < 2500; i++)
        await product('shop-a', 3, `o-${String(i).padStart(4, '0')}`, i % 2 === 0 ? ['c1', 'c2', 'c1'] : ['c2']);
      await product('shop-b', 1, 'o-1', ['c1']);
      await product('shop-b', 2, 'o-1', []);
      expect((await migrateToLatest(handle)).applied).toContain('0037-admin-gaps');
      const listed = await handle.db
        .selectFrom('catalog_product_categories')
        .select(['shop_id', 'category_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['shop_id', 'category_id'])
        .orderBy('shop_id')
        .orderBy('category_id')
        .execute();
      expect(listed.map((r) => [r.shop_id, r.category_id, Number(r.n)])).toEqual([
        ['shop-a', 'c1', 1250],
        ['shop-a', 'c2', 2500],
        ['shop-b', 'c1', 1],
      ]);
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
