import { sql, type Transaction } from 'kysely';
import type { DbHandle } from './create-db.js';
import { GroupCommitter, type GroupCommitStats } from './group-commit.js';
import type { Database } from './types.js';

/**
 * One caller's writes, run inside a shared transaction. When the shared transaction fails
 * it is rolled back and each write runs again alone, in a transaction of its own (so
 * that one bad write fails only its caller): a write must use only `trx`, never the
 * handle's own connection (on SQLite that waits for the connection the transaction
 * holds: a deadlock), and must not wait for another GroupWrite submission.
 */
export type GroupedWrite<R> = (trx: Transaction<Database>) => Promise<R>;

/** The most writes one shared transaction takes: enough to amortise a commit, short enough not to hold readers up. */
export const GROUP_WRITE_MAX_BATCH = 256;

/**
 * Small write transactions committed together (group commit, db/group-commit.ts): the
 * writes submitted while a commit runs share the next transaction, and each caller's
 * promise resolves once that transaction has committed and is on disk (DbHandle.durable),
 * so nothing is acknowledged before its commit. On SQLite a transaction of its own per
 * write costs a begin, a commit and a WAL append of every page it touched; shared, the
 * pages a batch touches (the same index pages, mostly) are appended once. On PostgreSQL
 * each write runs in a transaction of its own, side by side on the pool: the server
 * merges the log flushes of concurrent commits itself, and a shared transaction would
 * only hold one connection for every caller's round trips (it cost more CPU per message
 * and halved the rate).
 */
export class GroupWrite {
  private readonly committer: GroupCommitter<GroupedWrite<unknown>, unknown>;
  private readonly alone: boolean;

  constructor(
    private readonly handle: DbHandle,
    options: { durable?: boolean } = {},
  ) {
    // PostgreSQL runs transactions side by side on its pool and merges their WAL flushes
    // itself; one shared transaction would run the writes one after the other instead.
    this.alone = handle.dialect === 'postgres';
    this.committer = new GroupCommitter(
      (writes) =>
        handle.db.transaction().execute(async (trx) => {
          const results: unknown[] = [];
          for (const write of writes) results.push(await write(trx));
          return results;
        }),
      { maxBatch: GROUP_WRITE_MAX_BATCH, ...(options.durable !== false && { durable: () => handle.durable() }) },
    );
  }

  /**
   * Runs `write` in the next shared transaction; resolves with its result once committed
   * and durable, or once committed alone with `durable: false` (a write whose loss with
   * the machine is harmless, such as a job's outcome: it shares the transaction all the same).
   */
  run<R>(write: GroupedWrite<R>, options: { durable?: boolean } = {}): Promise<R> {
    if (this.alone) return this.handle.db.transaction().execute(write);
    return this.committer.submit(write, options) as Promise<R>;
  }

  /**
   * run, with `write`'s statements in a savepoint of their own: when it throws, what it
   * wrote is rolled back to the savepoint, the other writes of the shared transaction
   * commit, and the caller gets its error once they have. For writes that refuse by
   * throwing often enough (a limit reached under contention) that splitting every batch
   * they are in would cost more than a savepoint each (two statements). Only the error
   * a statement of `write` raised is contained: one that leaves the transaction unusable
   * fails the batch, which then runs each write alone, as run does.
   */
  runContained<R>(write: GroupedWrite<R>): Promise<R> {
    if (this.alone) return this.handle.db.transaction().execute(write);
    const contained: GroupedWrite<{ ok: true; result: R } | { ok: false; error: unknown }> = async (trx) => {
      await sql`savepoint group_write`.execute(trx);
      try {
        const result = await write(trx);
        await sql`release savepoint group_write`.execute(trx);
        return { ok: true, result };
      } catch (error) {
        await sql`rollback to savepoint group_write`.execute(trx);
        await sql`release savepoint group_write`.execute(trx);
        return { ok: false, error };
      }
    };
    return this.run(contained).then((outcome) => {
      if (!outcome.ok) throw outcome.error;
      return outcome.result;
    });
  }

  snapshot(): GroupCommitStats {
    return this.committer.snapshot();
  }
}

const shared = new WeakMap<DbHandle, GroupWrite>();

/**
 * The database's one durable GroupWrite, shared by every service that writes through it
 * (messaging's messages and delivery outcomes), so that their writes share transactions.
 */
export function groupWriteOf(handle: DbHandle): GroupWrite {
  let writer = shared.get(handle);
  if (!writer) {
    writer = new GroupWrite(handle);
    shared.set(handle, writer);
  }
  return writer;
}
