import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { SQLITE_CACHED_SQL_MAX_LENGTH, SQLITE_STATEMENT_CACHE_SIZE } from '../../src/db/sqlite/connection.js';
import { PREPARED_SQL_MARKER } from '../../src/db/prepared-query.js';

/** The SQLite prepared-statement cache of db/create-db.ts. */
describe('SQLite statement cache', () => {
  let handle: DbHandle | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    vi.restoreAllMocks();
    await handle?.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<DbHandle> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-stmt-'));
    handle = createDb({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    await sql`create table t (id integer primary key, v text)`.execute(handle.db);
    return handle;
  }

  it('runs the same query text again with other parameters and gets fresh results', async () => {
    const { db } = await open();
    for (let i = 1; i <= 3; i++) await sql`insert into t (id, v) values (${i}, ${`v${i}`})`.execute(db);
    const read = async (id: number) => (await sql<{ v: string }>`select v from t where id = ${id}`.execute(db)).rows;
    expect(await read(1)).toEqual([{ v: 'v1' }]);
    expect(await read(3)).toEqual([{ v: 'v3' }]);
    expect(await read(4)).toEqual([]);
  });

  it('stays bounded when more distinct statements are run than it keeps', async () => {
    const { db } = await open();
    for (let i = 0; i < SQLITE_STATEMENT_CACHE_SIZE + 50; i++) {
      await sql.raw(`select ${i} as n`).execute(db);
    }
    expect((await sql<{ n: number }>`select 7 as n`.execute(db)).rows).toEqual([{ n: 7 }]);
  });

  it('prepares a long text each time it runs, unless it is marked as one of a few fixed texts', async () => {
    const { db } = await open();
    const prepare = vi.spyOn(SqliteDatabase.prototype, 'prepare');
    const values = Array.from({ length: 400 }, (_, i) => `(${i + 1}, 'value ${i}')`).join(', ');
    const long = `insert or replace into t (id, v) values ${values}`;
    expect(long.length).toBeGreaterThan(SQLITE_CACHED_SQL_MAX_LENGTH);
    const preparesOf = async (text: string) => {
      prepare.mockClear();
      for (let i = 0; i < 3; i++) await sql.raw(text).execute(db);
      return prepare.mock.calls.filter(([prepared]) => prepared === text).length;
    };
    expect(await preparesOf(long)).toBe(3);
    expect(await preparesOf(`${PREPARED_SQL_MARKER}${long}`)).toBe(1);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows).toEqual([{ n: 400 }]);
  });
});
