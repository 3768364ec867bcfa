import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.js';

/**
 * Connections to one temporary SQLite file per test, for the tests of db/ that need the
 * file itself (locks between connections, the log's fsyncs, checkpoints). Call it in a
 * `describe`: after each test its connections are closed, newest first, and the file's
 * directory is removed.
 */
export function sqliteFileConnections(prefix: string) {
  let dir: string | undefined;
  const handles: DbHandle[] = [];

  afterEach(async () => {
    for (const handle of handles.splice(0).reverse()) await handle.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** This test's database file (its directory is made on first use). */
  const file = (): string => {
    dir ??= fs.mkdtempSync(path.join(os.tmpdir(), `patron-${prefix}-`));
    return path.join(dir, 'db.sqlite');
  };

  return {
    file,
    /**
     * A connection to this test's file. The first of a test runs the checkpoints.
     * `shareLockOf`: another thread's connection of the same process (the write lock
     * shared, no checkpoints); `ownLock`: another process's (a lock of its own, no
     * checkpoints).
     */
    open(options: { shareLockOf?: DbHandle; ownLock?: boolean } = {}): DbHandle {
      const shared = options.shareLockOf;
      const second = shared !== undefined || options.ownLock === true;
      const handle = createDb({
        kind: 'sqlite',
        file: file(),
        ...(second && { checkpoints: false }),
        ...(shared?.writeLock && { writeLock: shared.writeLock }),
      });
      handles.push(handle);
      return handle;
    },
    /** Closes a connection within the test (the cleanup then leaves it alone). */
    async close(handle: DbHandle): Promise<void> {
      handles.splice(handles.indexOf(handle), 1);
      await handle.destroy();
    },
  };
}
