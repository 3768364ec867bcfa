import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { GroupCommitter } from '../../src/db/group-commit.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';
import { deferred, waitFor, type Deferred } from '../helpers/wait.js';

/** A commit function that records its batches and can be held open by the test. */
function recordingCommit(options: { hold?: () => Deferred | undefined; fail?: (item: number) => boolean } = {}) {
  const batches: number[][] = [];
  const commit = async (items: readonly number[]): Promise<string[]> => {
    batches.push([...items]);
    await options.hold?.()?.promise;
    const bad = items.find((item) => options.fail?.(item));
    if (bad !== undefined) throw new Error(`item ${bad} is bad`);
    return items.map((item) => `done ${item}`);
  };
  return { batches, commit };
}

describe('group committer', () => {
  it('resolves each caller with its own result, in submission order', async () => {
    const { commit } = recordingCommit();
    const committer = new GroupCommitter(commit);
    const results = await Promise.all([1, 2, 3, 4].map((n) => committer.submit(n)));
    expect(results).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
  });

  it('commits an item submitted by a caller resuming from the previous commit, at any microtask', async () => {
    // The window between the loop's last look at the queue and its end is a few
    // microtasks wide: a submission landing anywhere in it must still be committed.
    for (let ticks = 0; ticks < 12; ticks += 1) {
      const { commit } = recordingCommit();
      const committer = new GroupCommitter(commit);
      const second = committer.submit(1).then(async () => {
        for (let i = 0; i < ticks; i += 1) await Promise.resolve();
        return committer.submit(2);
      });
      const stuck = new Promise((resolve) => setTimeout(() => resolve('stuck'), 500));
      expect(await Promise.race([second, stuck])).toBe('done 2');
    }
  });

  it('commits the submissions of one event-loop turn together, without a timer', async () => {
    const { batches, commit } = recordingCommit();
    const committer = new GroupCommitter(commit);
    await Promise.all(Array.from({ length: 50 }, (_, i) => committer.submit(i)));
    expect(batches).toEqual([Array.from({ length: 50 }, (_, i) => i)]);
  });

  it('collects submissions while a commit runs and commits them at once when it ends', async () => {
    let gate: Deferred | undefined = deferred();
    const firstGate = gate;
    const { batches, commit } = recordingCommit({
      hold: () => {
        const current = gate;
        gate = undefined;
        return current;
      },
    });
    const committer = new GroupCommitter(commit);
    const first = committer.submit(0);
    await waitFor(() => batches.length === 1, { what: 'the first commit to start' });
    const later = Array.from({ length: 10 }, (_, i) => committer.submit(i + 1));
    expect(committer.queued).toBe(10);
    firstGate.resolve();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
    expect(committer.snapshot()).toMatchObject({ commits: 2, committed: 11, largestBatch: 10 });
  });

  it('caps a batch at maxBatch and commits the rest in the next transaction', async () => {
    const { batches, commit } = recordingCommit();
    const committer = new GroupCommitter(commit, { maxBatch: 4 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => committer.submit(i)));
    expect(batches).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
  });

  it('retries a failed batch one item at a time, so only the bad item fails', async () => {
    const { batches, commit } = recordingCommit({ fail: (item) => item === 2 });
    const committer = new GroupCommitter(commit);
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => committer.submit(n)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('item 2 is bad'));
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(committer.snapshot()).toEqual({ commits: 2, committed: 2, failed: 1, splitBatches: 1, largestBatch: 1, queued: 0 });
  });

  it('drain commits what is pending, then refuses new items', async () => {
    const { batches, commit } = recordingCommit();
    const committer = new GroupCommitter(commit);
    const pending = [committer.submit(1), committer.submit(2)];
    await committer.drain();
    expect(batches).toEqual([[1, 2]]);
    expect(await Promise.all(pending)).toEqual(['done 1', 'done 2']);
    await expect(committer.submit(3)).rejects.toBeInstanceOf(AppError);
    await expect(committer.submit(3)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('drain waits for the commit in progress and for what collected meanwhile', async () => {
    const gate = deferred();
    let held = false;
    const { batches, commit } = recordingCommit({
      hold: () => {
        if (held) return undefined;
        held = true;
        return gate;
      },
    });
    const committer = new GroupCommitter(commit);
    const first = committer.submit(1);
    await waitFor(() => batches.length === 1, { what: 'the first commit to start' });
    const second = committer.submit(2);
    let drained = false;
    const draining = committer.drain().then(() => {
      drained = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(drained).toBe(false);
    gate.resolve();
    await draining;
    expect(await Promise.all([first, second])).toEqual(['done 1', 'done 2']);
    expect(batches).toEqual([[1], [2]]);
  });
});

describe('group committer with a durability step', () => {
  it('answers a batch only once the flush after its commit has resolved', async () => {
    const { commit } = recordingCommit();
    const flush = deferred();
    const committer = new GroupCommitter(commit, { durable: () => flush.promise });
    let answered = false;
    const result = committer.submit(1).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    flush.resolve();
    expect(await result).toBe('done 1');
  });

  it('answers an item submitted with durable: false at its commit, sharing the batch with items that wait for the disk', async () => {
    const { batches, commit } = recordingCommit();
    const flush = deferred();
    const committer = new GroupCommitter(commit, { durable: () => flush.promise });
    let durableAnswered = false;
    const durable = committer.submit(1).then((r) => {
      durableAnswered = true;
      return r;
    });
    const committedOnly = committer.submit(2, { durable: false });
    expect(await committedOnly).toBe('done 2');
    expect(batches).toEqual([[1, 2]]);
    expect(durableAnswered).toBe(false);
    flush.resolve();
    expect(await durable).toBe('done 1');
  });

  it('commits the next batch while the previous one is still flushing', async () => {
    const { batches, commit } = recordingCommit();
    const flushes: Deferred[] = [];
    const committer = new GroupCommitter(commit, {
      durable: () => {
        const flush = deferred();
        flushes.push(flush);
        return flush.promise;
      },
    });
    const first = committer.submit(1);
    await waitFor(() => flushes.length === 1, { what: 'the first flush' });
    const second = committer.submit(2);
    await waitFor(() => batches.length === 2, { what: 'the second commit during the first flush' });
    for (const flush of flushes) flush.resolve();
    await waitFor(() => flushes.length === 2, { what: 'the second flush' });
    flushes[1]!.resolve();
    expect(await Promise.all([first, second])).toEqual(['done 1', 'done 2']);
  });

  it('fails the callers of a batch whose flush fails, and drain waits for flushes', async () => {
    const { commit } = recordingCommit();
    const flush = deferred();
    const committer = new GroupCommitter(commit, { durable: () => flush.promise });
    const outcome = committer.submit(1).then(
      () => 'answered',
      (error: unknown) => (error as Error).message,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    let drained = false;
    const draining = committer.drain().then(() => {
      drained = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(drained).toBe(false);
    flush.reject(new Error('disk full'));
    await draining;
    expect(await outcome).toBe('disk full');
  });
});

describe.each(TEST_DIALECTS)('group committer over real transactions on %s', (dialect) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });

  /** Each item is a settings key; a key that exists fails its transaction (primary key). */
  function settingsCommitter() {
    let transactions = 0;
    const committer = new GroupCommitter<string, string>(async (keys) => {
      transactions += 1;
      await db.db.transaction().execute(async (trx) => {
        for (const key of keys) await trx.insertInto('settings').values({ key, value: 'v', updated_at: 0 }).execute();
      });
      return keys;
    });
    return { committer, transactions: () => transactions };
  }

  it('commits concurrent items in far fewer transactions, each item exactly once', async () => {
    const { committer, transactions } = settingsCommitter();
    const keys = Array.from({ length: 300 }, (_, i) => `batch-${i}`);
    await Promise.all(keys.map((k) => committer.submit(k)));
    const rows = await db.db.selectFrom('settings').select('key').where('key', 'like', 'batch-%').execute();
    expect(rows.map((r) => r.key).sort()).toEqual([...keys].sort());
    expect(transactions()).toBeLessThan(10);
  });

  it('rolls back a failed batch and commits its good items alone', async () => {
    await db.db.insertInto('settings').values({ key: 'taken', value: 'v', updated_at: 0 }).execute();
    const { committer } = settingsCommitter();
    const outcomes = await Promise.allSettled(['iso-1', 'taken', 'iso-2'].map((k) => committer.submit(k)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await db.db.selectFrom('settings').select('key').where('key', 'like', 'iso-%').execute();
    expect(rows.map((r) => r.key).sort()).toEqual(['iso-1', 'iso-2']);
  });
});
