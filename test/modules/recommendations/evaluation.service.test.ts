import { describe, expect, it } from 'vitest';
import { generateShop, SMALL_SHOP } from '../../../bench/recommend/generate-shop.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';

const END = Date.UTC(2026, 2, 1);

/**
 * Issue 37 part 6: the offline evaluation on the seeded generated shop (bench/recommend/
 * generate-shop.ts) meets the quality targets with the real build and recommenders.
 */
describe.each(TEST_DIALECTS)('offline evaluation of a generated shop on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: END });

  it('meets the targets: also_bought hit rate, interesting over popular, the predictor’s AUC', async () => {
    const shop = await generateShop(bed.services, bed.db.db, { ...SMALL_SHOP, end: END });
    const report = await bed.services.recommendationEvaluation.evaluate(shop.shopId, { testDays: 14 });
    const row = (protocol: string, recommender: string) => {
      const found = report.rows.find((r) => r.protocol === protocol && r.recommender === recommender);
      if (!found) throw new Error(`no row ${protocol}/${recommender}`);
      return found;
    };
    const alsoBought = row('item', 'also_bought');
    expect(alsoBought.cases).toBeGreaterThan(100);
    expect(alsoBought.hitRate10).toBeGreaterThanOrEqual(0.3);
    expect(alsoBought.hitRate10).toBeGreaterThanOrEqual(3 * row('item', 'popular').hitRate10);
    expect(row('customer', 'interesting').ndcg10).toBeGreaterThan(row('customer', 'popular').ndcg10);
    expect(report.predictor.hasModel).toBe(true);
    expect(report.predictor.auc).toBeGreaterThanOrEqual(0.7);
  }, 60_000);
});
