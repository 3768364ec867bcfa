import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import type { JobMap } from '../../../src/jobs/job-map.js';
import type { CheckoutHoldParticipant } from '../../../src/modules/checkout/checkout-holds.js';
import type { CheckoutAnswer } from '../../../src/modules/checkout/checkout.types.js';
import type { OrderHoldScope } from '../../../src/modules/order-holds/order-holds.js';
import { CertificateHolds } from '../../../src/modules/promotions/certificate-holds.js';
import { createServices, type Services } from '../../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { inOrderStep } from '../../helpers/order-holds.js';
import { push } from '../tracking/tracking-fixture.js';
import { balances, checkoutRequest, line, programme } from './checkout-fixture.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function ok(answer: CheckoutAnswer) {
  if (!answer.ok) throw new Error(`refused: duplicate ${answer.duplicateProductId}`);
  return answer.result;
}

describe.each(TEST_DIALECTS)('checkout service on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let services: Services;
  let shop: { shopId: string; timezone: string };
  let shopId: string;
  let phoneSeq = 0;
  let identifier: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock });
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    clock.set(NOW);
    const fixture = await createShopFixture(services);
    shop = fixture.shop;
    shopId = fixture.shopId;
    phoneSeq += 1;
    identifier = (await programme(services, shopId, { phone: `7905${String(phoneSeq).padStart(7, '0')}` })).member.identifier;
  });

  const checkout = () => services.checkout;
  const full = (orderId: string, extra: Partial<Parameters<typeof checkoutRequest>[0]> = {}) =>
    checkoutRequest({
      orderId,
      identifier,
      promoCodes: ['spring'],
      certificates: ['gift'],
      chargeBonuses: true,
      bonusesAmount: 3_000,
      ...extra,
    });
  const rewards = async () => (await services.loyalty.viewMember(shopId, identifier)).transactions.filter((t) => t.kind === 'order_reward');

  it('estimates without holding anything', async () => {
    const before = await balances(services, shopId, identifier);
    const result = ok(await checkout().estimate(shop, full('E-1')));
    // 250.00 − 10% − 10.00 by code = 215.00; 30.00 bonuses; 50.00 certificate.
    expect(result.orderTotal).toBe(250_00);
    expect(result.savedByOffers).toBe(35_00);
    expect(result.savedByBonuses).toBe(30_00);
    expect(result.savedByCertificates).toBe(50_00);
    expect(result.promoCodes).toEqual(['SPRING']);
    expect(await balances(services, shopId, identifier)).toEqual(before);
    await expect(checkout().getOrder(shopId, 'E-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("runs a hold participant inside the order's transactions, and a refusal of its rolls the whole apply back", async () => {
    const seen: string[] = [];
    let refuse = true;
    const statusIn = async (scope: OrderHoldScope) =>
      (
        await scope.trx
          .selectFrom('checkout_orders')
          .select('status')
          .where('shop_id', '=', scope.shopId)
          .where('order_id', '=', scope.orderId)
          .executeTakeFirst()
      )?.status;
    const participant: CheckoutHoldParticipant = {
      name: 'test',
      locks: 'after member',
      place: async (scope, order) => {
        seen.push(`place ${await statusIn(scope)} ${order.holds.bonuses}`);
        return { ok: !refuse };
      },
      capture: async (scope) => void seen.push(`capture ${await statusIn(scope)}`),
      release: async (scope) => void seen.push(`release ${await statusIn(scope)}`),
    };
    // A services instance of its own, so that the participant stays out of the other tests.
    const own = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock, probes: { checkoutHolds: [participant] } });
    const before = await balances(own, shopId, identifier);
    await expect(own.checkout.apply(shop, full('P-1'))).rejects.toMatchObject({ code: 'CONFLICT' });
    // Every round saw its own uncommitted order row, and each was rolled back with the holds.
    expect(seen).toEqual(Array.from({ length: 4 }, () => 'place created 3000'));
    expect(await balances(own, shopId, identifier)).toEqual(before);
    await expect(own.checkout.getOrder(shopId, 'P-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    refuse = false;
    seen.length = 0;
    ok(await own.checkout.apply(shop, full('P-1')));
    ok(await own.checkout.confirm(shopId, 'P-1'));
    await own.checkout.cancel(shopId, 'P-1');
    expect(seen).toEqual(['place created 3000', 'capture completed', 'release cancelled']);
    expect(await balances(own, shopId, identifier)).toEqual(before);
  });

  it("runs the holds that lock after the member once the order's reward is credited or cancelled, and refuses a list out of that order", async () => {
    const seen: string[] = [];
    const rewardIn = async (scope: OrderHoldScope) =>
      (
        await scope.trx
          .selectFrom('loyalty_transactions')
          .select('status')
          .where('shop_id', '=', scope.shopId)
          .where('order_id', '=', scope.orderId)
          .where('kind', '=', 'order_reward')
          .executeTakeFirst()
      )?.status ?? 'no reward';
    const probe: CheckoutHoldParticipant = {
      name: 'probe',
      locks: 'after member',
      place: async (scope) => {
        seen.push(`place ${await rewardIn(scope)}`);
        return { ok: true };
      },
      capture: async (scope) => void seen.push(`capture ${await rewardIn(scope)}`),
      release: async (scope) => void seen.push(`release ${await rewardIn(scope)}`),
    };
    const own = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock, probes: { checkoutHolds: [probe] } });
    ok(await own.checkout.apply(shop, full('M-1')));
    ok(await own.checkout.confirm(shopId, 'M-1'));
    await own.checkout.cancel(shopId, 'M-1');
    expect(seen).toEqual(['place no reward', 'capture confirmed', 'release cancelled']);
    const early = { ...probe, locks: 'before member' } as const;
    expect(() => createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock, probes: { checkoutHolds: [early] } })).toThrow(
      'The hold participant probe locks before subscription benefits: list it earlier.',
    );
  });

  it('apply holds, confirm spends and rewards, and a cancel after completion restores every balance exactly', async () => {
    const before = await balances(services, shopId, identifier);
    const applied = ok(await checkout().apply(shop, full('O-1')));
    expect(await balances(services, shopId, identifier)).toEqual({
      ...before,
      bonuses: before.bonuses - 30_00,
      codeBlocked: 1,
      giftHeld: 50_00,
    });
    expect((await checkout().getOrder(shopId, 'O-1')).status).toBe('created');

    const confirmed = ok(await checkout().confirm(shopId, 'O-1'));
    expect(confirmed).toEqual(applied);
    expect(applied.bonusesReward).toBeGreaterThan(0);
    expect(await balances(services, shopId, identifier)).toEqual({
      ...before,
      bonuses: before.bonuses - 30_00 + applied.bonusesReward,
      codeUsed: 1,
      giftBalance: 0,
    });
    expect((await rewards()).map((t) => t.amount)).toEqual([applied.bonusesReward]);

    const cancelled = await checkout().cancel(shopId, 'O-1');
    expect(cancelled.status).toBe('cancelled');
    expect(await balances(services, shopId, identifier)).toEqual(before);
    await expect(checkout().confirm(shopId, 'O-1')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Could not confirm order in its current status',
    });
    await expect(checkout().cancel(shopId, 'O-1')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(checkout().apply(shop, full('O-1'))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Could not apply order in its current status',
    });
    expect(await balances(services, shopId, identifier)).toEqual(before);
  });

  it('cancel of a created order releases everything it held', async () => {
    const before = await balances(services, shopId, identifier);
    await checkout().apply(shop, full('O-2'));
    await checkout().cancel(shopId, 'O-2');
    expect(await balances(services, shopId, identifier)).toEqual(before);
    expect(await rewards()).toEqual([]);
  });

  it('a repeat apply recomputes and replaces the holds instead of adding to them', async () => {
    const before = await balances(services, shopId, identifier);
    await checkout().apply(shop, full('O-3'));
    const again = ok(await checkout().apply(shop, full('O-3', { bonusesAmount: 5_000, promoCodes: [] })));
    expect(again.savedByBonuses).toBe(50_00);
    expect(again.promoCodes).toEqual([]);
    expect(await balances(services, shopId, identifier)).toEqual({ ...before, bonuses: before.bonuses - 50_00, giftHeld: 50_00 });
    // The order's own holds do not count against it: the whole balance stays available to it.
    const most = ok(await checkout().apply(shop, full('O-3', { bonusesAmount: null, certificates: [], promoCodes: [] })));
    expect(most.bonusesBalance).toBe(before.bonuses);
    expect(await balances(services, shopId, identifier)).toEqual({ ...before, bonuses: before.bonuses - most.savedByBonuses });
  });

  it('confirms once however often it is asked: twice in a row, and 20 at once, reward once', async () => {
    const applied = ok(await checkout().apply(shop, full('O-4')));
    const first = ok(await checkout().confirm(shopId, 'O-4'));
    const second = ok(await checkout().confirm(shopId, 'O-4'));
    expect(second).toEqual(first);
    expect((await rewards()).length).toBe(1);

    await checkout().apply(shop, full('O-5', { promoCodes: [], certificates: [] }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => checkout().confirm(shopId, 'O-5')));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    const all = await rewards();
    expect(all.length).toBe(2);
    expect(all.filter((t) => t.orderId === 'O-4').map((t) => t.amount)).toEqual([applied.bonusesReward]);
  });

  it('credits the reward pending for reward_pending_days, with its lifetime counted from then', async () => {
    await services.loyalty.putSettings(shopId, {
      rewardPercent: 500,
      maxBonusSharePercent: 5000,
      bonusValue: 100,
      bonusLifetimeDays: 10,
      rewardPendingDays: 3,
    });
    const applied = ok(await checkout().apply(shop, full('O-6')));
    await checkout().confirm(shopId, 'O-6');
    const [reward] = await rewards();
    expect(reward).toMatchObject({ status: 'pending', amount: applied.bonusesReward, expiresAt: NOW + 13 * 86_400_000 });
  });

  it('100 simultaneous applies of different orders racing for a code with one use left: exactly one holds it', async () => {
    const promotion = (await services.promoCodes.getCode(shopId, 'SPRING')).promotionId;
    await services.promoCodes.createCode(shopId, 'LAST', promotion, { usageLimit: 1 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => checkout().apply(shop, checkoutRequest({ orderId: `R-${i}`, promoCodes: ['LAST'] }))),
    );
    const results = answers.map(ok);
    expect(results.filter((r) => r.promoCodes.includes('LAST')).length).toBe(1);
    const failed = results.filter((r) => !r.promoCodes.includes('LAST'));
    expect(failed.length).toBe(99);
    for (const r of failed)
      expect(r.promoCodesFailed).toEqual([{ code: 'LAST', reason: 'exhausted', message: 'Promo code usage limit is reached' }]);
    expect(await services.promoCodes.getCode(shopId, 'LAST')).toMatchObject({ used: 0, blocked: 1 });
  });

  it("never holds a member's bonuses twice across orders beyond the balance", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        checkout().apply(shop, checkoutRequest({ orderId: `B-${i}`, identifier, chargeBonuses: true, cart: [line('A', 100_00)] })),
      ),
    );
    const charged = answers.map((a) => ok(a).savedByBonuses);
    const total = charged.reduce((a, b) => a + b, 0);
    expect(total).toBe(100_00);
    expect((await balances(services, shopId, identifier)).bonuses).toBe(0);
  });

  it('refuses bonuses above the balance, and a negative amount, holding nothing', async () => {
    const before = await balances(services, shopId, identifier);
    await expect(checkout().apply(shop, full('X-1', { bonusesAmount: 100_01 }))).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(checkout().apply(shop, full('X-2', { bonusesAmount: -100 }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await balances(services, shopId, identifier)).toEqual(before);
    await expect(checkout().getOrder(shopId, 'X-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('leaves no hold behind when a hold is refused at every try', async () => {
    const before = await balances(services, shopId, identifier);
    const spy = vi.spyOn(CertificateHolds.prototype, 'hold').mockResolvedValue({ ok: false, code: 'GIFT', reason: 'insufficient' });
    try {
      await expect(checkout().apply(shop, full('H-1'))).rejects.toMatchObject({ code: 'CONFLICT' });
    } finally {
      spy.mockRestore();
    }
    expect(await balances(services, shopId, identifier)).toEqual(before);
  });

  it('a repeat apply refused at every try leaves the order as it was: its holds, its result, and a confirm that spends them', async () => {
    const before = await balances(services, shopId, identifier);
    const first = ok(await checkout().apply(shop, full('H-2')));
    const held = await balances(services, shopId, identifier);
    expect(held).not.toEqual(before);
    const spy = vi.spyOn(CertificateHolds.prototype, 'hold').mockResolvedValue({ ok: false, code: 'GIFT', reason: 'insufficient' });
    try {
      await expect(checkout().apply(shop, full('H-2', { bonusesAmount: 1_000 }))).rejects.toMatchObject({ code: 'CONFLICT' });
    } finally {
      spy.mockRestore();
    }
    expect(await balances(services, shopId, identifier)).toEqual(held);
    expect((await checkout().getOrder(shopId, 'H-2')).calculation.result).toEqual(first);
    expect(ok(await checkout().confirm(shopId, 'H-2'))).toEqual(first);
    expect((await rewards()).length).toBe(1);
  });

  it('refuses to confirm a created order whose holds are no longer all in place', async () => {
    await checkout().apply(shop, full('H-3'));
    await inOrderStep(db, clock, { shopId, orderId: 'H-3' }, (scope) => new CertificateHolds({ db }).release(scope));
    await expect(checkout().confirm(shopId, 'H-3')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await rewards()).toEqual([]);
    await checkout().apply(shop, full('H-3'));
    ok(await checkout().confirm(shopId, 'H-3'));
    expect((await rewards()).length).toBe(1);
  });

  it("answers an unknown order, and another shop's order, as not found", async () => {
    await checkout().apply(shop, full('S-1'));
    const other = await createShopFixture(services);
    await expect(checkout().confirm(other.shopId, 'S-1')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Order is not found' });
    await expect(checkout().cancel(other.shopId, 'S-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await checkout().getOrder(shopId, 'S-1')).status).toBe('created');
  });

  it('lists the member’s orders newest first in every status', async () => {
    await checkout().apply(shop, full('L-1', { promoCodes: [], certificates: [], bonusesAmount: 1_000 }));
    clock.set(NOW + 1_000);
    await checkout().apply(shop, full('L-2', { promoCodes: [], certificates: [], bonusesAmount: 1_000 }));
    clock.set(NOW + 2_000);
    await checkout().apply(shop, full('L-3', { promoCodes: [], certificates: [], bonusesAmount: 1_000 }));
    await checkout().confirm(shopId, 'L-2');
    await checkout().cancel(shopId, 'L-3');
    const orders = await checkout().history(shopId, identifier);
    expect(orders.map((o) => [o.orderId, o.status])).toEqual([
      ['L-3', 'cancelled'],
      ['L-2', 'completed'],
      ['L-1', 'created'],
    ]);
    await expect(checkout().history(shopId, '79990000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Loyalty program member is not found',
    });
  });

  it('a purchase event with the order id of a created order confirms it', async () => {
    const { did } = await services.identity.createDevice(shopId);
    await checkout().apply(shop, full('P-1'));
    await db.db.deleteFrom('jobs').where('name', '=', 'tracking.deliver').execute();
    await services.tracking.recordPush(
      push(shopId, did, 'purchase', { items: [{ id: 'A', amount: 2, price: 100 }], purchase: { orderId: 'P-1' } }),
    );
    const deliveries = (await db.db.selectFrom('jobs').select('payload').where('name', '=', 'tracking.deliver').execute())
      .map((r) => JSON.parse(r.payload) as JobMap['tracking.deliver'])
      .filter((d) => d.subscriber === 'checkout.orders');
    expect(deliveries).toHaveLength(1);
    await services.tracking.deliver(deliveries[0]!);
    await services.tracking.deliver(deliveries[0]!);
    expect((await checkout().getOrder(shopId, 'P-1')).status).toBe('completed');
    expect((await rewards()).length).toBe(1);
  });
});
