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
      dataDir: '/srv/patron/data',
      databaseUrl: undefined,
      adminToken: undefined,
      logLevel: 'info',
      bodyLimit: 10 * 1024 * 1024,
      workerConcurrency: 4,
      jobLeaseMs: 10_000,
      feedMaxBytes: 1024 * 1024 * 1024,
      fetchAllowPrivate: false,
      publicUrl: 'http://127.0.0.1:8080',
      productCacheBytes: 64 * 1024 * 1024,
    });
  });

  it('takes the product answer cache in MiB, 0 for none, and refuses a negative or fractional size', () => {
    expect(loadConfig({ PATRON_PRODUCT_CACHE_MB: '256' }).productCacheBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ PATRON_PRODUCT_CACHE_MB: '0' }).productCacheBytes).toBe(0);
    expect(problemsOf({ PATRON_PRODUCT_CACHE_MB: '-1' })).toEqual([expect.stringMatching(/^PATRON_PRODUCT_CACHE_MB /)]);
    expect(problemsOf({ PATRON_PRODUCT_CACHE_MB: '1.5' })).toEqual([expect.stringMatching(/^PATRON_PRODUCT_CACHE_MB /)]);
  });

  it('takes the job lease in seconds, from 2 to 3600', () => {
    expect(loadConfig({ PATRON_JOB_LEASE_SECONDS: '30' }).jobLeaseMs).toBe(30_000);
    expect(problemsOf({ PATRON_JOB_LEASE_SECONDS: '1' })).toEqual([expect.stringMatching(/^PATRON_JOB_LEASE_SECONDS /)]);
    expect(problemsOf({ PATRON_JOB_LEASE_SECONDS: '3601' })).toEqual([expect.stringMatching(/^PATRON_JOB_LEASE_SECONDS /)]);
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
      expect(problems.some((p) => p.startsWith(`${name} `)), name).toBe(true);
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
    const config = loadConfig(
      { PATRON_DATA_DIR: 'var/patron', DATABASE_URL: 'postgresql://u:p@db:5432/patron', PORT: '0' },
      '/srv',
    );
    expect(config.dataDir).toBe('/srv/var/patron');
    expect(config.databaseUrl).toBe('postgresql://u:p@db:5432/patron');
    expect(config.port).toBe(0);
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });
});
