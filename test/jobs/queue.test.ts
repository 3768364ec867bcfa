import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';

interface TestJobs {
  'mail.send': { to: string; tags: string[] };
  'audience.import': { importId: number };
}

describe.each(TEST_DIALECTS)('job queue on %s', (dialect) => {
  let testDb: TestDb;
  let clock: ManualClock;
  let queue: JobQueue<TestJobs>;

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
    queue = new JobQueue<TestJobs>({ db: testDb, clock });
  });
  it('stores an enqueued job as queued, due now, with its payload', async () => {
    const { job, created } = await queue.enqueue('mail.send', { to: 'ann@example.org', tags: ['a', 'b'] });
    expect(created).toBe(true);
    expect(job).toMatchObject({
      name: 'mail.send',
      payload: { to: 'ann@example.org', tags: ['a', 'b'] },
      status: 'queued',
      idempotencyKey: null,
      attempts: 0,
      runAt: clock.now(),
      lockedBy: null,
      lastError: null,
      createdAt: clock.now(),
      finishedAt: null,
    });
    expect(await queue.get(job.id)).toEqual(job);
  });

  it('answers undefined for a job id that does not exist', async () => {
    expect(await queue.get(987_654)).toBeUndefined();
  });

  it('returns the existing job when the same name and idempotency key are enqueued again', async () => {
    const first = await queue.enqueue('audience.import', { importId: 1 }, { idempotencyKey: 'import-1' });
    const second = await queue.enqueue('audience.import', { importId: 2 }, { idempotencyKey: 'import-1' });
    expect(second.created).toBe(false);
    expect(second.job.id).toBe(first.job.id);
    expect(second.job.payload).toEqual({ importId: 1 });
    expect((await queue.countByState()).queued).toBe(1);
  });

  it('deduplicates by name and key together, and never jobs without a key', async () => {
    const a = await queue.enqueue('audience.import', { importId: 1 }, { idempotencyKey: 'k' });
    const b = await queue.enqueue('mail.send', { to: 'x@example.org', tags: [] }, { idempotencyKey: 'k' });
    const c = await queue.enqueue('audience.import', { importId: 1 });
    const d = await queue.enqueue('audience.import', { importId: 1 });
    expect([a.created, b.created, c.created, d.created]).toEqual([true, true, true, true]);
    expect(new Set([a.job.id, b.job.id, c.job.id, d.job.id]).size).toBe(4);
  });

  it('keeps one job when concurrent enqueues from two connections share a key', async () => {
    const other: DbHandle = createDb(testDb.options);
    try {
      const otherQueue = new JobQueue<TestJobs>({ db: other, clock });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? queue : otherQueue).enqueue('audience.import', { importId: i }, { idempotencyKey: 'same' }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.job.id)).size).toBe(1);
      expect((await queue.countByState()).queued).toBe(1);
    } finally {
      await other.destroy();
    }
  });

  it('counts jobs by state, with zero for states that have none', async () => {
    expect(await queue.countByState()).toEqual({ queued: 0, running: 0, done: 0, failed: 0 });
    for (let i = 0; i < 5; i++) await queue.enqueue('audience.import', { importId: i });
    const [toFinish, toFail, toKeepRunning] = await queue.claim({
      workerId: 'w1',
      names: ['audience.import'],
      limit: 3,
      leaseMs: 1000,
    });
    await queue.complete({ id: toFinish!.id, attempts: 1, workerId: 'w1' });
    await queue.fail({ id: toFail!.id, attempts: 1, workerId: 'w1' }, 'broken');
    expect(toKeepRunning).toBeDefined();
    expect(await queue.countByState()).toEqual({ queued: 2, running: 1, done: 1, failed: 1 });
  });

  it('claims only due jobs of the given names, earliest first, up to the limit', async () => {
    const late = await queue.enqueue('audience.import', { importId: 1 }, { runAt: clock.now() + 500 });
    const early = await queue.enqueue('audience.import', { importId: 2 }, { runAt: clock.now() - 500 });
    const now = await queue.enqueue('audience.import', { importId: 3 });
    await queue.enqueue('mail.send', { to: 'x@example.org', tags: [] });
    await queue.enqueue('audience.import', { importId: 4 }, { runAt: clock.now() + 60_000 });
    clock.advance(500);

    const claimed = await queue.claim({ workerId: 'w1', names: ['audience.import'], limit: 3, leaseMs: 30_000 });
    expect(claimed.map((j) => j.id)).toEqual([early.job.id, now.job.id, late.job.id]);
    for (const job of claimed) {
      expect(job).toMatchObject({ status: 'running', attempts: 1, lockedBy: 'w1', lockedUntil: clock.now() + 30_000 });
    }
    expect(JSON.parse(claimed[0]!.payloadJson)).toEqual({ importId: 2 });
    expect(await queue.claim({ workerId: 'w2', names: ['audience.import'], limit: 3, leaseMs: 30_000 })).toEqual([]);
  });

  it('ignores finishing updates from a claim that another worker has taken over', async () => {
    const { job } = await queue.enqueue('audience.import', { importId: 1 });
    await queue.claim({ workerId: 'slow', names: ['audience.import'], limit: 1, leaseMs: 1000 });
    clock.advance(1000);
    const [reclaimed] = await queue.claim({ workerId: 'fresh', names: ['audience.import'], limit: 1, leaseMs: 1000 });
    expect(reclaimed).toMatchObject({ id: job.id, attempts: 2, lockedBy: 'fresh' });
    expect(reclaimed!.lastError).toBe('Lease expired: worker slow stopped during attempt 1');

    const stale = { id: job.id, attempts: 1, workerId: 'slow' };
    expect(await queue.complete(stale)).toBe(false);
    expect(await queue.renewLease(stale, 1000)).toBe(false);
    expect(await queue.fail(stale, 'late')).toBe(false);
    expect(await queue.get(job.id)).toMatchObject({ status: 'running', lockedBy: 'fresh', attempts: 2 });
  });

  it('renews a lease only forward: a shorter renewal, or one computed on a clock behind, keeps the later end', async () => {
    const { job } = await queue.enqueue('audience.import', { importId: 1 });
    const [claimed] = await queue.claim({ workerId: 'w1', names: ['audience.import'], limit: 1, leaseMs: 30_000 });
    const claim = { id: job.id, attempts: claimed!.attempts, workerId: 'w1' };
    const end = clock.now() + 30_000;

    expect(await queue.renewLease(claim, 1_000)).toBe(true);
    expect((await queue.get(job.id))?.lockedUntil).toBe(end);
    // A renewal that was computed before a later one landed: the later end stays.
    clock.advance(20_000);
    expect(await queue.renewLease(claim, 30_000)).toBe(true);
    const later = clock.now() + 30_000;
    clock.advance(-10_000);
    expect(await queue.renewLease(claim, 30_000)).toBe(true);
    expect((await queue.get(job.id))?.lockedUntil).toBe(later);
    clock.advance(15_000);
    expect(await queue.renewLease(claim, 30_000)).toBe(true);
    expect((await queue.get(job.id))?.lockedUntil).toBe(clock.now() + 30_000);
  });

  it('never renews a lease another claim holds, in a transaction of the caller too', async () => {
    const { job } = await queue.enqueue('audience.import', { importId: 1 });
    await queue.claim({ workerId: 'slow', names: ['audience.import'], limit: 1, leaseMs: 1000 });
    clock.advance(1000);
    await queue.claim({ workerId: 'fresh', names: ['audience.import'], limit: 1, leaseMs: 1000 });
    const held = await queue.get(job.id);
    const stale = { id: job.id, attempts: 1, workerId: 'slow' };

    clock.advance(500);
    expect(await testDb.db.transaction().execute((trx) => queue.renewLease(stale, 60_000, { executor: trx }))).toBe(false);
    expect(await queue.get(job.id)).toMatchObject({ lockedBy: 'fresh', attempts: 2, lockedUntil: held!.lockedUntil });
    const current = { id: job.id, attempts: 2, workerId: 'fresh' };
    expect(await testDb.db.transaction().execute((trx) => queue.renewLease(current, 60_000, { executor: trx }))).toBe(true);
    expect((await queue.get(job.id))?.lockedUntil).toBe(clock.now() + 60_000);
  });
});
