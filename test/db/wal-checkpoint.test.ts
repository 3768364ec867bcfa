import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { WalCheckpointer } from '../../src/db/sqlite/wal-checkpoint.js';
import { waitFor } from '../helpers/wait.js';

describe('WAL checkpoints in a worker thread', () => {
  let dir: string;
  const cleanups: (() => Promise<void> | void)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(): { file: string; db: SqliteDatabase.Database } {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-checkpoint-'));
    const file = path.join(dir, 'db.sqlite');
    const db = new SqliteDatabase(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('create table t (id integer primary key, body text not null)');
    cleanups.push(() => {
      db.close();
    });
    return { file, db };
  }

  /** About `megabytes` of log, in commits of 64 KB. */
  function write(db: SqliteDatabase.Database, megabytes: number): void {
    const insert = db.prepare('insert into t (body) values (?)');
    for (let i = 0; i < megabytes * 16; i += 1) db.transaction(() => insert.run('x'.repeat(64 * 1024)))();
  }

  it('turns automatic checkpoints off on the main connection and copies the log back from the worker', async () => {
    const { file, db } = open();
    const checkpointer = new WalCheckpointer(file, db, { intervalMs: 10 });
    cleanups.push(() => checkpointer.close());
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    write(db, 2);
    await waitFor(() => checkpointer.stats().checkpoints > 0 && checkpointer.stats().backlogBytes === 0, {
      what: 'a checkpoint by the worker',
    });
    expect(checkpointer.stats()).toMatchObject({ fallbacks: 0, workerAlive: true });
    // The log was copied whole: the next commit starts it over from its beginning, so it does not grow.
    const size = fs.statSync(`${file}-wal`).size;
    write(db, 0.5);
    expect(fs.statSync(`${file}-wal`).size).toBeLessThanOrEqual(size);
  });

  it('starts the log over under a steady stream of commits, without the main connection checkpointing', async () => {
    const { file, db } = open();
    const checkpointer = new WalCheckpointer(file, db, { intervalMs: 10, passiveBytes: 256 * 1024, restartBytes: 1024 * 1024 });
    cleanups.push(() => checkpointer.close());
    const insert = db.prepare('insert into t (body) values (?)');
    let written = 0;
    // 32 MB of log in commits of 16 KB, each followed by a free turn of the event loop (a
    // request's work). Ending on the amount written, not on a clock: on a loaded machine a
    // clock-bound loop wrote 17 MB while the worker thread, starved for a while, first
    // started the log over at 8.7 MB.
    while (written < 32 * 1024 * 1024) {
      db.transaction(() => insert.run('x'.repeat(16 * 1024)))();
      written += 16 * 1024;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    checkpointer.fallbackIfBehind();
    expect(checkpointer.stats()).toMatchObject({ fallbacks: 0, workerAlive: true });
    // Without starting over, the file would hold every frame written (the log only grows).
    expect(fs.statSync(`${file}-wal`).size).toBeLessThan(written / 2);
  });

  it('starts the log over while another connection is always reading a part of it', async () => {
    const { file, db } = open();
    db.pragma('busy_timeout = 0');
    db.pragma(`journal_size_limit = ${2 * 1024 * 1024}`);
    const checkpointer = new WalCheckpointer(file, db, {
      intervalMs: 10,
      passiveBytes: 256 * 1024,
      restartBytes: 1024 * 1024,
      forceRestartBytes: 2 * 1024 * 1024,
      // Room for this thread's readers to take their turns on a loaded machine: a RESTART
      // that gives up waits a second before the next (the next test has the 20 ms default).
      waitMs: 250,
    });
    cleanups.push(() => checkpointer.close());
    // Two readers taking turns so that one always holds a snapshot, as the HTTP and job
    // threads' reads of each turn do: a commit never finds the log free to start over.
    const readers = [new SqliteDatabase(file), new SqliteDatabase(file)];
    cleanups.push(() => readers.forEach((reader) => reader.close()));
    let current = 0;
    const snapshot = (reader: SqliteDatabase.Database) => {
      reader.prepare('begin').run();
      reader.prepare('select count(*) from t').get();
    };
    snapshot(readers[0]!);
    const insert = db.prepare('insert into t (body) values (?)');
    let written = 0;
    let largest = 0;
    const until = Date.now() + 2_000;
    while (Date.now() < until) {
      const next = 1 - current;
      snapshot(readers[next]!);
      readers[current]!.prepare('commit').run();
      current = next;
      try {
        db.transaction(() => insert.run('x'.repeat(16 * 1024)))();
        written += 16 * 1024;
      } catch (error) {
        // The RESTART checkpoint holds writers back for a moment: try again on the next turn.
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      }
      largest = Math.max(largest, fs.statSync(`${file}-wal`).size);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    readers[current]!.prepare('commit').run();
    expect(written).toBeGreaterThan(6 * 1024 * 1024);
    // Without the RESTART checkpoint the file holds every frame written.
    expect(largest).toBeLessThan(written / 2);
  });

  it('holds writers back for a moment at most while a long read keeps the log from starting over', async () => {
    const { file, db } = open();
    db.pragma('busy_timeout = 0');
    const checkpointer = new WalCheckpointer(file, db, {
      intervalMs: 10,
      passiveBytes: 256 * 1024,
      restartBytes: 512 * 1024,
      forceRestartBytes: 1024 * 1024,
    });
    cleanups.push(() => checkpointer.close());
    const reader = new SqliteDatabase(file);
    cleanups.push(() => {
      reader.close();
    });
    write(db, 0.25);
    // A read of 1.5 s (a big query's, say) that holds a part of the log.
    reader.prepare('begin').run();
    reader.prepare('select count(*) from t').get();
    const insert = db.prepare('insert into t (body) values (?)');
    let longestWait = 0;
    let waitingSince: number | undefined;
    const until = performance.now() + 1_500;
    while (performance.now() < until) {
      try {
        db.transaction(() => insert.run('x'.repeat(16 * 1024)))();
        if (waitingSince !== undefined) longestWait = Math.max(longestWait, performance.now() - waitingSince);
        waitingSince = undefined;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        waitingSince ??= performance.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    if (waitingSince !== undefined) longestWait = Math.max(longestWait, performance.now() - waitingSince);
    reader.prepare('commit').run();
    // Waiting for the reader (5 s of busy timeout) would have held every write for the
    // whole read; a RESTART gives up after waitMs (20 ms), with ample room here
    // for a loaded machine.
    expect(longestWait).toBeLessThan(400);
    expect(checkpointer.stats().checkpoints).toBeGreaterThan(0);
  });

  it('checkpoints on the main connection once the worker is gone and the log passes the fallback size', async () => {
    const { file, db } = open();
    const checkpointer = new WalCheckpointer(file, db, { intervalMs: 10, passiveBytes: 1024 * 1024 * 1024, fallbackBytes: 1024 * 1024 });
    cleanups.push(() => checkpointer.close());
    await checkpointer.close();
    write(db, 2);
    checkpointer.fallbackIfBehind();
    expect(checkpointer.stats()).toMatchObject({ fallbacks: 1, workerAlive: false });
    const size = fs.statSync(`${file}-wal`).size;
    write(db, 0.5);
    expect(fs.statSync(`${file}-wal`).size).toBeLessThanOrEqual(size);
  });

  it('is how createDb opens a SQLite file', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-checkpoint-'));
    const handle = createDb({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    cleanups.push(() => handle.destroy());
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(0);
  });
});
