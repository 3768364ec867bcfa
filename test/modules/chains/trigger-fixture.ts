import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { Dialect } from '../../../src/db/dialect.js';
import { loadConfig } from '../../../src/config.js';
import { JobRunner } from '../../../src/jobs/runner.js';
import type { ActiveChain } from '../../../src/modules/chains/chain-starter.js';
import type { ChainTriggers } from '../../../src/modules/chains/triggers/chain-triggers.js';
import { createServices, type Services } from '../../../src/services.js';
import { ChainStarterRecorder } from '../../helpers/chain-starter-recorder.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

export interface TriggerStack {
  readonly services: Services;
  readonly triggers: ChainTriggers;
  /** Runs tracking's outbox and the detectors' jobs (runDue). */
  readonly runner: JobRunner;
}

const silent = { warn: () => undefined, error: () => undefined };

/**
 * The real services on the test database with the trigger detectors built on them, as the
 * process would wire them, over a recording engine. Calling it again on the same database
 * and recorder is a restart: new service objects, the same stored state.
 */
export function triggerStack(db: TestDb, clock: ManualClock, starter: ChainStarterRecorder): TriggerStack {
  const config = loadConfig({ LOG_LEVEL: 'silent', PATRON_RATE_LIMIT: 'off' });
  const services = createServices({ config, db, clock, probes: { triggerStarter: starter } });
  const triggers = services.chainTriggers;
  // Tracking's outbox and the detectors' jobs, registered as src/process/job-runner.ts does
  // (not the others: an import's picture downloads would go out to the network).
  const runner = new JobRunner({ queue: services.jobs, clock, logger: silent });
  runner.register('tracking.deliver', (payload) => services.tracking.deliver(payload));
  runner.register('chains.abandoned_check', (payload) => triggers.checkAbandoned(payload));
  runner.register('chains.product_alerts', (payload) => triggers.handProductAlerts(payload));
  runner.register('chains.segment_entries', (payload) => triggers.handSegmentEntries(payload));
  return { services, triggers, runner };
}

export const abandonedCart = (chainId: number, afterSeconds: number): ActiveChain => ({
  chainId,
  trigger: { kind: 'abandoned_cart', afterSeconds },
});
export const abandonedWish = (chainId: number, afterSeconds: number): ActiveChain => ({
  chainId,
  trigger: { kind: 'abandoned_wish', afterSeconds },
});

export interface TriggerTest {
  db: TestDb;
  clock: ManualClock;
  starter: ChainStarterRecorder;
  stack: TriggerStack;
  shopId: string;
}

/**
 * Registers a describe's hooks: a database for the file; before each test a fresh clock,
 * recording engine, stack and shop. The returned object holds the current ones.
 */
export function useTriggerTests(dialect: Dialect): TriggerTest {
  const t = {} as TriggerTest;
  beforeAll(async () => {
    t.db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await t.db.cleanup();
  });
  beforeEach(async () => {
    t.clock = new ManualClock();
    t.starter = new ChainStarterRecorder();
    t.stack = triggerStack(t.db, t.clock, t.starter);
    t.shopId = (await createShopFixture(t.stack.services)).shopId;
  });
  return t;
}
