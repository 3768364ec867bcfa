import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbOptions } from '../../src/db/create-db.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { CliProcess, databaseEnv, type Env } from './cli-harness.js';

/**
 * Every process on one database must share PATRON_FETCH_ALLOW_PRIVATE: any of them may
 * claim a download job another enqueued, and would guard it with its own rule.
 */
describe.each(TEST_DIALECTS)('PATRON_FETCH_ALLOW_PRIVATE across processes on %s', (dialect) => {
  let db: DbOptions;
  let env: Env;
  const processes: CliProcess[] = [];
  const start = (extra: Env = {}): CliProcess => {
    const child = CliProcess.start(['worker'], { ...env, ...extra });
    processes.push(child);
    return child;
  };

  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    env = { ...databaseEnv(db) };
  });
  afterAll(async () => {
    for (const child of processes) child.kill();
    await removeDatabase(db);
  });

  it('refuses to start a process whose rule differs from a running one, and starts it once that one has stopped', async () => {
    const strict = start();
    await strict.waitForOutput(/"msg":"Job worker started"/, 60_000);

    const loose = start({ PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' });
    expect(await loose.exit(60_000)).toBe(1);
    expect(loose.stdout).toContain(
      'PATRON_FETCH_ALLOW_PRIVATE is \\"127.0.0.1\\" here, but \\"false\\" in another process running on this database',
    );
    expect(loose.stdout).not.toContain('Job worker started');

    const same = start({ PATRON_FETCH_ALLOW_PRIVATE: 'false' });
    await same.waitForOutput(/"msg":"Job worker started"/, 60_000);
    same.signal('SIGTERM');
    expect(await same.exit()).toBe(0);

    strict.signal('SIGTERM');
    expect(await strict.exit()).toBe(0);
    const after = start({ PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' });
    await after.waitForOutput(/"msg":"Job worker started"/, 60_000);
    after.signal('SIGTERM');
    expect(await after.exit()).toBe(0);
  }, 180_000);
});
