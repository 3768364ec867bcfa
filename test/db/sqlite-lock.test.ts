import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.js';
import { ThreadWriteLock } from '../../src/db/sqlite/write-lock.js';
import { sqliteFileConnections } from '../helpers/sqlite-file.js';

describe('SQLite write lock between connections of one file', () => {
  const sqlite = sqliteFileConnections('lock');

  async function setUp(): Promise<[DbHandle, DbHandle]> {
    const first = sqlite.open();
    await sql`create table counters (id integer primary key, value integer not null)`.execute(first.db);
    await sql`insert into counters (id, value) values (1, 0)`.execute(first.db);
    return [first, sqlite.open({ shareLockOf: first })];
  }

  /** A transaction that reads the counter, yields to the event loop, then writes it back plus one. */
  const increment = (handle: DbHandle) =>
    handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(trx);
      await new Promise((resolve) => setImmediate(resolve));
      await sql`update counters set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
    });

  const valueOf = async (handle: DbHandle) =>
    (await sql<{ value: number }>`select value from counters where id = 1`.execute(handle.db)).rows[0]?.value;

  it('lets two connections sharing the lock run read-then-write transactions side by side without losing one', async () => {
    const [first, second] = await setUp();
    await Promise.all(Array.from({ length: 100 }, (_, i) => increment(i % 2 === 0 ? first : second)));
    expect(await valueOf(first)).toBe(100);
  });

  it('waits for another process’s write lock without blocking the event loop, and begins transactions IMMEDIATE', async () => {
    const first = sqlite.open();
    await sql`create table counters (id integer primary key, value integer not null)`.execute(first.db);
    await sql`insert into counters (id, value) values (1, 0)`.execute(first.db);
    // A connection of its own lock, as another process's would be.
    const other = sqlite.open({ ownLock: true });

    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 1);
    const holder = other.db.transaction().execute(async (trx) => {
      await sql`update counters set value = value + 1 where id = 1`.execute(trx);
      // Hold SQLite's write lock for 300 ms of event loop: long enough that a 1 ms timer
      // ticks well over 10 times even on a loaded machine, unless the loop is blocked.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    // Autocommit and a read-then-write transaction of the first connection wait their turn.
    await Promise.all([sql`update counters set value = value + 10 where id = 1`.execute(first.db), increment(first)]);
    clearInterval(ticker);
    await holder;
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    // SQLite's own busy handler would have slept on this thread, and the timer could not have run.
    expect(ticks).toBeGreaterThan(10);
    expect(await valueOf(first)).toBe(12);
  });

  it('passes the lock in the order it was asked for, across threads', async () => {
    const lock = new ThreadWriteLock();
    const turns = new Int32Array(new SharedArrayBuffer(8));
    await lock.acquire();
    // The thread asks for the lock while this one holds it, holds it for 30 ms once it has
    // it, and counts its turn before it gives it back.
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const words = new Int32Array(workerData.lock);
       const turns = new Int32Array(workerData.turns);
       const ticket = Atomics.add(words, 0, 1);
       parentPort.postMessage('asked');
       for (let s = Atomics.load(words, 1); s !== ticket; s = Atomics.load(words, 1)) Atomics.wait(words, 1, s);
       const until = Date.now() + 30; while (Date.now() < until);
       Atomics.add(turns, 0, 1);
       Atomics.add(words, 1, 1); Atomics.notify(words, 1);`,
      { eval: true, workerData: { lock: lock.buffer, turns: turns.buffer } },
    );
    await new Promise((resolve) => worker.once('message', resolve));
    const again = lock.acquire().then(() => Atomics.load(turns, 0));
    lock.release();
    // This thread asked second: its turn comes after the thread's.
    expect(await again).toBe(1);
    lock.release();
    await worker.terminate();
  });
});
