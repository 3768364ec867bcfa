import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.js';
import { sqliteFileConnections } from '../helpers/sqlite-file.js';

/**
 * Reads outside a transaction share one read transaction per event-loop turn
 * (db/sqlite/write-lock.ts): a turn's reads see the file as it was at its first read, this
 * connection's own writes always, and another connection's commit from the next turn.
 */
describe('SQLite reads of one event-loop turn', () => {
  const sqlite = sqliteFileConnections('read-turn');

  async function setUp(): Promise<[DbHandle, DbHandle]> {
    const first = sqlite.open();
    await sql`create table counters (id integer primary key, value integer not null)`.execute(first.db);
    await sql`insert into counters (id, value) values (1, 0)`.execute(first.db);
    // Another connection to the file, as the job thread's or another process's.
    return [first, sqlite.open({ ownLock: true })];
  }

  const valueOf = async (handle: DbHandle) =>
    (await sql<{ value: number }>`select value from counters where id = 1`.execute(handle.db)).rows[0]?.value;
  const set = (handle: DbHandle, value: number) => sql`update counters set value = ${value} where id = 1`.execute(handle.db);
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it("sees another connection's commit from the next turn, and its own writes at once", async () => {
    const [first, other] = await setUp();
    await nextTurn();
    expect(await valueOf(first)).toBe(0);
    await set(other, 5);
    expect(await valueOf(other)).toBe(5);
    // The same turn: the snapshot of the first read.
    expect(await valueOf(first)).toBe(0);
    await nextTurn();
    expect(await valueOf(first)).toBe(5);

    // A write of its own ends the turn's snapshot before it runs.
    expect(await valueOf(first)).toBe(5);
    await set(first, 7);
    expect(await valueOf(first)).toBe(7);
    await set(other, 9);
    expect(await valueOf(first)).toBe(7);
    await nextTurn();
    expect(await valueOf(first)).toBe(9);
  });

  it('begins a transaction, streams and writes after reads of the same turn, and leaves other writers unblocked', async () => {
    const [first, other] = await setUp();
    await nextTurn();
    expect(await valueOf(first)).toBe(0);
    await first.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(trx);
      await sql`update counters set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
    });
    expect(await valueOf(first)).toBe(1);
    const streamed: number[] = [];
    for await (const row of first.db
      .selectFrom('counters' as never)
      .select(sql<number>`value`.as('value'))
      .stream()) {
      streamed.push(row.value);
    }
    expect(streamed).toEqual([1]);
    // A reader's snapshot does not hold up another connection's write (WAL).
    expect(await valueOf(first)).toBe(1);
    await other.db.transaction().execute((trx) => sql`update counters set value = value + 1 where id = 1`.execute(trx));
    await nextTurn();
    expect(await valueOf(first)).toBe(2);
  });

  it('closes with a read of the turn still open, without an error after', async () => {
    const [first] = await setUp();
    await nextTurn();
    expect(await valueOf(first)).toBe(0);
    await sqlite.close(first);
    await nextTurn();
  });
});
