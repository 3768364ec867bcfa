import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, SQLITE_STATEMENT_CACHE_SIZE, type DbHandle } from '../../src/db/create-db.js';

/** The SQLite prepared-statement cache of db/create-db.ts. */
describe('SQLite statement cache', () => {
  let handle: DbHandle | undefined;
  let dir: string | undefined;

  afterEach(async () => {
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
});
