import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import type { CheckpointMode, StorageTimings } from './storage-timings.js';

/**
 * SQLite WAL checkpoints in a worker thread.
 *
 * A checkpoint copies the pages of the write-ahead log back into the database file and
 * fsyncs it. By default SQLite runs one inside the commit that takes the log past 1,000
 * pages, so that every few hundred messages one request's commit, on the event loop,
 * stalls for the copy and the fsync, and the average commit costs about three times
 * what it costs without. Here the main connection never checkpoints on its own
 * (`wal_autocheckpoint = 0`); a worker thread with its own connection checkpoints
 * instead:
 *
 * - every `intervalMs` (25 ms), once the log file is past `passiveBytes` (256 kB) and has
 *   changed since the last look, a PASSIVE checkpoint: it copies what no reader still
 *   needs, never waits and never blocks the writer (each copy ends with an fsync of the
 *   database file; see "How often" below);
 * - when the log still holds more than `fullBytes` (16 MB) after that, because readers
 *   kept it, a FULL one, which waits for them (and holds writers back while it copies)
 *   at most `waitMs` (20 ms); should a reader outlast that, no checkpoint that holds
 *   writers back runs for a second (a 5 s wait held every write up for a big query);
 * - should the worker die, or its checkpoints leave more than `fallbackBytes` (32 MB)
 *   uncopied, or the log grow past `restartCapBytes` (128 MB) without starting over, the
 *   main connection checkpoints itself (PASSIVE) at its next look, as SQLite would have.
 *
 * The log starts over from its beginning only when a write transaction of the main
 * connection begins while every frame of it has been copied: SQLite then reuses the
 * file instead of appending. A checkpoint in another thread races the writer for that
 * moment; under a steady stream of commits a checkpoint nearly always finishes after the
 * next commit, so the log would only grow (by gigabytes in a tight loop of writes). So
 * once the log is past `restartBytes` (8 MB) and a checkpoint copied all of it, the
 * worker checkpoints again at once, up to `restartTries` times: each copies only what was
 * committed during the previous one, which takes a fraction of a millisecond, and one of
 * them ends between two commits. The file then stays about as
 * large as `restartBytes` plus what accumulates in an interval.
 *
 * A commit starts the log over only when no other connection is reading a part of it.
 * With the job thread's connection beside the HTTP thread's, each reading in nearly every
 * turn of its event loop, that moment hardly ever comes, and under a steady load the log
 * grows without end. So once the log is past `forceRestartBytes` (64 MB) the worker runs
 * a RESTART checkpoint: it holds writers back (they retry from their event
 * loops, write-lock.ts) until the readers of the log are done, which takes a turn of
 * their event loops, and the next commit starts the log over (at most `waitMs`, as a
 * FULL one). The connections' journal size limit, the same 64 MB, then cuts the file
 * back to that length.
 *
 * How often: every 25 ms, past 256 kB. Each copy ends with an fsync of the database file,
 * and while it flushes, the fsyncs of the log that acknowledged writes wait for queue
 * behind it on the disk. Small, frequent copies keep that flush short; and a short log,
 * copied whole more often, starts over by itself, so that RESTARTs holding writers back
 * are rare. Less often (every 100 ms, past 1 MB) meant longer flushes, a RESTART about
 * once a second, and about twice the /transact p99, for no less CPU.
 *
 * The fallback compares what is left uncopied with `fallbackBytes`, not the log's length:
 * a log that stops starting over is long whatever the worker does, and the length made
 * the main thread checkpoint every second on its event loop, copying what the worker had
 * just copied.
 */

export interface WalCheckpointOptions {
  readonly intervalMs?: number;
  readonly passiveBytes?: number;
  readonly fullBytes?: number;
  readonly fallbackBytes?: number;
  readonly restartBytes?: number;
  readonly restartTries?: number;
  readonly restartCapBytes?: number;
  readonly forceRestartBytes?: number;
  readonly waitMs?: number;
}

export interface WalCheckpointStats {
  /** Checkpoints the worker ran. */
  readonly checkpoints: number;
  /** Bytes of log the last checkpoint left uncopied (readers still needed them). */
  readonly backlogBytes: number;
  /** Checkpoints the main connection ran because the worker was behind or gone. */
  readonly fallbacks: number;
  /** Frames in the log at the worker's last checkpoint, in bytes (since the log last started over). */
  readonly logBytes: number;
  readonly workerAlive: boolean;
}

interface WorkerReport {
  readonly checkpoints: number;
  readonly logBytes: number;
  readonly backlogBytes: number;
  /** Mode and milliseconds of each checkpoint since the last report. */
  readonly timed?: readonly (readonly [CheckpointMode, number])[];
}

export const WAL_CHECKPOINT_DEFAULTS = {
  intervalMs: 25,
  passiveBytes: 256 * 1024,
  fullBytes: 16 * 1024 * 1024,
  fallbackBytes: 32 * 1024 * 1024,
  restartBytes: 8 * 1024 * 1024,
  restartTries: 4,
  restartCapBytes: 128 * 1024 * 1024,
  forceRestartBytes: 64 * 1024 * 1024,
  waitMs: 20,
} as const;

// The worker's code, run as CommonJS (eval), so it needs no build step of its own and
// loads the same better-sqlite3 as the main thread (its path comes in workerData).
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file);
db.pragma('busy_timeout = ' + workerData.waitMs);
const pageSize = db.pragma('page_size', { simple: true });
let lastSeen = '';
let holdAfter = 0;
let checkpoints = 0;
// [mode, milliseconds] of each checkpoint since the last report (the main thread's timings);
// bounded, should ticks keep failing before they report.
let timed = [];
const checkpoint = (mode) => {
  const started = performance.now();
  const [result] = db.pragma('wal_checkpoint(' + mode + ')');
  if (timed.length < 1000) timed.push([mode.toLowerCase(), performance.now() - started]);
  checkpoints += 1;
  return result;
};
// FULL and RESTART hold writers back while they wait for readers: at most waitMs, and
// after one gave up (a reader outlasted it) neither runs for a second (see the class's comment).
const holding = (mode) => {
  const held = checkpoint(mode);
  if (held.busy) holdAfter = Date.now() + 1000;
  return held;
};
const timer = setInterval(() => {
  let stat;
  try { stat = fs.statSync(workerData.wal); } catch { return; }
  const seen = stat.size + '/' + stat.mtimeMs;
  if (stat.size < workerData.passiveBytes || seen === lastSeen) return;
  try {
    let result = checkpoint('PASSIVE');
    const mayHold = Date.now() >= holdAfter;
    if (mayHold && (result.log - result.checkpointed) * pageSize > workerData.fullBytes) result = holding('FULL');
    // Copied whole but long: checkpoint again until one ends between two of the writer's
    // commits, so that its next transaction starts the log over (see the class's comment).
    for (let i = 0; i < workerData.restartTries && result.log * pageSize >= workerData.restartBytes && result.checkpointed === result.log; i += 1) {
      result = checkpoint('PASSIVE');
    }
    // Other connections' readers keep the log from starting over (see the class's comment).
    if (mayHold && !result.busy && result.log * pageSize >= workerData.forceRestartBytes) result = holding('RESTART');
    lastSeen = seen;
    parentPort.postMessage({ checkpoints, logBytes: result.log * pageSize, backlogBytes: Math.max(0, result.log - result.checkpointed) * pageSize, timed });
    timed = [];
  } catch (error) {
    // SQLITE_BUSY and the like: the next tick tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly walPath: string;
  private readonly options: Required<WalCheckpointOptions>;
  private readonly fallbackTimer: NodeJS.Timeout;
  private report: WorkerReport = { checkpoints: 0, logBytes: 0, backlogBytes: 0 };
  private alive = true;
  private fallbacks = 0;
  private readonly exited: Promise<void>;

  constructor(
    file: string,
    private readonly main: SqliteDatabase.Database,
    options: WalCheckpointOptions = {},
    /** Each checkpoint's mode and duration go here (storage-timings.ts). */
    private readonly timings?: StorageTimings,
  ) {
    this.options = { ...WAL_CHECKPOINT_DEFAULTS, ...options };
    this.walPath = `${file}-wal`;
    main.pragma('wal_autocheckpoint = 0');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { ...this.options, file, wal: this.walPath, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
    this.worker.unref();
    this.worker.on('message', (report: WorkerReport) => {
      this.report = report;
      for (const [mode, ms] of report.timed ?? []) this.timings?.checkpoint(mode, ms / 1000);
    });
    // An error ends the worker; the fallback then keeps the log in bounds.
    this.worker.on('error', () => undefined);
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.alive = false;
        resolve();
      }),
    );
    this.fallbackTimer = setInterval(() => this.fallbackIfBehind(), Math.max(this.options.intervalMs * 10, 100));
    this.fallbackTimer.unref();
  }

  stats(): WalCheckpointStats {
    return {
      checkpoints: this.report.checkpoints,
      backlogBytes: this.report.backlogBytes,
      logBytes: this.report.logBytes,
      fallbacks: this.fallbacks,
      workerAlive: this.alive,
    };
  }

  /** Stops the worker and closes its connection (before the main connection closes, so that it is the last). */
  async close(): Promise<void> {
    clearInterval(this.fallbackTimer);
    if (!this.alive) return;
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), 5_000);
    await this.exited;
    clearTimeout(timer);
  }

  /**
   * The main connection checkpoints when the worker is gone and the log file is past
   * fallbackBytes, or when the worker's last checkpoint left more than fallbackBytes
   * uncopied, or found the log past restartCapBytes (it has not started over for long).
   */
  fallbackIfBehind(): void {
    if (this.alive) {
      const { backlogBytes, logBytes } = this.report;
      if (backlogBytes < this.options.fallbackBytes && logBytes < this.options.restartCapBytes) return;
    } else {
      let size: number;
      try {
        size = fs.statSync(this.walPath).size;
      } catch {
        return;
      }
      if (size < this.options.fallbackBytes) return;
    }
    try {
      const started = performance.now();
      const [result] = this.main.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
      this.timings?.checkpoint('passive', (performance.now() - started) / 1000);
      this.fallbacks += 1;
      if (result) this.report = { ...this.report, logBytes: 0, backlogBytes: 0 };
    } catch {
      // Busy: the next look tries again.
    }
  }
}
