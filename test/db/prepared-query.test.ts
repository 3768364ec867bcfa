import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb } from '../../src/db/create-db.js';
import { PreparedQuery, PreparedQueryFamily, PreparedRowQuery } from '../../src/db/prepared-query.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';

/** db/prepared-query.ts: a query compiled once per handle, run with new arguments each time. */
describe.each(TEST_DIALECTS)('PreparedQuery on %s', (dialect) => {
  let testDb: TestDb;
  let other: TestDb;

  beforeAll(async () => {
    testDb = await createTestDb(dialect);
    other = await createTestDb(dialect);
    for (const [db, names] of [
      [testDb, ['Alpha', 'Beta']],
      [other, ['Gamma']],
    ] as const) {
      for (const [i, name] of names.entries()) {
        await db.db
          .insertInto('shops')
          .values({
            shop_id: `${'s'.repeat(29)}${i}`,
            secret_hash: 'x',
            name,
            currency: 'RUB',
            timezone: 'Europe/Moscow',
            active: 1,
            restricted: 0,
            paid_till: null,
            created_at: 1,
            updated_at: 1,
          })
          .execute();
      }
    }
  });
  afterAll(async () => {
    await testDb.cleanup();
    await other.cleanup();
  });

  const shopNamed = new PreparedQuery(2, (db, shopId: string, name: string) =>
    db.selectFrom('shops').select(['shop_id', 'name']).where('shop_id', '=', shopId).where('name', '=', name),
  );

  it('answers as the query built afresh would, for each set of arguments', async () => {
    const first = `${'s'.repeat(29)}0`;
    const second = `${'s'.repeat(29)}1`;
    expect(await shopNamed.execute(testDb.db, first, 'Alpha')).toEqual([{ shop_id: first, name: 'Alpha' }]);
    expect(await shopNamed.execute(testDb.db, second, 'Beta')).toEqual([{ shop_id: second, name: 'Beta' }]);
    // The arguments are not mixed up: the name of one shop with the id of the other finds nothing.
    expect(await shopNamed.execute(testDb.db, first, 'Beta')).toEqual([]);
  });

  it('compiles for each database handle apart', async () => {
    const id = `${'s'.repeat(29)}0`;
    expect(await shopNamed.execute(other.db, id, 'Gamma')).toEqual([{ shop_id: id, name: 'Gamma' }]);
    expect(await shopNamed.execute(testDb.db, id, 'Alpha')).toEqual([{ shop_id: id, name: 'Alpha' }]);
  });

  it('keeps one query per shape in a family, each answering for its own arity', async () => {
    const made: number[] = [];
    const shopsIn = new PreparedQueryFamily((size: number) => {
      made.push(size);
      return new PreparedQuery(size, (db, ...ids: string[]) =>
        db.selectFrom('shops').select('name').where('shop_id', 'in', ids).orderBy('name'),
      );
    });
    const [first, second] = [`${'s'.repeat(29)}0`, `${'s'.repeat(29)}1`];
    expect(await shopsIn.of(1).execute(testDb.db, second)).toEqual([{ name: 'Beta' }]);
    expect(await shopsIn.of(2).execute(testDb.db, second, first)).toEqual([{ name: 'Alpha' }, { name: 'Beta' }]);
    expect(await shopsIn.of(1).execute(testDb.db, first)).toEqual([{ name: 'Alpha' }]);
    expect(shopsIn.of(2)).toBe(shopsIn.of(2));
    expect(made).toEqual([1, 2]);
  });

  it('prepares a row statement per set of columns, in and out of transactions, counting the rows it touched', async () => {
    const id = `${'s'.repeat(29)}1`;
    const rename = new PreparedRowQuery(1, (db, values: { name?: string; timezone?: string }, shopId: string) =>
      db.updateTable('shops').set(values).where('shop_id', '=', shopId),
    );
    expect(Number((await rename.run(testDb.db, { name: 'Beta 2', timezone: undefined }, id)).numAffectedRows)).toBe(1);
    await testDb.db.transaction().execute(async (trx) => {
      expect(Number((await rename.run(trx, { name: 'Beta 3', timezone: 'Europe/Berlin' }, id)).numAffectedRows)).toBe(1);
    });
    expect(Number((await rename.run(testDb.db, { name: 'Nobody' }, 'no-such-shop')).numAffectedRows)).toBe(0);
    const row = await testDb.db.selectFrom('shops').select(['name', 'timezone']).where('shop_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Beta 3', timezone: 'Europe/Berlin' });
    await rename.run(testDb.db, { name: 'Beta', timezone: 'Europe/Moscow' }, id);
  });

  it('refuses a query that binds a value which is not one of its arguments', async () => {
    const withConstant = new PreparedQuery(1, (db, shopId: string) =>
      db.selectFrom('shops').select('name').where('shop_id', '=', shopId).where('currency', '=', 'RUB'),
    );
    await expect(withConstant.execute(testDb.db, 'x')).rejects.toThrow(/every bound parameter/);
  });

  it.runIf(dialect === 'postgres')('runs as a named statement on PostgreSQL, and leaves other statements unnamed', async () => {
    // One connection, so that pg_prepared_statements is read on the connection that ran the query.
    const single = createDb({ ...(testDb.options as { kind: 'postgres'; url: string }), poolSize: 1 });
    try {
      const prepared = async () =>
        (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(single.db)).rows.map(
          (row) => row.statement,
        );
      const id = `${'s'.repeat(29)}0`;
      await single.db.selectFrom('shops').select('name').where('shop_id', '=', id).execute();
      expect(await prepared()).toEqual([]);
      expect(await shopNamed.execute(single.db, id, 'Alpha')).toEqual([{ shop_id: id, name: 'Alpha' }]);
      expect(await shopNamed.execute(single.db, id, 'Beta')).toEqual([]);
      const statements = await prepared();
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^\/\* patron:prepared \*\/ select "shop_id", "name" from "shops"/);
    } finally {
      await single.destroy();
    }
  });

  it.runIf(dialect === 'postgres')('answers after the table it reads changed shape (a migration by another process)', async () => {
    const single = createDb({ ...(testDb.options as { kind: 'postgres'; url: string }), poolSize: 1 });
    const everyColumn = new PreparedQuery(1, (db, shopId: string) => db.selectFrom('shops').selectAll().where('shop_id', '=', shopId));
    const id = `${'s'.repeat(29)}0`;
    try {
      expect(await everyColumn.execute(single.db, id)).toEqual([expect.objectContaining({ name: 'Alpha' })]);
      await sql`alter table shops add column note text`.execute(testDb.db);
      expect(await everyColumn.execute(single.db, id)).toEqual([expect.objectContaining({ name: 'Alpha', note: null })]);
      expect(await everyColumn.execute(single.db, id)).toEqual([expect.objectContaining({ name: 'Alpha', note: null })]);
    } finally {
      await sql`alter table shops drop column if exists note`.execute(testDb.db);
      await single.destroy();
    }
  });
});
