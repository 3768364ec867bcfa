import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';
import type { Dialect } from '../../src/db/dialect.js';
import { createTestDb, type TestDb } from './db.js';
import { createShopFixture } from './factories.js';

/** What a service test works with; read its fields inside hooks and tests, after beforeAll ran. */
export interface ServiceBed {
  readonly db: TestDb;
  readonly clock: ManualClock;
  readonly services: Services;
  /** A new shop for every test; a test may point it at another shop it made. */
  shopId: string;
}

/**
 * The service tier's usual setup inside a `describe`: a database of the dialect with
 * every migration, every service wired as the app wires them on a manual clock, and a
 * new shop before each test with the clock set to `now` (or moved on by a second when
 * `now` is not given, for tests that want time to pass between cases).
 */
export function useServiceBed(dialect: Dialect, options: { readonly now?: number } = {}): ServiceBed {
  let db: TestDb | undefined;
  let services: Services | undefined;
  let shopId: string | undefined;
  const clock = new ManualClock();
  beforeAll(async () => {
    db = await createTestDb(dialect);
    services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock });
  });
  afterAll(async () => {
    await services?.tracking.drain();
    await db?.cleanup();
  });
  beforeEach(async () => {
    if (options.now === undefined) clock.advance(1000);
    else clock.set(options.now);
    shopId = (await createShopFixture(ready(services))).shopId;
  });
  return {
    get db() {
      return ready(db);
    },
    clock,
    get services() {
      return ready(services);
    },
    get shopId() {
      return ready(shopId);
    },
    set shopId(value: string) {
      shopId = value;
    },
  };
}

function ready<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the service bed is read before its beforeAll and beforeEach ran');
  return value;
}
