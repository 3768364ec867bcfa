import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/jobs/queue.js';
import { StorageTimings } from '../../src/db/sqlite/storage-timings.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';

async function scrape(t: TestApp): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The value of one sample line, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the Prometheus text format with the process metrics', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(response.body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  });

  it('counts requests by method, route and status, and times them', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: '/health' });
    const text = await scrape(t);
    expect(sample(text, 'http_requests_total{method="GET",route="/health",status="200"}')).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/health"}')).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/health"}')).toBe(2);
  });

  it('labels a request with its route pattern, never with the ids in its URL', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const found = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}`, headers: t.adminHeaders });
    expect(found.statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${'f'.repeat(30)}`, headers: t.adminHeaders });
    expect(missing.statusCode).toBe(404);
    const text = await scrape(t);
    expect(sample(text, 'http_requests_total{method="GET",route="/admin/v1/shops/:shop_id",status="200"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="/admin/v1/shops/:shop_id",status="404"}')).toBe(1);
    expect(text).not.toContain(shopId);
  });

  it('labels requests that match no route as unmatched', async () => {
    await t.app.inject({ method: 'GET', url: '/wp-login.php?probe=1' });
    await t.app.inject({ method: 'GET', url: '/no/such/page' });
    const text = await scrape(t);
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(2);
    expect(text).not.toContain('wp-login');
    expect(text).not.toContain('/no/such/page');
  });

  it('reports the job queue depth by state, counted when scraped', async () => {
    const queue = new JobQueue<{ 'test.metrics': { n: number } }>({ db: t.db, clock: t.clock });
    await queue.enqueue('test.metrics', { n: 1 });
    await queue.enqueue('test.metrics', { n: 2 });
    await queue.enqueue('test.metrics', { n: 3 });
    await queue.claim({ workerId: 'metrics-test', names: ['test.metrics'], limit: 1, leaseMs: 60_000 });
    const text = await scrape(t);
    expect(sample(text, 'patron_jobs{state="queued"}')).toBe(2);
    expect(sample(text, 'patron_jobs{state="running"}')).toBe(1);
    expect(sample(text, 'patron_jobs{state="done"}')).toBe(0);
    expect(sample(text, 'patron_jobs{state="failed"}')).toBe(0);
  });

  it('reports how events were group-committed: commits, events committed and failed, the queue', async () => {
    const before = await scrape(t);
    expect(sample(before, 'patron_events_queued')).toBe(0);
    const committedBefore = sample(before, 'patron_events_committed_total') ?? Number.NaN;
    const commitsBefore = sample(before, 'patron_event_commits_total') ?? Number.NaN;

    const { shopId } = await createShopFixture(t.app.services);
    const { did } = await t.app.services.tracking.initSession({ shopId });
    const push = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: '/push',
        payload: { shop_id: shopId, did, event: 'view', items: [{ id }] },
      });
    const answers = await Promise.all([push('a'), push('b'), push('c')]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);

    const text = await scrape(t);
    expect(sample(text, 'patron_events_committed_total')).toBe(committedBefore + 3);
    const commits = (sample(text, 'patron_event_commits_total') ?? Number.NaN) - commitsBefore;
    // Three requests in flight at once share commits: at least one, at most one each.
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThanOrEqual(3);
    expect(sample(text, 'patron_events_failed_total')).toBe(0);
    expect(sample(text, 'patron_event_batches_split_total')).toBe(0);
    expect(sample(text, 'patron_events_queued')).toBe(0);
  });

  it('still serves the process metrics, without job samples, while the database is away', async () => {
    const other = await createTestApp();
    try {
      await other.db.destroy();
      const text = await scrape(other);
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).not.toMatch(/^patron_jobs\{/m);
    } finally {
      await other.close();
    }
  });

  it('keeps its own counters per app, so apps in one process do not mix', async () => {
    const other = await createTestApp();
    try {
      await other.app.inject({ method: 'GET', url: '/ready' });
      const mine = await scrape(t);
      const theirs = await scrape(other);
      expect(sample(theirs, 'http_requests_total{method="GET",route="/ready",status="200"}')).toBe(1);
      expect(sample(theirs, 'http_requests_total{method="GET",route="/health",status="200"}')).toBeUndefined();
      expect(sample(mine, 'http_requests_total{method="GET",route="/ready",status="200"}')).toBeUndefined();
    } finally {
      await other.close();
    }
  });
  it('reports what the SQLite file made this process wait for: lock waits, fsyncs of the log, checkpoints', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    await t.db.db.updateTable('shops').set({ name: 'Renamed' }).where('shop_id', '=', shopId).execute();
    await t.db.durable();
    const text = await scrape(t);
    expect(sample(text, 'patron_sqlite_write_lock_wait_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'patron_sqlite_wal_sync_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'patron_sqlite_wal_sync_seconds_bucket{le="+Inf"}')).toBe(sample(text, 'patron_sqlite_wal_sync_seconds_count'));
    expect(text).toMatch(/^# TYPE patron_sqlite_checkpoint_seconds histogram$/m);
  });

  it('stops listening to the database when the app closes', async () => {
    const other = await createTestApp();
    const timings = other.db.storage?.timings;
    expect(timings?.observed).toBe(true);
    await other.app.close();
    expect(timings?.observed).toBe(false);
    await other.close();
  });

  it('puts each storage timing in its histogram and reads the log length when scraped', async () => {
    const timings = new StorageTimings();
    let logBytes = 4096;
    const metrics = createMetrics({
      storage: { timings, checkpoints: () => ({ checkpoints: 1, backlogBytes: 512, fallbacks: 0, logBytes, workerAlive: true }) },
    });
    timings.wait('wal_sync', 0.003);
    timings.wait('write_lock_wait', 0.0001);
    timings.wait('write_lock_wait', 0.03);
    timings.checkpoint('restart', 0.012);
    logBytes = 8192;
    const text = await metrics.registry.metrics();
    expect(sample(text, 'patron_sqlite_wal_sync_seconds_bucket{le="0.0025"}')).toBe(0);
    expect(sample(text, 'patron_sqlite_wal_sync_seconds_bucket{le="0.005"}')).toBe(1);
    expect(sample(text, 'patron_sqlite_write_lock_wait_seconds_bucket{le="0.0005"}')).toBe(1);
    expect(sample(text, 'patron_sqlite_write_lock_wait_seconds_bucket{le="0.025"}')).toBe(1);
    expect(sample(text, 'patron_sqlite_write_lock_wait_seconds_count')).toBe(2);
    expect(sample(text, 'patron_sqlite_checkpoint_seconds_bucket{le="0.01",mode="restart"}')).toBe(0);
    expect(sample(text, 'patron_sqlite_checkpoint_seconds_bucket{le="0.025",mode="restart"}')).toBe(1);
    expect(sample(text, 'patron_sqlite_wal_bytes')).toBe(8192);
    expect(sample(text, 'patron_sqlite_checkpoint_backlog_bytes')).toBe(512);
    metrics.close();
    expect(timings.observed).toBe(false);
  });

  it('has no SQLite series without SQLite storage (PostgreSQL)', async () => {
    const metrics = createMetrics({});
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('patron_sqlite_');
    metrics.close();
  });
});
