import { describe, expect, it } from 'vitest';
import {
  MAX_RECENCY_DAYS,
  purchaseFeatures,
  type CustomerActivity,
} from '../../../src/modules/recommendations/domain/purchase-features.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2025, 5, 1, 12);

describe('purchase features', () => {
  const activity: CustomerActivity = {
    orders: [
      { at: NOW - 400 * DAY, revenue: 1_000_000 },
      { at: NOW - 100 * DAY, revenue: 5_000 },
      { at: NOW - 10 * DAY, revenue: 14_999 },
    ],
    eventTimes: [NOW - 40 * DAY, NOW - 29 * DAY, NOW - DAY, NOW],
    firstSeenAt: NOW - 500 * DAY,
  };

  it('computes recency, frequency, money, activity and age as of now', () => {
    // Orders and revenue within 365 days: the 400-day-old order is out.
    expect(purchaseFeatures(activity, NOW)).toEqual([10, 2, Math.log1p(19_999), 3, 500]);
  });

  it('ignores everything after now, so a past cut-off cannot see its own label', () => {
    const later: CustomerActivity = {
      orders: [...activity.orders, { at: NOW + DAY, revenue: 99_999 }],
      eventTimes: [...activity.eventTimes, NOW + 1],
      firstSeenAt: activity.firstSeenAt,
    };
    expect(purchaseFeatures(later, NOW)).toEqual(purchaseFeatures(activity, NOW));
  });

  it('caps recency for a customer who never bought, and counts negative revenue as none', () => {
    expect(purchaseFeatures({ orders: [], eventTimes: [], firstSeenAt: NOW + DAY }, NOW)).toEqual([MAX_RECENCY_DAYS, 0, 0, 0, 0]);
    expect(purchaseFeatures({ orders: [{ at: NOW - 2000 * DAY, revenue: 1 }], eventTimes: [], firstSeenAt: 0 }, NOW)).toEqual([
      MAX_RECENCY_DAYS,
      0,
      0,
      0,
      3650,
    ]);
    expect(purchaseFeatures({ orders: [{ at: NOW, revenue: -500 }], eventTimes: [], firstSeenAt: NOW }, NOW)[2]).toBe(0);
  });
});
