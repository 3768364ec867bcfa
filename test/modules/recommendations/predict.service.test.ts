import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { item, push } from '../tracking/tracking-fixture.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The purchase predictor as the rebuild stores it and a request reads it (docs/recommendations.md "Purchase prediction"). */
describe.each(TEST_DIALECTS)('purchase predictor on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const predictor = () => bed.services.purchasePredictor;

  async function at(time: number, work: () => Promise<unknown>): Promise<void> {
    bed.clock.set(time);
    await work();
    bed.clock.set(NOW);
  }

  it('answers 0 before the first build, and the base rate when there were too few customers to train on', async () => {
    const buyer = (await bed.services.identity.createDevice(bed.shopId)).did;
    const browser = (await bed.services.identity.createDevice(bed.shopId)).did;
    expect(await predictor().probabilityToPurchase(bed.shopId, { did: buyer, identifiers: {} })).toMatchObject({ probability: 0 });
    const order = (n: number) => push(bed.shopId, buyer, 'purchase', { items: [item('A')], purchase: { orderId: `o-${n}` } });
    await at(NOW - 40 * DAY, () => bed.services.tracking.recordPush(order(1)));
    await at(NOW - 10 * DAY, () => bed.services.tracking.recordPush(order(2)));
    await at(NOW - 40 * DAY, () =>
      bed.services.tracking.recordPush(push(bed.shopId, browser, 'view', { sid: 'abcdefghij', items: [item('A')] })),
    );
    await bed.services.tracking.drain();
    await bed.services.recommendationModels.rebuild(bed.shopId);

    // Active before the cut-off 30 days ago: the buyer (who bought again after it) and the browser (who did not).
    expect(await predictor().status(bed.shopId)).toEqual({
      builtAt: NOW,
      hasModel: false,
      baseRate: 0.5,
      trainingSize: expect.any(Number),
      positives: 1,
      auc: null,
    });
    for (const did of [buyer, browser]) {
      expect((await predictor().probabilityToPurchase(bed.shopId, { did, identifiers: {} })).probability).toBe(0.5);
    }
  });
});
