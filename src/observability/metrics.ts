import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SqliteStorage } from '../db/create-db.js';
import type { GroupCommitStats } from '../db/group-commit.js';
import type { ConnectionStats } from '../http/connection-limits.js';
import { LIMIT_KINDS, type RateLimitStats } from '../http/limits/rate-limiter.js';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** Anything that can count the job queue by state (the JobQueue does). */
export interface JobDepthSource {
  countByState(): Promise<Record<JobState, number>>;
}

/** Anything that reports how events were group-committed (the TrackingService does). */
export interface EventCommitSource {
  commitStats(): GroupCommitStats;
}

/** The connection that hears admin changes (modules/system/settings-notifications.ts); undefined stats: not started yet. */
export interface SettingsListenerSource {
  stats(): { readonly connected: boolean; readonly connections: number; readonly notifications: number } | undefined;
}

/** What the abuse limits and the connection bounds of this process refused (docs/limits.md). */
export interface LimitStatsSource {
  readonly rateLimits: { stats(): RateLimitStats };
  readonly connections: Readonly<ConnectionStats>;
}

/** The route label of requests that matched no route, so that raw URLs never become labels. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface HttpMetrics {
  readonly registry: Registry;
  /** Records one finished request; `route` is the route pattern or UNMATCHED_ROUTE. */
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** Stops listening to the database's timings (the app closes; the database may outlive it). */
  close(): void;
}

/**
 * One Registry per app rather than prom-client's global one, so that several apps can
 * live in one process (tests build one per file) without "already registered" errors.
 */
export function createMetrics(
  options: {
    jobs?: JobDepthSource;
    events?: EventCommitSource;
    limits?: LimitStatsSource;
    settings?: SettingsListenerSource;
    storage?: SqliteStorage | undefined;
  } = {},
): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const jobs = options.jobs;
  if (jobs) {
    new Gauge({
      name: 'patron_jobs',
      help: 'Jobs in the durable queue, by state (counted at scrape time).',
      labelNames: ['state'] as const,
      registers: [registry],
      // Counted on scrape rather than tracked in memory: the queue is shared by every
      // process on the database, and only the database knows its depth.
      async collect() {
        // With the database away, report no samples rather than stale ones or a failed
        // scrape: the process metrics still matter most then, and /ready tells the rest.
        this.reset();
        const counts = await jobs.countByState().catch(() => undefined);
        for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
      },
    });
  }

  if (options.events) registerEventCommitMetrics(registry, options.events);
  if (options.limits) registerLimitMetrics(registry, options.limits);
  if (options.settings) registerSettingsListenerMetrics(registry, options.settings);
  const stopStorage = options.storage ? registerStorageMetrics(registry, options.storage) : () => undefined;

  return {
    registry,
    observeRequest(labels, seconds) {
      requests.inc({ method: labels.method, route: labels.route, status: String(labels.status) });
      duration.observe({ method: labels.method, route: labels.route }, seconds);
    },
    close: stopStorage,
  };
}

/** Waits of the SQLite file: fine at the bottom, where a healthy disk answers, and up to the stalls that make a p99. */
const STORAGE_WAIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const CHECKPOINT_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/**
 * SQLite (db/sqlite/storage-timings.ts): the fsyncs of the log, the waits for the write lock and
 * the checkpoints, observed as they happen on this process's connection, and the log's
 * length read at scrape time. A p99 that rose with the tail of `patron_sqlite_wal_sync_seconds`
 * is the disk; with `patron_sqlite_write_lock_wait_seconds`, another writer of the file
 * (the job thread, a `patron worker`, or a checkpoint holding writers back:
 * `patron_sqlite_checkpoint_seconds{mode="full"|"restart"}`). Returns the unsubscribe.
 */
function registerStorageMetrics(registry: Registry, storage: SqliteStorage): () => void {
  const walSync = new Histogram({
    name: 'patron_sqlite_wal_sync_seconds',
    help: 'fsyncs of the SQLite write-ahead log that acknowledged writes waited for.',
    buckets: STORAGE_WAIT_BUCKETS,
    registers: [registry],
  });
  const lockWait = new Histogram({
    name: 'patron_sqlite_write_lock_wait_seconds',
    help: 'Time a write waited for the SQLite write lock (held by another thread or process of the file).',
    buckets: STORAGE_WAIT_BUCKETS,
    registers: [registry],
  });
  const checkpoint = new Histogram({
    name: 'patron_sqlite_checkpoint_seconds',
    help: 'SQLite checkpoints by mode; full and restart hold writers back while they run.',
    labelNames: ['mode'] as const,
    buckets: CHECKPOINT_BUCKETS,
    registers: [registry],
  });
  const gauges = [
    ['patron_sqlite_wal_bytes', 'Length of the SQLite write-ahead log at the last checkpoint (since it last started over).', 'logBytes'],
    [
      'patron_sqlite_checkpoint_backlog_bytes',
      'Bytes of the write-ahead log the last checkpoint left uncopied because readers still needed them.',
      'backlogBytes',
    ],
  ] as const;
  for (const [name, help, field] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        // No samples on a connection that runs no checkpoints.
        const last = storage.checkpoints();
        if (last) this.set(last[field]);
      },
    });
  }
  return storage.timings.subscribe({
    wait(kind, seconds) {
      (kind === 'wal_sync' ? walSync : lockWait).observe(seconds);
    },
    checkpoint(mode, seconds) {
      checkpoint.observe({ mode }, seconds);
    },
  });
}

/**
 * The event group committer of this process (db/group-commit.ts), read at scrape time:
 * events per commit (`rate(patron_events_committed_total) / rate(patron_event_commits_total)`)
 * is the first thing to look at when /push slows down, and a growing queue means the
 * database cannot keep up with the events arriving.
 */
function registerEventCommitMetrics(registry: Registry, source: EventCommitSource): void {
  const totals = [
    ['patron_event_commits_total', 'Transactions committed by the event group committer.', 'commits'],
    ['patron_events_committed_total', 'Events committed (a 200 was or will be sent for each).', 'committed'],
    ['patron_events_failed_total', 'Events whose own transaction failed (their requests got an error).', 'failed'],
    ['patron_event_batches_split_total', 'Batches whose transaction failed and whose events were retried one by one.', 'splitBatches'],
  ] as const;
  registerScrapedTotals(registry, totals, () => source.commitStats());
  new Gauge({
    name: 'patron_events_queued',
    help: 'Events waiting for the next commit of this process.',
    registers: [registry],
    collect() {
      this.set(source.commitStats().queued);
    },
  });
}

/**
 * Read at scrape time from the limiter and the connection counters of this process. A
 * rise in `patron_rate_limited_total` names the limit that refused; `..._tracked_keys`
 * shows the memory the limits hold (bounded per limit).
 */
function registerLimitMetrics(registry: Registry, source: LimitStatsSource): void {
  new Counter({
    name: 'patron_rate_limited_total',
    help: 'Requests refused with 429, by limit.',
    labelNames: ['limit'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const limited = source.rateLimits.stats().limited;
      for (const limit of LIMIT_KINDS) this.inc({ limit }, limited[limit]);
    },
  });
  new Gauge({
    name: 'patron_rate_limit_tracked_keys',
    help: 'Client addresses or shops each limit holds in memory now.',
    labelNames: ['limit'] as const,
    registers: [registry],
    collect() {
      const tracked = source.rateLimits.stats().tracked;
      for (const limit of LIMIT_KINDS) this.set({ limit }, tracked[limit]);
    },
  });
  const totals = [
    ['patron_http_connections_refused_total', 'Connections closed at once because PATRON_MAX_CONNECTIONS were open.', 'refusedConnections'],
    [
      'patron_http_body_timeouts_total',
      'Requests whose body stopped arriving for longer than PATRON_BODY_IDLE_TIMEOUT_MS (408, connection closed).',
      'bodyTimeouts',
    ],
  ] as const;
  registerScrapedTotals(registry, totals, () => source.connections);
}

/**
 * The settings listener of this process (PostgreSQL only; 0 until it starts):
 * `patron_settings_listener_connected` at 0 means the caches of admin settings fall back
 * on their expiry (docs/settings-caches.md); each connection counted dropped them all.
 */
function registerSettingsListenerMetrics(registry: Registry, source: SettingsListenerSource): void {
  new Gauge({
    name: 'patron_settings_listener_connected',
    help: 'Whether this process hears the admin changes of the others as they commit (1) or not now (0).',
    registers: [registry],
    collect() {
      this.reset();
      const stats = source.stats();
      if (stats) this.set(stats.connected ? 1 : 0);
    },
  });
  const totals = [
    [
      'patron_settings_listener_connections_total',
      'Connections the settings listener made (each dropped every cache of admin settings).',
      'connections',
    ],
    ['patron_settings_changes_heard_total', "Admin changes heard as notifications (this process's own included).", 'notifications'],
  ] as const;
  for (const [name, help, field] of totals) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        const stats = source.stats();
        if (stats) this.inc(stats[field]);
      },
    });
  }
}

/**
 * Counters whose totals a source keeps itself (`[name, help, field of the source's stats]`),
 * copied into the registry at scrape time.
 */
function registerScrapedTotals<F extends string>(
  registry: Registry,
  totals: ReadonlyArray<readonly [name: string, help: string, field: F]>,
  read: () => Readonly<Record<F, number>>,
): void {
  for (const [name, help, field] of totals) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read()[field]);
      },
    });
  }
}
