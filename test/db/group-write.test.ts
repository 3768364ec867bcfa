import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupWrite, groupWriteOf } from '../../src/db/group-write.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';

describe.each(TEST_DIALECTS)('group write on %s', (dialect) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb(dialect);
    await sql`create table gw_items (id integer primary key, label text not null)`.execute(db.db);
  });
  afterAll(async () => {
    await db.cleanup();
  });

  const insert =
    (id: number, label = `item ${id}`) =>
    (trx: Parameters<Parameters<GroupWrite['run']>[0]>[0]) =>
      sql`insert into gw_items (id, label) values (${id}, ${label})`.execute(trx).then(() => id);

  it('commits the writes of many callers (in few transactions on SQLite), each caller answered with its own result', async () => {
    const writer = new GroupWrite(db);
    const ids = Array.from({ length: 50 }, (_, i) => 1000 + i);
    expect(await Promise.all(ids.map((id) => writer.run(insert(id))))).toEqual(ids);
    const stats = writer.snapshot();
    if (dialect === 'sqlite') {
      expect(stats.committed).toBe(50);
      expect(stats.commits).toBeLessThan(5);
    } else {
      // PostgreSQL runs each write in a transaction of its own, side by side on the pool.
      expect(stats.committed).toBe(0);
    }
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from gw_items where id >= 1000 and id < 1050`.execute(db.db);
    expect(Number(rows[0]?.n)).toBe(50);
  });

  it('fails only the caller whose write fails; the others of its batch are committed', async () => {
    const writer = new GroupWrite(db);
    const first = writer.run(insert(2000));
    // On SQLite the three share a batch; PostgreSQL runs them side by side, where the duplicate could land first.
    if (dialect === 'postgres') await first;
    const results = await Promise.allSettled([first, writer.run(insert(2000, 'a duplicate')), writer.run(insert(2001))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const { rows } = await sql<{ id: number; label: string }>`select id, label from gw_items where id in (2000, 2001) order by id`.execute(
      db.db,
    );
    expect(rows.map((r) => [Number(r.id), r.label])).toEqual([
      [2000, 'item 2000'],
      [2001, 'item 2001'],
    ]);
  });

  it('rolls back only the contained write that throws: its batch commits the others and the caller gets its error', async () => {
    const writer = new GroupWrite(db);
    const refusing = (trx: Parameters<Parameters<GroupWrite['run']>[0]>[0]) =>
      insert(
        3001,
        'rolled back',
      )(trx).then(() => {
        throw new Error('refused');
      });
    const results = await Promise.allSettled([
      writer.runContained(insert(3000)),
      writer.runContained(refusing),
      writer.runContained(insert(3002)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]?.status === 'rejected' && (results[1].reason as Error).message).toBe('refused');
    const { rows } = await sql<{ id: number }>`select id from gw_items where id between 3000 and 3002 order by id`.execute(db.db);
    expect(rows.map((r) => Number(r.id))).toEqual([3000, 3002]);
    if (dialect === 'sqlite') expect(writer.snapshot()).toMatchObject({ committed: 3, splitBatches: 0 });
  });

  it('keeps one shared writer per database', () => {
    expect(groupWriteOf(db)).toBe(groupWriteOf(db));
  });
});
