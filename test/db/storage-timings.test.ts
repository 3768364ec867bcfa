import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.js';
import type { CheckpointMode, StorageWait } from '../../src/db/sqlite/storage-timings.js';
import { WalCheckpointer } from '../../src/db/sqlite/wal-checkpoint.js';
import { sqliteFileConnections } from '../helpers/sqlite-file.js';

/** What a connection's timings reported, in order. */
function record(handle: DbHandle): { waits: [StorageWait, number][]; checkpoints: [CheckpointMode, number][]; stop: () => void } {
  const waits: [StorageWait, number][] = [];
  const checkpoints: [CheckpointMode, number][] = [];
  const timings = handle.storage?.timings;
  if (!timings) throw new Error('a SQLite handle has storage timings');
  const stop = timings.subscribe({
    wait: (kind, seconds) => waits.push([kind, seconds]),
    checkpoint: (mode, seconds) => checkpoints.push([mode, seconds]),
  });
  return { waits, checkpoints, stop };
}

describe('SQLite storage timings (for /metrics)', () => {
  const sqlite = sqliteFileConnections('timings');

  async function setUp(): Promise<DbHandle> {
    const first = sqlite.open();
    await sql`create table notes (id integer primary key, body text not null)`.execute(first.db);
    return first;
  }

  it('times each fsync of the log a durable write waits for', async () => {
    const db = await setUp();
    const seen = record(db);
    await sql`insert into notes (body) values ('one')`.execute(db.db);
    await db.durable();
    const syncs = seen.waits.filter(([kind]) => kind === 'wal_sync');
    expect(syncs.length).toBeGreaterThanOrEqual(1);
    for (const [, seconds] of syncs) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it('times a write from asking for the lock to holding it, while another connection of the process holds it', async () => {
    const first = await setUp();
    const second = sqlite.open({ shareLockOf: first });
    const third = sqlite.open({ shareLockOf: first });
    const seen = record(second);
    const seenAlone = record(third);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (begun = resolve));
    const long = first.db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('first')`.execute(trx);
      begun();
      await held;
    });
    await holding;
    const waiting = second.db.transaction().execute(async (trx) => {
      await sql`insert into notes (body) values ('second')`.execute(trx);
    });
    const write = sql`insert into notes (body) values ('third')`.execute(third.db);
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await Promise.all([long, waiting, write]);
    const lockWaits = (of: typeof seen) => of.waits.filter(([kind]) => kind === 'write_lock_wait').map(([, seconds]) => seconds);
    // The transaction and the write outside one each waited while the first connection held the
    // lock (200 ms; each asked for it a little after the hold began, later on a loaded machine).
    expect(lockWaits(seen)).toHaveLength(1);
    expect(lockWaits(seenAlone)).toHaveLength(1);
    for (const seconds of [...lockWaits(seen), ...lockWaits(seenAlone)]) expect(seconds).toBeGreaterThanOrEqual(0.1);
  });

  it('reports nothing once the listener stops', async () => {
    const db = await setUp();
    const seen = record(db);
    seen.stop();
    expect(db.storage?.timings.observed).toBe(false);
    await sql`insert into notes (body) values ('unheard')`.execute(db.db);
    await db.durable();
    expect(seen.waits).toEqual([]);
  });

  it('times the checkpoints of the worker with their mode', async () => {
    const handle = sqlite.open({ ownLock: true });
    const file = sqlite.file();
    const timings = handle.storage?.timings;
    if (!timings) throw new Error('a SQLite handle has storage timings');
    const checkpoints: [CheckpointMode, number][] = [];
    timings.subscribe({ wait: () => undefined, checkpoint: (mode, seconds) => checkpoints.push([mode, seconds]) });
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
    // The handle's own raw connection is not reachable here: a second one, the checkpointer's main.
    const { default: Database } = await import('better-sqlite3');
    const main = new Database(file);
    const checkpointer = new WalCheckpointer(file, main, { intervalMs: 10, passiveBytes: 64 * 1024 }, timings);
    try {
      const body = 'x'.repeat(4000);
      for (let i = 0; i < 100; i += 1) await sql`insert into notes (body) values (${body})`.execute(handle.db);
      const deadline = Date.now() + 5_000;
      while (checkpoints.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await checkpointer.close();
      main.close();
    }
    expect(checkpoints.length).toBeGreaterThanOrEqual(1);
    expect(checkpoints[0]?.[0]).toBe('passive');
    expect(checkpoints[0]?.[1]).toBeGreaterThanOrEqual(0);
  });
});
