import fs from 'node:fs';
import type { StorageTimings } from './storage-timings.js';

/**
 * Makes SQLite commits durable without blocking the event loop.
 *
 * better-sqlite3 is synchronous, so with `synchronous = FULL` every commit's fsync of the
 * write-ahead log stalls the whole process for the disk's flush time (milliseconds),
 * during which no request is parsed. Instead the connection runs with
 * `synchronous = NORMAL` (a commit writes the WAL into the OS's cache and returns; a
 * killed process loses nothing) and whoever must not acknowledge before the data is on
 * disk awaits `sync()`, an fsync of the WAL file on libuv's thread pool. That is what
 * FULL does at commit, moved off the main thread: the frames of every transaction
 * committed before `sync()` was called are on disk when it resolves.
 *
 * Calls coalesce: callers that arrive while an fsync runs share the next one, which
 * starts when the running one ends (the running one may have started before their
 * commit). Writes that nobody awaits (sessions, admin changes) are flushed by a
 * background sync within `backgroundMs` when the log changed.
 */
export class WalSyncer {
  private handle: fs.promises.FileHandle | undefined;
  private opening: Promise<fs.promises.FileHandle | undefined> | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastSynced = '';
  private closed = false;
  private flushCount = 0;

  constructor(
    private readonly walPath: string,
    backgroundMs = 200,
    /** Each fsync's duration goes here (storage-timings.ts). */
    private readonly timings?: StorageTimings,
  ) {
    if (backgroundMs > 0) {
      this.timer = setInterval(() => void this.syncIfChanged(), backgroundMs);
      this.timer.unref();
    }
  }

  /** fsyncs done so far (for tests and metrics). */
  get flushes(): number {
    return this.flushCount;
  }

  /** Resolves once every transaction committed before this call is on disk. */
  sync(): Promise<void> {
    if (!this.running) {
      this.running = this.flush().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.next ??= this.running.then(() => {
      this.next = undefined;
      return this.sync();
    });
    return this.next;
  }

  /** Flushes what is pending and closes the file. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sync().catch(() => undefined);
    this.closed = true;
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  private async flush(): Promise<void> {
    const handle = await this.open();
    if (!handle) return;
    const started = this.timings?.start();
    await handle.sync();
    this.flushCount += 1;
    this.timings?.waited('wal_sync', started);
  }

  /**
   * The background look: a flush when the log changed since the last look that flushed.
   * Only this look stats the file (a stat before every flush costs a system call per
   * acknowledged batch); the price is at most one flush a look that an explicit one had
   * made needless.
   */
  private async syncIfChanged(): Promise<void> {
    if (this.running || this.closed) return;
    try {
      const handle = await this.open();
      if (!handle) return;
      const stat = await handle.stat();
      const seen = `${stat.size}/${stat.mtimeMs}`;
      if (seen === this.lastSynced) return;
      // The flush starts after the stat, so it covers what the stat saw.
      await this.sync();
      this.lastSynced = seen;
    } catch {
      // The next explicit sync reports a real failure; a background one has no caller.
    }
  }

  /**
   * The WAL file, opened once it exists (SQLite creates it with the first write). A
   * background look and a sync may ask at the same moment: they share one open, since a
   * second handle would be dropped unclosed and closed by the garbage collector.
   */
  private async open(): Promise<fs.promises.FileHandle | undefined> {
    if (this.closed) return undefined;
    if (this.handle) return this.handle;
    this.opening ??= fs.promises
      .open(this.walPath, 'r+')
      .then(
        (handle) => (this.handle = handle),
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        },
      )
      .finally(() => {
        this.opening = undefined;
      });
    return this.opening;
  }
}
