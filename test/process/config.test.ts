import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, '/srv/patron');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(loadConfig({}, '/srv/patron')).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dashboardRollups: true,
      dataDir: '/srv/patron/data',
      databaseUrl: undefined,
      databaseListenUrl: undefined,
      adminToken: undefined,
      logLevel: 'info',
      bodyLimit: 10 * 1024 * 1024,
      workerConcurrency: 4,
      deliveryConcurrency: 32,
      jobThreadNice: 0,
      testClockFile: undefined,
      insecureTestPasswordHashing: false,
      shutdownDrainMs: 5_000,
      jobLeaseMs: 10_000,
      importLeaseMs: 10_000,
      feedMaxBytes: 1024 * 1024 * 1024,
      fetchAllowPrivate: false,
      publicUrl: 'http://127.0.0.1:8080',
      productCacheBytes: 64 * 1024 * 1024,
      connections: {
        headersTimeoutMs: 20_000,
        bodyIdleTimeoutMs: 30_000,
        requestTimeoutMs: 30 * 60 * 1000,
        keepAliveTimeoutMs: 72_000,
        maxConnections: 10_000,
      },
      rateLimit: {
        enabled: true,
        addressPerSecond: 20_000,
        shopPerSecond: 50_000,
        devicesPerMinute: 300,
        authFailures: 20,
        authFailureWindowSeconds: 300,
      },
      trustProxy: false,
      messageAttributionMs: 7 * 24 * 60 * 60 * 1000,
      render: { limitMs: 500, budgetMsPerSecond: 500 },
      auditLog: { enabled: true, retentionDays: 365 },
      adminSessions: { idleMs: 12 * 60 * 60 * 1000, absoluteMs: 7 * 24 * 60 * 60 * 1000 },
    });
  });

  it('reads the audit log settings and refuses values out of range', () => {
    expect(loadConfig({ PATRON_AUDIT_LOG: 'off', PATRON_AUDIT_RETENTION_DAYS: '30' }).auditLog).toEqual({
      enabled: false,
      retentionDays: 30,
    });
    expect(() => loadConfig({ PATRON_AUDIT_LOG: 'maybe', PATRON_AUDIT_RETENTION_DAYS: '0' })).toThrow(
      /PATRON_AUDIT_LOG must be on or off[\s\S]*PATRON_AUDIT_RETENTION_DAYS must be an integer from 1 to 36500/,
    );
  });

  it('reads the slow-client bounds and refuses a request timeout shorter than the headers timeout', () => {
    const config = loadConfig({
      PATRON_HEADERS_TIMEOUT_MS: '500',
      PATRON_BODY_IDLE_TIMEOUT_MS: '700',
      PATRON_REQUEST_TIMEOUT_MS: '0',
      PATRON_KEEP_ALIVE_TIMEOUT_MS: '900',
      PATRON_MAX_CONNECTIONS: '3',
    });
    expect(config.connections).toEqual({
      headersTimeoutMs: 500,
      bodyIdleTimeoutMs: 700,
      requestTimeoutMs: 0,
      keepAliveTimeoutMs: 900,
      maxConnections: 3,
    });
    expect(problemsOf({ PATRON_HEADERS_TIMEOUT_MS: '5000', PATRON_REQUEST_TIMEOUT_MS: '1000' })).toEqual([
      'PATRON_REQUEST_TIMEOUT_MS must be 0 or at least PATRON_HEADERS_TIMEOUT_MS',
    ]);
    expect(problemsOf({ PATRON_MAX_CONNECTIONS: '0' })).toEqual([expect.stringMatching(/^PATRON_MAX_CONNECTIONS /)]);
    expect(problemsOf({ PATRON_BODY_IDLE_TIMEOUT_MS: 'soon' })).toEqual([expect.stringMatching(/^PATRON_BODY_IDLE_TIMEOUT_MS /)]);
  });

  it('turns every rate limit off with PATRON_RATE_LIMIT=off and refuses another word', () => {
    expect(loadConfig({ PATRON_RATE_LIMIT: 'off' }).rateLimit.enabled).toBe(false);
    expect(loadConfig({ PATRON_RATE_LIMIT: 'ON' }).rateLimit.enabled).toBe(true);
    expect(problemsOf({ PATRON_RATE_LIMIT: 'sometimes' })).toEqual(['PATRON_RATE_LIMIT must be on or off, got "sometimes"']);
    expect(loadConfig({ PATRON_RATE_LIMIT_DEVICES: '60', PATRON_RATE_LIMIT_AUTH_FAILURES: '5' }).rateLimit).toMatchObject({
      devicesPerMinute: 60,
      authFailures: 5,
    });
    expect(problemsOf({ PATRON_RATE_LIMIT_SHOP: '0' })).toEqual([expect.stringMatching(/^PATRON_RATE_LIMIT_SHOP /)]);
  });

  it('trusts X-Forwarded-For only from the listed proxies, and refuses a list that is not addresses', () => {
    expect(loadConfig({ PATRON_TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
    expect(problemsOf({ PATRON_TRUST_PROXY: 'true' })).toEqual([expect.stringMatching(/^PATRON_TRUST_PROXY /)]);
  });

  it('takes the product answer cache in MiB, 0 for none, and refuses a negative or fractional size', () => {
    expect(loadConfig({ PATRON_PRODUCT_CACHE_MB: '256' }).productCacheBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ PATRON_PRODUCT_CACHE_MB: '0' }).productCacheBytes).toBe(0);
    expect(problemsOf({ PATRON_PRODUCT_CACHE_MB: '-1' })).toEqual([expect.stringMatching(/^PATRON_PRODUCT_CACHE_MB /)]);
    expect(problemsOf({ PATRON_PRODUCT_CACHE_MB: '1.5' })).toEqual([expect.stringMatching(/^PATRON_PRODUCT_CACHE_MB /)]);
  });

  it("takes the job thread's nice value from 0 (as the HTTP thread) to 19", () => {
    expect(loadConfig({ PATRON_JOB_THREAD_NICE: '0' }).jobThreadNice).toBe(0);
    expect(loadConfig({ PATRON_JOB_THREAD_NICE: '19' }).jobThreadNice).toBe(19);
    expect(problemsOf({ PATRON_JOB_THREAD_NICE: '20' })).toEqual([expect.stringMatching(/^PATRON_JOB_THREAD_NICE /)]);
    expect(problemsOf({ PATRON_JOB_THREAD_NICE: '-5' })).toEqual([expect.stringMatching(/^PATRON_JOB_THREAD_NICE /)]);
  });

  it('takes the render limit from 10 ms to 10 s and the render budget per shop from 10 to 1000 ms a second', () => {
    expect(loadConfig({ PATRON_RENDER_LIMIT_MS: '250', PATRON_RENDER_BUDGET_MS: '1000' }).render).toEqual({
      limitMs: 250,
      budgetMsPerSecond: 1000,
    });
    expect(problemsOf({ PATRON_RENDER_LIMIT_MS: '5' })).toEqual([expect.stringMatching(/^PATRON_RENDER_LIMIT_MS /)]);
    expect(problemsOf({ PATRON_RENDER_BUDGET_MS: '1001' })).toEqual([expect.stringMatching(/^PATRON_RENDER_BUDGET_MS /)]);
  });

  it('takes the job lease in seconds, from 2 to 3600, and gives a feed import the same lease', () => {
    expect(loadConfig({ PATRON_JOB_LEASE_SECONDS: '30' }).jobLeaseMs).toBe(30_000);
    expect(loadConfig({ PATRON_JOB_LEASE_SECONDS: '30' }).importLeaseMs).toBe(30_000);
    expect(problemsOf({ PATRON_JOB_LEASE_SECONDS: '1' })).toEqual([expect.stringMatching(/^PATRON_JOB_LEASE_SECONDS /)]);
    expect(problemsOf({ PATRON_JOB_LEASE_SECONDS: '3601' })).toEqual([expect.stringMatching(/^PATRON_JOB_LEASE_SECONDS /)]);
  });

  it('takes the shutdown drain in seconds, 5 by default, from 0 to 600', () => {
    expect(loadConfig({}).shutdownDrainMs).toBe(5_000);
    expect(loadConfig({ PATRON_SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainMs).toBe(0);
    for (const bad of ['-1', '601', '1.5'])
      expect(problemsOf({ PATRON_SHUTDOWN_DRAIN_SECONDS: bad })).toEqual([expect.stringMatching(/^PATRON_SHUTDOWN_DRAIN_SECONDS /)]);
  });

  it('names every bad variable in one error rather than stopping at the first', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://localhost/patron',
      PATRON_ADMIN_TOKEN: 'short',
      LOG_LEVEL: 'loud',
      PATRON_BODY_LIMIT: '12',
      PATRON_WORKER_CONCURRENCY: '0',
    });
    expect(problems).toHaveLength(6);
    for (const name of ['PORT', 'DATABASE_URL', 'PATRON_ADMIN_TOKEN', 'LOG_LEVEL', 'PATRON_BODY_LIMIT', 'PATRON_WORKER_CONCURRENCY']) {
      expect(
        problems.some((p) => p.startsWith(`${name} `)),
        name,
      ).toBe(true);
    }
  });

  it('lists each problem on its own line of the message', () => {
    try {
      loadConfig({ PORT: '70000', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(
        'Invalid configuration:\n' +
          '  - PORT must be an integer from 0 to 65535, got "70000"\n' +
          '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      );
    }
  });

  it('resolves the data dir against the working directory and accepts a postgres URL', () => {
    const config = loadConfig({ PATRON_DATA_DIR: 'var/patron', DATABASE_URL: 'postgresql://u:p@db:5432/patron', PORT: '0' }, '/srv');
    expect(config.dataDir).toBe('/srv/var/patron');
    expect(config.databaseUrl).toBe('postgresql://u:p@db:5432/patron');
    expect(config.port).toBe(0);
  });

  it('listens for admin changes on DATABASE_URL unless PATRON_DATABASE_LISTEN_URL names another connection', () => {
    const url = 'postgres://u:p@pgbouncer:6432/patron';
    expect(loadConfig({ DATABASE_URL: url }).databaseListenUrl).toBe(url);
    const direct = 'postgres://u:p@db:5432/patron';
    expect(loadConfig({ DATABASE_URL: url, PATRON_DATABASE_LISTEN_URL: direct }).databaseListenUrl).toBe(direct);
    expect(problemsOf({ DATABASE_URL: url, PATRON_DATABASE_LISTEN_URL: 'db:5432' })).toEqual([
      'PATRON_DATABASE_LISTEN_URL must start with postgres:// or postgresql://',
    ]);
    expect(problemsOf({ PATRON_DATABASE_LISTEN_URL: direct })).toEqual([
      'PATRON_DATABASE_LISTEN_URL is for PostgreSQL: set DATABASE_URL too',
    ]);
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });
});
