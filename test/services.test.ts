import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { compose, type Composition } from '../src/services.js';
import { createTestDb, type TestDb } from './helpers/db.js';

/**
 * The composition root's ordered lists: the shared flows run their participants in the
 * order the root lists them, and some steps rely on an earlier one (a comment at each
 * list in src/services.ts says which).
 */
describe('the composition root', () => {
  let db: TestDb;
  let composition: Composition;

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    composition = compose({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock: new ManualClock() });
  });
  afterAll(async () => {
    await db.cleanup();
  });

  it('runs the merge participants with the loyalty ledger before referrals, levels and rewards', () => {
    expect(composition.mergeParticipants.map((p) => p.name)).toEqual([
      'tracking',
      'audience',
      'product subscriptions',
      'loyalty ledger',
      'loyalty referrals',
      'loyalty levels',
      'loyalty rewards',
      'wallet passes',
      'web push',
      'chains',
      'abandoned lists',
    ]);
  });

  it('hands tracking its subscribers in one list, in the order their jobs are enqueued', () => {
    expect(composition.trackingSubscribers.map((s) => s.name)).toEqual([
      'search-log',
      'loyalty.purchases',
      'loyalty.event_rewards',
      'checkout.orders',
      'webhooks',
      'messaging.attribution',
      'chains.events',
      'chains.abandoned-lists',
    ]);
  });

  it("runs the catalog's landed listeners in one list: the pictures' download, then the alerts", () => {
    expect(composition.catalogListeners.map((l) => l.name)).toEqual(['images', 'product-subscriptions']);
  });

  it('hands the checkout its hold participants in the order they lock their rows', () => {
    expect(composition.checkoutHolds.map((h) => h.name)).toEqual(['promo codes', 'certificates', 'bonuses', 'subscription benefits']);
  });
});
