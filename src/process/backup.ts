import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { Config } from '../config.js';
import { dbOptionsFromConfig } from '../db/create-db.js';
import { formatBytes, type ProgressStream } from './progress.js';

/**
 * `patron backup FILE [--force]`: an online, consistent copy of the SQLite file while
 * servers may be writing to it (docs/deploy.md, "Backups").
 *
 * SQLite's online backup API (better-sqlite3's `db.backup`) rather than `VACUUM INTO`:
 * it copies in steps and says after each how many pages are done of how many, which a
 * long copy of a large file reports as it goes; `VACUUM INTO` runs as one statement with
 * nothing to report until it ends. Each step holds a read transaction only while it copies
 * (WAL: writers go on beside it). When another connection writes between two steps the
 * API starts the copy over, so that the result is one moment's database; on a server
 * that writes all the time that could repeat without end, so after the first restart the
 * rest is copied in one step, in one read transaction (consistent, and writers still not
 * blocked). The copy goes to a temporary name beside the destination and takes the
 * destination's name only once complete and checked (`PRAGMA quick_check`).
 */

/** A refusal or failure to print as it is (exit 1). */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

/** Pages copied per step (4 MiB of 4 KiB pages) until the first restart. */
const PAGES_PER_STEP = 1024;
/** The most a step may be asked for (better-sqlite3's bound): every page left. */
const ALL_PAGES = 0x7fffffff;
const LOG_INTERVAL_MS = 5_000;
const TTY_INTERVAL_MS = 100;

export interface BackupOptions {
  readonly destination: string;
  readonly force: boolean;
}

export async function backupCommand(config: Config, options: BackupOptions, progressOut: ProgressStream = process.stderr): Promise<string> {
  const source = dbOptionsFromConfig(config);
  if (source.kind !== 'sqlite') {
    throw new BackupError(
      'patron backup copies the SQLite file; with DATABASE_URL set, back PostgreSQL up with its own tool instead: ' +
        'pg_dump --format=custom --file patron.dump "$DATABASE_URL" (restore with pg_restore --no-owner --dbname <fresh database>; docs/deploy.md).',
    );
  }
  const destination = path.resolve(options.destination);
  if (!fs.existsSync(source.file)) throw new BackupError(`There is no database to back up at ${source.file}.`);
  if (destination === path.resolve(source.file)) throw new BackupError('The destination is the database itself.');
  if (!options.force && fs.existsSync(destination)) throw new BackupError(`${destination} exists; give --force to replace it.`);
  const directory = path.dirname(destination);
  if (!fs.existsSync(directory)) throw new BackupError(`The directory ${directory} does not exist.`);

  const partial = path.join(directory, `.${path.basename(destination)}.partial-${process.pid}`);
  const database = new SqliteDatabase(source.file, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    const pageSize = Number(database.pragma('page_size', { simple: true }));
    const pages = await copy(database, partial, progressOut);
    check(partial);
    if (options.force) fs.renameSync(partial, destination);
    else {
      // A link fails if the name was taken meanwhile, where a rename would replace it.
      try {
        fs.linkSync(partial, destination);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupError(`${destination} exists; give --force to replace it.`);
        throw error;
      }
      fs.unlinkSync(partial);
    }
    const size = fs.statSync(destination).size;
    return `Backed up ${source.file} to ${destination}: ${pages.toLocaleString('en-US')} pages of ${pageSize} bytes, ${formatBytes(size)}.\n`;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    database.close();
  }
}

async function copy(database: SqliteDatabase.Database, partial: string, out: ProgressStream): Promise<number> {
  let remaining = Number.POSITIVE_INFINITY;
  let restarted = false;
  let last = Number.NEGATIVE_INFINITY;
  const interval = out.isTTY ? TTY_INTERVAL_MS : LOG_INTERVAL_MS;
  const result = await database.backup(partial, {
    progress: ({ totalPages, remainingPages }) => {
      if (remainingPages > remaining) restarted = true;
      remaining = remainingPages;
      const now = Date.now();
      if (now - last >= interval) {
        last = now;
        const done = totalPages - remainingPages;
        const line = `Backing up: ${done.toLocaleString('en-US')} of ${totalPages.toLocaleString('en-US')} pages (${Math.floor((done / totalPages) * 100)}%)`;
        if (out.isTTY) {
          out.write(`\r${line}\x1b[K`);
        } else out.write(`${line}\n`);
      }
      // After a restart (a write between two steps), the rest in one step: see above. Not
      // totalPages: the file may have grown since, and a step that leaves pages restarts again.
      return restarted ? ALL_PAGES : PAGES_PER_STEP;
    },
  });
  // The end of a progress shown on the way, on its line.
  if (last !== Number.NEGATIVE_INFINITY) {
    const line = `Backing up: ${result.totalPages.toLocaleString('en-US')} of ${result.totalPages.toLocaleString('en-US')} pages (100%)`;
    out.write(out.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
  }
  return result.totalPages;
}

function check(file: string): void {
  const copy = new SqliteDatabase(file, { fileMustExist: true });
  try {
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`The copy failed its check (${String(result)}); nothing was written to the destination.`);
  } finally {
    copy.close();
  }
}
