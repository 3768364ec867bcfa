import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.js';
import { PreparedQuery } from '../../src/db/prepared-query.js';
import { sqliteDirectOf } from '../../src/db/sqlite/write-lock.js';
import { sqliteFileConnections } from '../helpers/sqlite-file.js';

/**
 * A prepared query's statement runs at once on the SQLite connection where Kysely's
 * executor would not wait either (db/sqlite/write-lock.ts SqliteDirect): it must answer exactly
 * what the executor answers, and never slip into a transaction that holds the connection.
 */
describe('SQLite prepared statements run at once', () => {
  const sqlite = sqliteFileConnections('direct');

  async function setUp(): Promise<DbHandle> {
    const handle = sqlite.open();
    await sql`create table notes (id integer primary key autoincrement, body text not null)`.execute(handle.db);
    await sql`insert into notes (body) values ('first')`.execute(handle.db);
    return handle;
  }

  // The tables of this test are not in Database: the queries are typed loosely.
  type Loose = Kysely<Record<string, Record<string, unknown>>>;
  const bodyOf = new PreparedQuery(1, (db, id: number) => (db as unknown as Loose).selectFrom('notes').select('body').where('id', '=', id));
  const add = new PreparedQuery(1, (db, body: string) => (db as unknown as Loose).insertInto('notes').values({ body }));
  const direct = (handle: DbHandle) => sqliteDirectOf(handle.db.getExecutor().adapter)!;

  it('answers reads and writes as the executor does', async () => {
    const handle = await setUp();
    expect(direct(handle)).toBeDefined();
    expect(await bodyOf.execute(handle.db, 1)).toEqual([{ body: 'first' }]);
    const viaExecutor = await handle.db.executeQuery(sql`insert into notes (body) values ('second')`.compile(handle.db));
    const viaDirect = await handle.db.transaction().execute((trx) => add.run(trx, 'third'));
    expect(Object.keys(viaDirect).sort()).toEqual(Object.keys(viaExecutor).sort());
    expect(viaDirect).toEqual({ numAffectedRows: 1n, insertId: 3n, rows: [] });
    expect(viaExecutor).toMatchObject({ numAffectedRows: 1n, insertId: 2n });
    expect(await bodyOf.execute(handle.db, 3)).toEqual([{ body: 'third' }]);
  });

  it('runs a read while nothing holds the connection, and leaves writes outside a transaction to the executor', async () => {
    const handle = await setUp();
    const compiled = sql`select body from notes where id = 1`.compile(handle.db);
    expect(direct(handle).run(compiled.sql, [], false)).toEqual({ rows: [{ body: 'first' }] });
    // A write outside a transaction takes the thread lock: the executor's way.
    expect(direct(handle).run(`insert into notes (body) values ('x')`, [], false)).toBeUndefined();
    expect((await sql<{ n: number }>`select count(*) as n from notes`.execute(handle.db)).rows[0]?.n).toBe(1);
  });

  it("never reads inside another's transaction: a read outside waits for the commit and sees it", async () => {
    const handle = await setUp();
    let committed = false;
    let readWhileOpen: unknown = 'not tried';
    let outside: Promise<unknown> | undefined;
    await handle.db.transaction().execute(async (trx) => {
      await add.run(trx, 'uncommitted');
      // The transaction's own statement sees its write at once.
      expect(await bodyOf.execute(trx, 2)).toEqual([{ body: 'uncommitted' }]);
      // Outside it, the direct way declines while the transaction holds the connection…
      readWhileOpen = direct(handle).run(sql`select body from notes where id = 2`.compile(handle.db).sql, [], false);
      // …and a prepared read from elsewhere waits for the connection.
      outside = bodyOf.execute(handle.db, 2).then((rows) => ({ rows, committed }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      committed = true;
    });
    expect(readWhileOpen).toBeUndefined();
    expect(await outside).toEqual({ rows: [{ body: 'uncommitted' }], committed: true });
  });

  it('a rolled-back transaction leaves nothing its direct statements wrote', async () => {
    const handle = await setUp();
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await add.run(trx, 'gone');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await bodyOf.execute(handle.db, 2)).toEqual([]);
    // The connection is usable after: a read at once, a write through the executor.
    await add.run(handle.db, 'kept');
    expect((await sql<{ body: string }>`select body from notes order by id`.execute(handle.db)).rows.map((r) => r.body)).toEqual([
      'first',
      'kept',
    ]);
  });
});
