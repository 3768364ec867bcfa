import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { DEFAULT_LEASE_MS, JobRunner, type RunnerLogger } from '../../src/jobs/runner.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';
import { deferred, waitFor } from '../helpers/wait.js';

/** Several worker processes on one database, each with its own connection. */

interface TestJobs {
  work: { n: number };
}

const quietLogger: RunnerLogger = { warn: () => undefined, error: () => undefined };

describe.each(TEST_DIALECTS)('job workers sharing a %s database', (dialect) => {
  let testDb: TestDb;
  let clock: ManualClock;
  const handles = new Set<DbHandle>();
  const runners: JobRunner<TestJobs>[] = [];

  /** A second "process": its own connection, queue and runner. */
  function openWorker(workerId: string, options: { concurrency?: number; leaseMs?: number } = {}) {
    const db = createDb(testDb.options);
    handles.add(db);
    const queue = new JobQueue<TestJobs>({ db, clock });
    const runner = new JobRunner<TestJobs>({
      queue,
      clock,
      workerId,
      pollIntervalMs: 5,
      logger: quietLogger,
      ...options,
    });
    runners.push(runner);
    /** Ends the "process" without stopping its runner: what a crash leaves behind. */
    async function kill(): Promise<void> {
      handles.delete(db);
      await db.destroy();
    }
    return { queue, runner, kill };
  }

  // One database per file; each test starts with an empty queue.
  beforeAll(async () => {
    testDb = await createTestDb(dialect);
  });
  afterAll(async () => {
    await testDb.cleanup();
  });
  beforeEach(async () => {
    await testDb.db.deleteFrom('jobs').execute();
    clock = new ManualClock();
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMs: 1000 })));
    await Promise.all([...handles].map((h) => h.destroy()));
    handles.clear();
  });

  it('runs each of 200 jobs exactly once with two runners on separate connections', async () => {
    const runs = new Map<number, number>();
    const byWorker: Record<string, number> = { a: 0, b: 0 };
    const a = openWorker('a', { concurrency: 4 });
    const b = openWorker('b', { concurrency: 4 });
    for (const [worker, { runner }] of [
      ['a', a],
      ['b', b],
    ] as const) {
      runner.register('work', async (_payload, ctx) => {
        runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
        byWorker[worker] = (byWorker[worker] ?? 0) + 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
      });
    }
    const ids: number[] = [];
    for (let n = 0; n < 200; n++) ids.push((await a.queue.enqueue('work', { n })).job.id);

    a.runner.start();
    b.runner.start();
    await waitFor(async () => (await a.queue.countByState()).done === 200, { timeoutMs: 30_000, what: '200 jobs' });

    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect([...runs].filter(([, count]) => count !== 1)).toEqual([]);
    expect(byWorker.a! + byWorker.b!).toBe(200);
    expect(byWorker.a).toBeGreaterThan(0);
    expect(byWorker.b).toBeGreaterThan(0);
    expect(await a.queue.countByState()).toEqual({ queued: 0, running: 0, done: 200, failed: 0 });
  });

  it('takes over a job left running by a killed worker once its lease has expired', async () => {
    const dead = openWorker('dead-worker');
    const live = openWorker('live-worker', { leaseMs: 30_000 });
    const ran: number[] = [];
    live.runner.register('work', async (payload) => {
      ran.push(payload.n);
      await Promise.resolve();
    });
    const orphan = await dead.queue.enqueue('work', { n: 1 });
    const [claimed] = await dead.queue.claim({ workerId: 'dead-worker', names: ['work'], limit: 1, leaseMs: 30_000 });
    expect(claimed?.id).toBe(orphan.job.id);
    await dead.kill();

    live.runner.start();
    // Once a job enqueued later is done, the live runner has polled during the lease.
    const marker = await live.queue.enqueue('work', { n: 2 });
    await waitFor(async () => (await live.queue.get(marker.job.id))?.status === 'done', { what: 'the marker job' });
    expect(await live.queue.get(orphan.job.id)).toMatchObject({ status: 'running', lockedBy: 'dead-worker' });
    expect(ran).toEqual([2]);

    clock.advance(30_000);
    await waitFor(async () => (await live.queue.get(orphan.job.id))?.status === 'done', { what: 'the orphan' });
    expect(ran).toEqual([2, 1]);
    expect(await live.queue.get(orphan.job.id)).toMatchObject({
      attempts: 2,
      lastError: 'Lease expired: worker dead-worker stopped during attempt 1',
    });
  });

  it('resumes the job of a killed worker within the default lease of a few seconds, not a minute', async () => {
    expect(DEFAULT_LEASE_MS).toBeLessThanOrEqual(15_000);
    const dead = openWorker('dead-worker');
    const hung = deferred();
    dead.runner.register('work', () => hung.promise);
    const orphan = await dead.queue.enqueue('work', { n: 1 });
    dead.runner.start();
    await waitFor(async () => (await dead.queue.get(orphan.job.id))?.status === 'running', { what: 'the dead worker’s claim' });
    const claimedAt = clock.now();
    expect(await dead.queue.get(orphan.job.id)).toMatchObject({ lockedBy: 'dead-worker', lockedUntil: claimedAt + DEFAULT_LEASE_MS });
    await dead.kill(); // its heartbeats stop renewing: the database is gone

    const live = openWorker('live-worker');
    const ran: number[] = [];
    live.runner.register('work', async (payload) => {
      ran.push(payload.n);
      await Promise.resolve();
    });
    live.runner.start();
    clock.advance(DEFAULT_LEASE_MS - 1);
    const marker = await live.queue.enqueue('work', { n: 2 });
    await waitFor(async () => (await live.queue.get(marker.job.id))?.status === 'done', { what: 'the marker job' });
    expect(await live.queue.get(orphan.job.id)).toMatchObject({ status: 'running', lockedBy: 'dead-worker' });

    clock.advance(1);
    await waitFor(async () => (await live.queue.get(orphan.job.id))?.status === 'done', { what: 'the orphan' });
    expect(ran).toEqual([2, 1]);
    expect(await live.queue.get(orphan.job.id)).toMatchObject({
      attempts: 2,
      lastError: 'Lease expired: worker dead-worker stopped during attempt 1',
    });
    hung.resolve();
  });

  it('fails a job whose last attempt died with its worker, saying the lease expired', async () => {
    const dead = openWorker('dead-worker');
    const live = openWorker('live-worker');
    let calls = 0;
    live.runner.register(
      'work',
      async () => {
        calls += 1;
        await Promise.resolve();
      },
      { maxAttempts: 2, backoffMs: 0, maxBackoffMs: 0 },
    );
    const { job } = await dead.queue.enqueue('work', { n: 1 });
    await dead.queue.claim({ workerId: 'dead-worker', names: ['work'], limit: 1, leaseMs: 1000 });
    clock.advance(1000);
    await dead.queue.claim({ workerId: 'dead-worker', names: ['work'], limit: 1, leaseMs: 1000 });
    clock.advance(1000);

    expect(await live.runner.runDue()).toBe(1);
    expect(calls).toBe(0);
    expect(await live.queue.get(job.id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastError: 'Lease expired: worker dead-worker stopped during attempt 2',
      lockedBy: null,
    });
  });

  it('tells the handler’s onGiveUp when a job fails for good without a last run of its own', async () => {
    const dead = openWorker('dead-worker');
    const live = openWorker('live-worker');
    const gaveUp: Array<[{ n: number }, string]> = [];
    live.runner.register('work', () => Promise.resolve(), {
      maxAttempts: 1,
      onGiveUp: (payload, error) => {
        gaveUp.push([payload, error]);
        return Promise.resolve();
      },
    });
    const { job } = await dead.queue.enqueue('work', { n: 7 });
    await dead.queue.claim({ workerId: 'dead-worker', names: ['work'], limit: 1, leaseMs: 1000 });
    clock.advance(1000);

    expect(await live.runner.runDue()).toBe(1);
    expect(gaveUp).toEqual([[{ n: 7 }, 'Lease expired: worker dead-worker stopped during attempt 1']]);
    expect(await live.queue.get(job.id)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('keeps queued jobs across a restart', async () => {
    const before = openWorker('before');
    const due = await before.queue.enqueue('work', { n: 1 });
    const later = await before.queue.enqueue('work', { n: 2 }, { runAt: clock.now() + 5000 });
    await before.kill();

    const after = openWorker('after');
    const ran: number[] = [];
    after.runner.register('work', async (payload) => {
      ran.push(payload.n);
      await Promise.resolve();
    });
    after.runner.start();
    await waitFor(async () => (await after.queue.get(due.job.id))?.status === 'done', { what: 'the due job' });
    clock.advance(5000);
    await waitFor(async () => (await after.queue.get(later.job.id))?.status === 'done', { what: 'the later job' });
    expect(ran).toEqual([1, 2]);
  });
});
