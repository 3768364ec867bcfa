import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import type { JobRegistration } from '../../../src/jobs/job-handlers.js';
import type { JobMap } from '../../../src/jobs/job-map.js';
import { JobRunner, type RunnerLogger } from '../../../src/jobs/runner.js';
import { SendMarks } from '../../../src/modules/messaging/send-marks.js';
import { createServices, type Services } from '../../../src/services.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { startSmtpPeer, type SmtpPeer } from '../../helpers/smtp-peer.js';
import { waitFor } from '../../helpers/wait.js';
import { expectOk, TEST_SECRET_KEY } from './messaging-setup.js';

/**
 * Issue 39: a message is sent once even when the job that sends it loses its lease while
 * the send is in flight (a starved worker whose heartbeats do not get through, or a clock
 * that jumps: the browser tests move the server's clock on while a campaign sends) and
 * another runner on the same database takes the job over. Two runners, each with its own
 * connection and services (two worker processes), the shipped SMTP vendor and a real
 * local SMTP server that takes the message at once but answers 250 only later.
 */

const LEASE_MS = 2_000;
const ACCEPT_DELAY_MS = 700;
const quiet: RunnerLogger = { warn: () => undefined, error: () => undefined };

describe.each(TEST_DIALECTS)('sending a delivery once on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let shopId: string;
  let secret: string;
  let other: { db: DbHandle; services: Services };

  beforeAll(async () => {
    smtp = await startSmtpPeer({ acceptDelayMs: ACCEPT_DELAY_MS });
    t = await createTestApp({
      dialect,
      env: {
        PATRON_SECRET_KEY: TEST_SECRET_KEY,
        PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1',
        PATRON_JOB_LEASE_SECONDS: String(LEASE_MS / 1000),
        PATRON_DELIVERY_CONCURRENCY: '8',
      },
    });
    ({ shopId, secret } = await createShopFixture(t.app.services));
    await expectOk(admin('PUT', '/channels/email', { smtp_url: `smtp://127.0.0.1:${smtp.port}`, from: 'Shop <shop@example.org>' }));
    await expectOk(admin('PUT', '/mailings/transactional/hello', { email: { subject: 'Hi {{ n }}', html: '<p>{{ n }}</p>' } }));
    // The second "process": its own connection and services on the same database and clock.
    const db = createDb(t.db.options);
    other = { db, services: createServices({ config: t.config, db, clock: t.clock }) };
    await other.services.webhooks.topics.warmUp();
  });

  afterAll(async () => {
    await other.db.destroy();
    await t.close();
    await smtp.close();
  });

  // Each test starts with no job of another left over.
  beforeEach(async () => {
    await t.db.db.deleteFrom('jobs').execute();
    smtp.received.length = 0;
    smtp.acceptDelayMs = ACCEPT_DELAY_MS;
  });

  const runners: JobRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMs: 1000 })));
  });

  function admin(method: 'GET' | 'PUT' | 'POST', path: string, payload?: object) {
    return t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  }

  /**
   * A runner over `services` whose heartbeat never beats within a test: what a worker whose
   * event loop is starved looks like from the database.
   */
  function runnerOf(services: Services, workerId: string): JobRunner {
    const runner = new JobRunner({
      queue: services.jobs,
      clock: t.clock,
      workerId,
      leaseMs: LEASE_MS,
      heartbeatMs: 3_600_000,
      logger: quiet,
    });
    runner.register('messaging.deliver', services.jobHandlers['messaging.deliver'].handler);
    runners.push(runner);
    return runner;
  }

  /** A started runner of every job, as a worker process runs them, with its heartbeat. */
  function workerOf(services: Services, workerId: string): JobRunner {
    const runner = new JobRunner({ queue: services.jobs, clock: t.clock, workerId, leaseMs: LEASE_MS, pollIntervalMs: 20, logger: quiet });
    const handlers = Object.entries(services.jobHandlers) as [keyof JobMap, JobRegistration<keyof JobMap>][];
    for (const [name, { handler, options }] of handlers) runner.register(name, handler, options);
    runners.push(runner);
    return runner;
  }

  async function transact(n: string): Promise<string> {
    const r = await t.app.inject({
      method: 'POST',
      url: '/transact',
      payload: { shop_id: shopId, shop_secret: secret, code: 'hello', email: `reader-${n}@example.org`, variables: { n } },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ payload: { code: string } }>().payload.code;
  }

  async function deliveryOf(code: string) {
    return t.db.db
      .selectFrom('messaging_deliveries')
      .select(['status', 'attempts', 'error'])
      .where('shop_id', '=', shopId)
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
  }

  async function unfinishedJobs(): Promise<number> {
    const row = await t.db.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('name', '=', 'messaging.deliver')
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  function messageIds(): string[] {
    return smtp.received.map((m) => /^Message-ID: (.*)$/im.exec(m.raw.toString('utf8'))?.[1]?.trim() ?? '?');
  }

  it('is not sent again by the runner that takes over a job whose lease ran out while the server had not answered yet', async () => {
    const code = await transact('lease-lost-in-flight');
    const a = runnerOf(t.app.services, 'a');
    const b = runnerOf(other.services, 'b');
    const first = a.runDue();
    // The server has the message; its 250 is on the way. A's lease runs out meanwhile.
    await waitFor(() => smtp.received.length === 1, { what: 'the first send' });
    t.clock.advance(LEASE_MS + 1);
    await b.runDue();
    await first;
    // B waited for A's outcome rather than sending; nothing is left that sends it later.
    t.clock.advance(3_600_000);
    await b.runDue();
    await a.runDue();

    expect(messageIds()).toEqual([`<${code}.0@example.org>`]);
    expect(await deliveryOf(code)).toEqual({ status: 'sent', attempts: 1, error: null });
    expect(await unfinishedJobs()).toBe(0);
  });

  it('is not taken over while its sender keeps beating, however long the server takes to answer', async () => {
    const code = await transact('slow-but-alive');
    // The 250 comes after two leases: A's job is taken over, but its send mark beats on.
    smtp.acceptDelayMs = 2 * LEASE_MS + 500;
    const a = runnerOf(t.app.services, 'a');
    const b = runnerOf(other.services, 'b');
    const first = a.runDue();
    await waitFor(() => smtp.received.length === 1, { what: 'the first send' });
    t.clock.advance(LEASE_MS + 1);
    await b.runDue();
    await first;

    expect(messageIds()).toEqual([`<${code}.0@example.org>`]);
    expect(await deliveryOf(code)).toEqual({ status: 'sent', attempts: 1, error: null });
    expect(await unfinishedJobs()).toBe(0);
  });

  it('is sent again, once, after its sender died between the send and its record (the crash window), with the same Message-ID', async () => {
    const code = await transact('sender-killed');
    // A "process" of its own, killed (its connection gone) while the server has the message but has not answered.
    const db = createDb(t.db.options);
    const doomed = createServices({ config: t.config, db, clock: t.clock });
    const first = runnerOf(doomed, 'doomed').runDue();
    await waitFor(() => smtp.received.length === 1, { what: 'the first send' });
    await db.destroy();
    // Its runner then fails to record anything, and to claim more.
    await first.catch(() => undefined);
    t.clock.advance(LEASE_MS + 1);
    const b = runnerOf(other.services, 'b');
    const startedAt = performance.now();
    await b.runDue();

    // B waited for a whole lease of silence before it took the dead sender's mark over.
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(LEASE_MS);
    expect(messageIds()).toEqual([`<${code}.0@example.org>`, `<${code}.0@example.org>`]);
    expect(await deliveryOf(code)).toEqual({ status: 'sent', attempts: 1, error: null });
    expect(await unfinishedJobs()).toBe(0);
  });

  it('is not marked for sending by a run whose job another claim took over, and is marked once', async () => {
    const code = await transact('fenced');
    const jobs = t.app.services.jobs;
    const [stale] = await jobs.claim({ workerId: 'slow', names: ['messaging.deliver'], limit: 1, leaseMs: LEASE_MS });
    t.clock.advance(LEASE_MS + 1);
    const [fresh] = await jobs.claim({ workerId: 'fresh', names: ['messaging.deliver'], limit: 1, leaseMs: LEASE_MS });
    expect(fresh).toMatchObject({ id: stale!.id, attempts: 2 });
    const claimOf = (job: typeof stale) => ({ id: job!.id, attempts: job!.attempts, workerId: job!.lockedBy! });
    const marks = new SendMarks({ db: t.db, jobs, leaseMs: LEASE_MS });
    const key = { shopId, code, seq: 0, attempts: 0 };
    const mark = () =>
      t.db.db
        .selectFrom('messaging_deliveries')
        .select(['send_token'])
        .where('shop_id', '=', shopId)
        .where('code', '=', code)
        .executeTakeFirstOrThrow();

    expect(await marks.take(key, null, claimOf(stale))).toBeUndefined();
    expect(await mark()).toEqual({ send_token: null });
    const token = await marks.take(key, null, claimOf(fresh));
    expect(token).toBe(`fresh#${fresh!.id}.2`);
    expect(await mark()).toEqual({ send_token: token });
    // Marked already: a second run of the same claim (or any other) does not mark it again.
    expect(await marks.take(key, null, claimOf(fresh))).toBeUndefined();
    // Taking the mark renewed the job's lease.
    t.clock.advance(LEASE_MS - 1);
    expect(await jobs.claim({ workerId: 'third', names: ['messaging.deliver'], limit: 1, leaseMs: LEASE_MS })).toEqual([]);
  });

  it('is not sent again when the server took it but its answer did not come in time: failed, its outcome unknown', async () => {
    const channel = { smtp_url: `smtp://127.0.0.1:${smtp.port}`, from: 'Shop <shop@example.org>' };
    await expectOk(admin('PUT', '/channels/email', { ...channel, timeout_ms: 500 }));
    try {
      const code = await transact('answer-lost');
      smtp.acceptDelayMs = 1_500;
      await runnerOf(t.app.services, 'a').runDue();
      t.clock.advance(3_600_000);
      await runnerOf(t.app.services, 'a2').runDue();

      expect(messageIds()).toEqual([`<${code}.0@example.org>`]);
      expect(await deliveryOf(code)).toEqual({
        status: 'failed',
        attempts: 1,
        error:
          'The SMTP server did not answer in time after it was sent the whole message: it may have taken it. Not sent again, so that it is not sent twice.',
      });
      const tries = await t.db.db
        .selectFrom('messaging_delivery_attempts')
        .select(['attempt', 'outcome'])
        .where('shop_id', '=', shopId)
        .where('code', '=', code)
        .execute();
      expect(tries).toEqual([{ attempt: 1, outcome: 'unknown' }]);
      expect(await unfinishedJobs()).toBe(0);
    } finally {
      await expectOk(admin('PUT', '/channels/email', channel));
    }
  });

  it('reaches each member of a campaign once when two workers send it and the clock jumps ahead mid-send', async () => {
    const members = 80;
    const { id: segment } = await expectOk(admin('POST', '/segments', { name: 'Jumpers' }), 201);
    const r = await t.app.inject({
      method: 'POST',
      url: '/import/audience',
      payload: {
        shop_id: shopId,
        shop_secret: secret,
        segment_id: segment,
        audience: Array.from({ length: members }, (_, i) => ({ email: `member${i}@example.org` })),
      },
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
    const a = workerOf(t.app.services, 'a');
    const b = workerOf(other.services, 'b');
    await a.runDue();
    expect((await expectOk(admin('GET', `/segments/${segment}`))).size).toBe(members);
    const created = await expectOk(
      admin('POST', '/mailings/bulk', { name: 'Jumps', segment_ids: [segment], email: { subject: 'Sale', html: '<p>Sale</p>' } }),
      201,
    );
    a.start();
    b.start();
    // The browser tests' chain spec moves the server's clock on by minutes while a campaign
    // may be sending: every lease then looks expired at once.
    for (let jump = 1; jump < 8; jump += 1) {
      await waitFor(() => smtp.received.length >= (jump * members) / 8, { what: `sends before jump ${jump}` });
      t.clock.advance(6 * 60_000);
    }
    await waitFor(
      async () => (await expectOk(admin('GET', `/mailings/bulk/${created.id}`))).status === 'done' && (await unfinishedJobs()) === 0,
      {
        timeoutMs: 60_000,
        what: 'the campaign to finish',
      },
    );

    const recipients = smtp.received.flatMap((m) => m.rcptTo).sort();
    expect(recipients).toEqual(Array.from({ length: members }, (_, i) => `member${i}@example.org`).sort());
  }, 90_000);
});
