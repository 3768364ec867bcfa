import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { createServices, type Services } from '../../../src/services.js';
import { runWorker } from '../../helpers/race-worker.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import * as orders from '../../../src/modules/checkout/checkout.repo.js';
import { balances, checkoutRequest, programme } from './checkout-fixture.js';

/** Runs the race worker in a child process (tsx, no build) and answers its counts. */
function race(env: Record<string, string>): Promise<{ ok: number }> {
  return runWorker<{ ok: number }>('test/modules/checkout/checkout-race-worker.ts', env, 50_000);
}

describe.each(TEST_DIALECTS)('checkout across two processes on %s', (dialect) => {
  let db: TestDb;
  let services: Services;
  let shopId: string;
  let identifier: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock: systemClock });
    const fixture = await createShopFixture(services, { timezone: 'UTC' });
    shopId = fixture.shopId;
    const made = await programme(services, shopId, { phone: '79071234567', codeUses: 1 });
    identifier = made.member.identifier;
    await services.checkout.apply(
      fixture.shop,
      checkoutRequest({ orderId: 'ONE', identifier, chargeBonuses: true, certificates: ['GIFT'] }),
    );
  });
  afterAll(async () => {
    await db.cleanup();
  });

  const both = (env: Record<string, string>) => {
    const common = { RACE_DB: JSON.stringify(db.options), RACE_SHOP: shopId, RACE_START_AT: String(Date.now() + 4_000), ...env };
    return Promise.all([race({ ...common, RACE_PREFIX: 'a' }), race({ ...common, RACE_PREFIX: 'b' })]);
  };

  it('gives a code with one use left to exactly one of 100 orders applied from two processes', async () => {
    const [a, b] = await both({ RACE_MODE: 'apply', RACE_CODE: 'SPRING', RACE_COUNT: '50' });
    expect(a.ok + b.ok).toBe(1);
    expect(await services.promoCodes.getCode(shopId, 'SPRING')).toMatchObject({ used: 0, blocked: 1 });
  }, 70_000);

  it('rewards once when two processes confirm one order 20 times each', async () => {
    const [a, b] = await both({ RACE_MODE: 'confirm', RACE_ORDER: 'ONE', RACE_COUNT: '20' });
    expect(a.ok + b.ok).toBe(40);
    const view = await services.loyalty.viewMember(shopId, identifier);
    expect(view.transactions.filter((t) => t.kind === 'order_reward')).toHaveLength(1);
    expect(await services.certificates.getCertificate(shopId, 'GIFT')).toMatchObject({ balance: 0, held: 0 });
  }, 70_000);

  /**
   * A cancel racing a confirm ends with the order cancelled (a cancel is allowed from
   * created and from completed) and with every balance as before the apply: bonuses back
   * in their lots, the code's use given back, the certificate whole, the reward (if one
   * was credited) taken back, and never a mix of captured and released.
   */
  async function raceCancelAgainstConfirm(phone: string, halfConfirmed: boolean) {
    const fixture = await createShopFixture(services, { timezone: 'UTC' });
    const made = await programme(services, fixture.shopId, { phone });
    const member = made.member.identifier;
    const before = await balances(services, fixture.shopId, member);
    const request = checkoutRequest({
      orderId: 'RACE',
      identifier: member,
      promoCodes: ['SPRING'],
      certificates: ['GIFT'],
      chargeBonuses: true,
    });
    const applied = await services.checkout.apply(fixture.shop, request);
    expect(applied.ok && applied.result.promoCodes).toEqual(['SPRING']);
    // A confirm cut short: the order moved to completed while none of its steps ran.
    if (halfConfirmed) expect(await orders.moveStatus(db.db, fixture.shopId, 'RACE', 'created', 'completed', Date.now())).toBeDefined();
    const common = {
      RACE_DB: JSON.stringify(db.options),
      RACE_SHOP: fixture.shopId,
      RACE_ORDER: 'RACE',
      RACE_COUNT: '10',
      RACE_START_AT: String(Date.now() + 4_000),
    };
    const [confirms, cancels] = await Promise.all([
      race({ ...common, RACE_MODE: 'confirm-or-refused' }),
      race({ ...common, RACE_MODE: 'cancel' }),
    ]);
    expect(cancels.ok).toBe(1);
    expect(confirms.ok).toBeLessThanOrEqual(10);
    expect((await services.checkout.getOrder(fixture.shopId, 'RACE')).status).toBe('cancelled');
    expect(await balances(services, fixture.shopId, member)).toEqual(before);
    const view = await services.loyalty.viewMember(fixture.shopId, member);
    expect(view.transactions.filter((t) => t.kind === 'order_reward' && t.status !== 'cancelled')).toEqual([]);
    return confirms.ok;
  }

  it('a cancel racing confirms of a created order from two processes ends cancelled with everything given back', async () => {
    await raceCancelAgainstConfirm('79071234568', false);
  }, 70_000);

  it('a cancel racing the confirms that finish a confirm cut short ends cancelled with everything given back', async () => {
    await raceCancelAgainstConfirm('79071234569', true);
  }, 70_000);
});
