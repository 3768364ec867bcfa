import { buildApp, type AppDeps, type PatronApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Dialect } from '../../src/db/dialect.js';
import { createTestDb, type TestDb } from './db.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestApp {
  readonly app: PatronApp;
  readonly db: TestDb;
  readonly clock: ManualClock;
  readonly config: Config;
  /** Authorization header for /admin/v1. */
  readonly adminHeaders: { authorization: string };
  close(): Promise<void>;
}

/** The whole app on a fresh database, with a manual clock and a known admin token. */
export async function createTestApp(
  options: { dialect?: Dialect; env?: Record<string, string>; onRoute?: AppDeps['onRoute']; adminUiDir?: string } = {},
): Promise<TestApp> {
  const db = await createTestDb(options.dialect ?? 'sqlite');
  const clock = new ManualClock();
  // The abuse limits are off unless a test turns them on: route and contract tests send
  // hundreds of requests (wrong secrets among them) from one address on a clock that stands still.
  const config = loadConfig({
    PATRON_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    PATRON_RATE_LIMIT: 'off',
    // Admin users' passwords at a test cost (modules/admin-users/passwords.ts): the route tests
    // make and sign in hundreds of users, at a tenth of a second of CPU each at the real cost.
    PATRON_INSECURE_TEST_PASSWORD_HASHING: 'on',
    ...options.env,
  });
  const app = await buildApp({
    config,
    db,
    clock,
    logger: false,
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.adminUiDir === undefined ? {} : { adminUiDir: options.adminUiDir }),
  });
  await app.services.adminToken.ensure();
  return {
    app,
    db,
    clock,
    config,
    adminHeaders: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    async close() {
      await app.close();
      await db.cleanup();
    },
  };
}
