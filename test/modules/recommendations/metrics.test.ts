import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auc, hitRateAtK, ndcgAtK, recallAtK, type RankingCase } from '../../../src/modules/recommendations/domain/metrics.js';

const CASES: RankingCase[] = [
  { recommended: ['a', 'b', 'c'], relevant: new Set(['b']) },
  { recommended: ['d', 'e', 'f'], relevant: new Set(['x']) },
  { recommended: ['g', 'h'], relevant: new Set(['g', 'h', 'i']) },
  { recommended: ['a'], relevant: new Set() },
];
const LOG3 = Math.log2(3);

describe('ranking metrics', () => {
  it('compute hit rate, recall and NDCG at 3 by hand, leaving out the case with nothing relevant', () => {
    expect(hitRateAtK(CASES, 3)).toBeCloseTo(2 / 3, 12);
    expect(recallAtK(CASES, 3)).toBeCloseTo((1 + 0 + 2 / 3) / 3, 12);
    // Case 1: b at rank 2 → 1/log2(3) over an ideal of 1. Case 3: ranks 1 and 2 over an ideal of three hits.
    const third = (1 + 1 / LOG3) / (1 + 1 / LOG3 + 1 / 2);
    expect(ndcgAtK(CASES, 3)).toBeCloseTo((1 / LOG3 + 0 + third) / 3, 12);
  });

  it('look only at the first k', () => {
    expect(hitRateAtK(CASES, 1)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(CASES, 1)).toBeCloseTo(1 / 3 / 3, 12);
    expect(ndcgAtK(CASES, 1)).toBeCloseTo(1 / 3, 12);
  });

  it('count a repeated recommendation once', () => {
    const repeated = [{ recommended: ['b', 'b', 'b'], relevant: new Set(['b', 'c']) }];
    expect(recallAtK(repeated, 3)).toBe(0.5);
    expect(ndcgAtK(repeated, 3)).toBeCloseTo(1 / (1 + 1 / LOG3), 12);
  });

  it('are 0 without a case to judge', () => {
    expect([hitRateAtK([], 5), recallAtK([], 5), ndcgAtK([], 5)]).toEqual([0, 0, 0]);
  });

  const caseArb = fc.record({
    recommended: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 8 }),
    relevant: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 }).map((ids) => new Set(ids)),
  });

  it('stay within [0, 1], and NDCG is 1 for every ranking that puts the relevant items first', () => {
    fc.assert(
      fc.property(fc.array(caseArb, { maxLength: 6 }), fc.integer({ min: 1, max: 8 }), (cases, k) => {
        for (const metric of [hitRateAtK, recallAtK, ndcgAtK]) {
          expect(metric(cases, k)).toBeGreaterThanOrEqual(0);
          expect(metric(cases, k)).toBeLessThanOrEqual(1 + 1e-12);
        }
        const perfect = cases
          .filter((c) => c.relevant.size > 0)
          .map((c) => ({ recommended: [...c.relevant, 'z1', 'z2'], relevant: c.relevant }));
        if (perfect.length > 0) expect(ndcgAtK(perfect, k)).toBeCloseTo(1, 12);
      }),
    );
  });
});

describe('AUC', () => {
  it('matches a small example by hand', () => {
    // Positives 0.35 and 0.8 against negatives 0.1 and 0.4: 3 of 4 pairs ordered right.
    expect(auc([0.1, 0.4, 0.35, 0.8], [false, false, true, true])).toBe(0.75);
  });

  it('is 1 when separated, 0 when reversed, 0.5 for constant scores, null with one class', () => {
    expect(auc([1, 2, 3, 4], [false, false, true, true])).toBe(1);
    expect(auc([4, 3, 2, 1], [false, false, true, true])).toBe(0);
    expect(auc([7, 7, 7, 7, 7], [true, false, true, false, false])).toBe(0.5);
    expect(auc([1, 2], [true, true])).toBeNull();
    expect(() => auc([1], [])).toThrow(RangeError);
  });

  it('equals the share of positive–negative pairs ordered right, ties counting half', () => {
    const sample = fc.array(fc.record({ score: fc.integer({ min: 0, max: 5 }), label: fc.boolean() }), { maxLength: 40 });
    fc.assert(
      fc.property(sample, (rows) => {
        const positives = rows.filter((r) => r.label);
        const negatives = rows.filter((r) => !r.label);
        let wins = 0;
        for (const p of positives) for (const n of negatives) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
        const expected = positives.length === 0 || negatives.length === 0 ? null : wins / (positives.length * negatives.length);
        const value = auc(
          rows.map((r) => r.score),
          rows.map((r) => r.label),
        );
        if (expected === null) expect(value).toBeNull();
        else expect(value).toBeCloseTo(expected, 12);
      }),
    );
  });
});
