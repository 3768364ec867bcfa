import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { predict, sigmoid, trainLogistic } from '../../../src/modules/recommendations/domain/logistic.js';
import { auc } from '../../../src/modules/recommendations/domain/metrics.js';

/**
 * A separable toy set on a grid, its two features on very different scales (days and
 * kopecks): positive when 3·x + y/1000 > 10, with points near the line left out.
 */
function toySet(offset: number): { rows: number[][]; labels: boolean[] } {
  const rows: number[][] = [];
  const labels: boolean[] = [];
  for (let x = 0; x <= 6; x += 0.5) {
    for (let y = offset; y <= 10_000; y += 500) {
      const margin = 3 * x + y / 1000 - 10;
      if (Math.abs(margin) < 1) continue;
      rows.push([x, y]);
      labels.push(margin > 0);
    }
  }
  return { rows, labels };
}

describe('logistic regression', () => {
  it('learns a separable set to an AUC above 0.95 on points it did not see', () => {
    const train = toySet(0);
    const model = trainLogistic(train.rows, train.labels);
    const test = toySet(250);
    expect(
      auc(
        train.rows.map((row) => predict(model, row)),
        train.labels,
      ),
    ).toBeGreaterThan(0.95);
    expect(
      auc(
        test.rows.map((row) => predict(model, row)),
        test.labels,
      ),
    ).toBeGreaterThan(0.95);
    expect(predict(model, [6, 10_000])).toBeGreaterThan(0.9);
    expect(predict(model, [0, 0])).toBeLessThan(0.1);
  });

  it('keeps the training mean and spread, and gives the same model for the same rows', () => {
    const rows = [
      [1, 10],
      [3, 10],
    ];
    const model = trainLogistic(rows, [false, true]);
    expect(model.means).toEqual([2, 10]);
    expect(model.scales).toEqual([1, 1]);
    // The constant second feature is 0 once centred: it never moves from 0.
    expect(model.weights[1]).toBe(0);
    expect(model.weights[0]).toBeGreaterThan(0);
    expect(trainLogistic(rows, [false, true])).toEqual(model);
  });

  it('shrinks the weights as the L2 penalty grows', () => {
    const { rows, labels } = toySet(0);
    const norm = (l2: number) => Math.hypot(...trainLogistic(rows, labels, { l2 }).weights);
    expect(norm(0.5)).toBeLessThan(norm(0.05));
    expect(norm(0.05)).toBeLessThan(norm(0.001));
  });

  it('answers 0.5 from no rows, and refuses rows of different widths', () => {
    const empty = trainLogistic([], []);
    expect(predict(empty, [])).toBe(0.5);
    expect(() =>
      trainLogistic(
        [
          [1, 2],
          [1, 2, 3],
        ],
        [true, false],
      ),
    ).toThrow(RangeError);
  });

  it('keeps the sigmoid finite at the extremes', () => {
    expect([sigmoid(0), sigmoid(1000), sigmoid(-1000)]).toEqual([0.5, 1, 0]);
  });

  it('predicts a probability within [0, 1] for any input', () => {
    const { rows, labels } = toySet(0);
    const model = trainLogistic(rows, labels, { epochs: 50 });
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.double({ min: -1e12, max: 1e12, noNaN: true }), (x, y) => {
        const p = predict(model, [x, y]);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });
});
