import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.js';

/** Files this process has open that were deleted on opening: SQLite's temporary files. */
function openDeletedFiles(): string[] {
  const fds = fs.readdirSync('/proc/self/fd');
  const targets = fds.map((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '';
    }
  });
  return targets.filter((target) => target.endsWith(' (deleted)') && target.includes('etilqs_'));
}

/**
 * A savepoint journal of the group write's contained writes (db/group-write.ts) that
 * outgrows SQLite's 64 KiB in-memory spill threshold goes to a temporary file unless
 * temp_store is MEMORY: a file created, written page by page and deleted per transaction.
 */
describe.skipIf(process.platform !== 'linux')('SQLite temporary storage', () => {
  let handle: DbHandle | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await handle?.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a savepoint journal of many pages in memory, with no temporary file', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-temp-store-'));
    handle = createDb({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    const { db } = handle;
    await sql`create table t (id integer primary key, v text not null)`.execute(db);
    const filler = 'x'.repeat(1000);
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 300; i++) await sql`insert into t (id, v) values (${i}, ${filler})`.execute(trx);
    });
    const seen = await db.transaction().execute(async (trx) => {
      await sql`savepoint probe`.execute(trx);
      // About 300 kB of pages changed under the savepoint: each page's first change is journaled.
      await sql`update t set v = ${filler.replace(/x/g, 'y')}`.execute(trx);
      const during = openDeletedFiles();
      await sql`release savepoint probe`.execute(trx);
      return during;
    });
    expect(seen).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t where v like 'y%'`.execute(db);
    expect(rows[0]?.n).toBe(300);
  });
});
