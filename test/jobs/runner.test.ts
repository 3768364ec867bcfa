import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { DEFAULT_LEASE_MS, JobRunner, type JobRunnerOptions, type RunnerLogger } from '../../src/jobs/runner.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';
import { deferred, waitFor } from '../helpers/wait.js';

interface TestJobs {
  work: { n: number };
  other: { label: string };
}

describe.each(TEST_DIALECTS)('job runner on %s', (dialect) => {
  let testDb: TestDb;
  let clock: ManualClock;
  let queue: JobQueue<TestJobs>;
  let logs: string[];
  const runners: JobRunner<TestJobs>[] = [];

  const logger: RunnerLogger = {
    warn: (_details, message) => logs.push(message),
    error: (_details, message) => logs.push(message),
  };

  function makeRunner(options: Partial<JobRunnerOptions<TestJobs>> = {}): JobRunner<TestJobs> {
    const runner = new JobRunner<TestJobs>({ queue, clock, logger, pollIntervalMs: 5, ...options });
    runners.push(runner);
    return runner;
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
    queue = new JobQueue<TestJobs>({ db: testDb, clock });
    logs = [];
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMs: 1000 })));
  });

  it('retries a failing job with doubling delays and marks it done when the third attempt succeeds', async () => {
    const attempts: number[] = [];
    const runner = makeRunner().register(
      'work',
      async (payload, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error(`boom ${ctx.attempt} for ${payload.n}`);
        await Promise.resolve();
      },
      { maxAttempts: 5, backoffMs: 1000 },
    );
    const { job } = await queue.enqueue('work', { n: 7 });

    expect(await runner.runDue()).toBe(1);
    expect(await queue.get(job.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      runAt: clock.now() + 1000,
      lastError: 'boom 1 for 7',
      lockedBy: null,
    });

    clock.advance(999);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(await queue.get(job.id)).toMatchObject({ status: 'queued', attempts: 2, runAt: clock.now() + 2000 });

    clock.advance(2000);
    expect(await runner.runDue()).toBe(1);
    expect(await queue.get(job.id)).toMatchObject({ status: 'done', attempts: 3, finishedAt: clock.now() });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('does not run a job scheduled in the future until the clock reaches its time', async () => {
    const ran: number[] = [];
    const runner = makeRunner().register('work', async (payload) => {
      ran.push(payload.n);
      await Promise.resolve();
    });
    const later = await queue.enqueue('work', { n: 1 }, { runAt: clock.now() + 60_000 });

    expect(await runner.runDue()).toBe(0);
    clock.advance(59_999);
    expect(await runner.runDue()).toBe(0);
    expect(await queue.get(later.job.id)).toMatchObject({ status: 'queued', attempts: 0 });

    runner.start();
    // A due job enqueued after the future one: once it is done, the runner has looked
    // at the queue while the future job existed and passed over it.
    const now = await queue.enqueue('work', { n: 2 });
    await waitFor(async () => (await queue.get(now.job.id))?.status === 'done', { what: 'the due job' });
    expect(ran).toEqual([2]);

    clock.advance(1);
    await waitFor(async () => (await queue.get(later.job.id))?.status === 'done', { what: 'the scheduled job' });
    expect(ran).toEqual([2, 1]);
  });

  it('fails a job for good once its attempts are spent, keeping the last error', async () => {
    let calls = 0;
    const runner = makeRunner().register(
      'work',
      async () => {
        calls += 1;
        await Promise.resolve();
        throw new Error(`provider refused (call ${calls})`);
      },
      { maxAttempts: 3, backoffMs: 0, maxBackoffMs: 0 },
    );
    const { job } = await queue.enqueue('work', { n: 1 });

    expect(await runner.runDue()).toBe(3);
    expect(calls).toBe(3);
    expect(await queue.get(job.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'provider refused (call 3)',
      lockedBy: null,
      lockedUntil: null,
      finishedAt: clock.now(),
    });
    expect(await queue.countByState()).toEqual({ queued: 0, running: 0, done: 0, failed: 1 });
  });

  it('never runs more jobs at once than its concurrency', async () => {
    let current = 0;
    let highest = 0;
    const runner = makeRunner({ concurrency: 3 }).register('work', async () => {
      current += 1;
      highest = Math.max(highest, current);
      await new Promise((resolve) => setTimeout(resolve, 2));
      current -= 1;
    });
    for (let n = 0; n < 12; n++) await queue.enqueue('work', { n });

    runner.start();
    await waitFor(async () => (await queue.countByState()).done === 12, { what: '12 jobs done' });
    expect(highest).toBe(3);
  });

  it('runs a job with slots of its own that wide while the other jobs keep the shared slots', async () => {
    const gate = deferred();
    let current = 0;
    let highest = 0;
    const runner = makeRunner({ concurrency: 1 })
      .register(
        'work',
        async () => {
          current += 1;
          highest = Math.max(highest, current);
          await gate.promise;
          current -= 1;
        },
        { concurrency: 5 },
      )
      .register('other', () => Promise.resolve());
    for (let n = 0; n < 12; n++) await queue.enqueue('work', { n });
    const other = await queue.enqueue('other', { label: 'x' });

    runner.start();
    await waitFor(async () => current === 5 && (await queue.get(other.job.id))?.status === 'done', {
      what: 'five of the job running and the other job done beside them',
    });
    gate.resolve();
    await waitFor(async () => (await queue.countByState()).done === 13, { what: 'every job done' });
    expect(highest).toBe(5);
  });

  it('runs only the jobs it has handlers for', async () => {
    const runner = makeRunner().register('work', () => Promise.resolve());
    const other = await queue.enqueue('other', { label: 'x' });
    const work = await queue.enqueue('work', { n: 1 });
    expect(await runner.runDue()).toBe(1);
    expect((await queue.get(work.job.id))?.status).toBe('done');
    expect((await queue.get(other.job.id))?.status).toBe('queued');
  });

  it('is woken at once by a job enqueued through its queue', async () => {
    const runner = makeRunner({ pollIntervalMs: 600_000 }).register('work', () => Promise.resolve());
    runner.start();
    const { job } = await queue.enqueue('work', { n: 1 });
    // The idle poll is ten minutes away, so only the wake-up can run the job in time.
    await waitFor(async () => (await queue.get(job.id))?.status === 'done', { timeoutMs: 5000, what: 'the job' });
  });

  it('renews the lease of a long job so that no other worker takes it over', async () => {
    const gate = deferred();
    const runner = makeRunner({ leaseMs: 1000, heartbeatMs: 5 }).register('work', () => gate.promise);
    const { job } = await queue.enqueue('work', { n: 1 });
    runner.start();
    await waitFor(async () => (await queue.get(job.id))?.status === 'running', { what: 'the job to start' });

    for (let i = 0; i < 3; i++) {
      clock.advance(900);
      await waitFor(async () => (await queue.get(job.id))?.lockedUntil === clock.now() + 1000, {
        what: 'a renewed lease',
      });
    }
    // 2.7 s after the claim, a lease that was never renewed would have expired.
    expect(await queue.claim({ workerId: 'other', names: ['work'], limit: 1, leaseMs: 1000 })).toEqual([]);

    gate.resolve();
    await waitFor(async () => (await queue.get(job.id))?.status === 'done', { what: 'the job to finish' });
    expect((await queue.get(job.id))?.attempts).toBe(1);
  });

  it('holds a claim for a short default lease, renewed four times per lease', () => {
    const runner = makeRunner();
    expect(runner.leaseMs).toBe(DEFAULT_LEASE_MS);
    expect(DEFAULT_LEASE_MS).toBeLessThanOrEqual(15_000);
    expect(runner.heartbeatMs).toBe(DEFAULT_LEASE_MS / 4);
    expect(makeRunner({ leaseMs: 4000 }).heartbeatMs).toBe(1000);
  });

  it('never lets another worker take a healthy job that runs for many leases while its heartbeat runs', async () => {
    const gate = deferred();
    const runner = makeRunner({ heartbeatMs: 5 }).register('work', () => gate.promise);
    const { job } = await queue.enqueue('work', { n: 1 });
    runner.start();
    await waitFor(async () => (await queue.get(job.id))?.status === 'running', { what: 'the job to start' });

    // Ten leases long, a third of a lease a step, each step renewed by the beat before the next.
    // A step of a third, not of a whole lease: the beat runs every 5 ms on the test's clock,
    // and on a loaded PostgreSQL a beat's UPDATE of the step before can land after a newer
    // one (each beat is its own statement on the pool); that stale lease still ends two
    // thirds of a lease after the step it was read at, past the next step.
    for (let i = 0; i < 30; i++) {
      clock.advance(Math.floor(DEFAULT_LEASE_MS / 3));
      await waitFor(async () => (await queue.get(job.id))?.lockedUntil === clock.now() + DEFAULT_LEASE_MS, {
        what: 'a renewed lease',
      });
      expect(await queue.claim({ workerId: 'other', names: ['work'], limit: 1, leaseMs: DEFAULT_LEASE_MS })).toEqual([]);
    }

    gate.resolve();
    await waitFor(async () => (await queue.get(job.id))?.status === 'done', { what: 'the job to finish' });
    expect(await queue.get(job.id)).toMatchObject({ attempts: 1, lastError: null });
  });

  it('leaves the outcome to the worker that took over its expired lease', async () => {
    const gate = deferred();
    let started = false;
    // One slot, taken by the stalled job: with free slots, the runner's own 5 ms poll could
    // claim the expired job before the other worker does (seen under a loaded machine).
    const runner = makeRunner({ leaseMs: 1000, heartbeatMs: 600_000, concurrency: 1 }).register('work', async () => {
      started = true;
      await gate.promise;
    });
    const { job } = await queue.enqueue('work', { n: 1 });
    runner.start();
    await waitFor(() => started, { what: 'the job to start' });

    // The worker stalls past its lease (no heartbeat comes in time) and another claims the job.
    clock.advance(1000);
    const [taken] = await queue.claim({ workerId: 'other', names: ['work'], limit: 1, leaseMs: 60_000 });
    expect(taken?.id).toBe(job.id);

    gate.resolve();
    await waitFor(() => logs.some((m) => m.includes('not recorded')), { what: 'the lost-claim warning' });
    expect(await queue.get(job.id)).toMatchObject({ status: 'running', lockedBy: 'other', attempts: 2 });
  });

  it('aborts the handler once a heartbeat finds its lease taken over', async () => {
    const gate = deferred();
    let signal: AbortSignal | undefined;
    const runner = makeRunner({ leaseMs: 1000, heartbeatMs: 5 }).register('work', async (_payload, ctx) => {
      signal = ctx.signal;
      await gate.promise;
    });
    await queue.enqueue('work', { n: 1 });
    runner.start();
    await waitFor(() => signal !== undefined, { what: 'the job to start' });

    // Jump past the lease until a claim lands before the next heartbeat renews it.
    await waitFor(
      async () => {
        clock.advance(1000);
        return (await queue.claim({ workerId: 'other', names: ['work'], limit: 1, leaseMs: 60_000 })).length === 1;
      },
      { what: 'another worker to take the job' },
    );
    await waitFor(() => signal?.aborted === true, { what: 'the handler signal to abort' });
    gate.resolve();
  });

  it('stops claiming at once and resolves stop() when its running job has finished', async () => {
    const gate = deferred();
    const started: number[] = [];
    const runner = makeRunner().register('work', async (payload) => {
      started.push(payload.n);
      await gate.promise;
    });
    const first = await queue.enqueue('work', { n: 1 });
    runner.start();
    await waitFor(() => started.length === 1, { what: 'the first job to start' });

    let stopped = false;
    const stopping = runner.stop({ timeoutMs: 30_000 }).then((result) => {
      stopped = true;
      return result;
    });
    const second = await queue.enqueue('work', { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);

    gate.resolve();
    expect(await stopping).toEqual({ unfinished: 0 });
    expect((await queue.get(first.job.id))?.status).toBe('done');
    expect((await queue.get(second.job.id))?.status).toBe('queued');
    expect(started).toEqual([1]);
  });

  it('returns from stop() after its timeout, aborting the handler and leaving the job running', async () => {
    const gate = deferred();
    let signal: AbortSignal | undefined;
    const runner = makeRunner().register('work', async (_payload, ctx) => {
      signal = ctx.signal;
      await gate.promise;
    });
    const { job } = await queue.enqueue('work', { n: 1 });
    runner.start();
    await waitFor(() => signal !== undefined, { what: 'the job to start' });

    expect(await runner.stop({ timeoutMs: 20 })).toEqual({ unfinished: 1 });
    expect(signal?.aborted).toBe(true);
    expect((await queue.get(job.id))?.status).toBe('running');
    gate.resolve();
  });

  it('refuses a second handler for one job name and invalid options', () => {
    const runner = makeRunner().register('work', () => Promise.resolve());
    expect(() => runner.register('work', () => Promise.resolve())).toThrow(/already registered/);
    expect(() => runner.register('other', () => Promise.resolve(), { maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => runner.register('other', () => Promise.resolve(), { backoffMs: 10, maxBackoffMs: 5 })).toThrow(/maxBackoffMs/);
  });

  it('infers payload types from the job name (checked by tsc)', () => {
    const runner = makeRunner();
    runner.register('other', (payload) => {
      expectTypeOf(payload).toEqualTypeOf<{ label: string }>();
      return Promise.resolve();
    });
    expectTypeOf(queue.enqueue.bind(queue)).toBeCallableWith('work', { n: 1 });
    // @ts-expect-error: payload of the wrong shape
    expectTypeOf(queue.enqueue.bind(queue)).toBeCallableWith('work', { n: 'one' });
    // @ts-expect-error: not a job of the map
    expectTypeOf(runner.register.bind(runner)).toBeCallableWith('unknown', () => Promise.resolve());
  });
});
