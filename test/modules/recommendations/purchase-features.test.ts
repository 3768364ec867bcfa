import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_WINDOW_DAYS,
  MAX_ACTIVITY_30D,
  MAX_RECENCY_DAYS,
  PurchaseTally,
  purchaseFeatures,
  summaryFeatures,
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
    activityTimes: [NOW - 70 * DAY, NOW - 40 * DAY, NOW - 29 * DAY, NOW - DAY],
  };

  it('computes recency, frequency, money, activity and idleness as of now', () => {
    // Orders and revenue within 365 days: the 400-day-old order is out; views within 30 days: 2; the last a day ago.
    expect(purchaseFeatures(activity, NOW)).toEqual([10, 2, Math.log1p(19_999), 2, 1]);
  });

  it('ignores everything after now, so a past cut-off cannot see its own label', () => {
    const later: CustomerActivity = {
      orders: [...activity.orders, { at: NOW + DAY, revenue: 99_999 }],
      activityTimes: [...activity.activityTimes, NOW + 1],
    };
    expect(purchaseFeatures(later, NOW)).toEqual(purchaseFeatures(activity, NOW));
  });

  it('caps recency, idleness and activity, and counts negative revenue as none', () => {
    expect(purchaseFeatures({ orders: [], activityTimes: [] }, NOW)).toEqual([MAX_RECENCY_DAYS, 0, 0, 0, ACTIVITY_WINDOW_DAYS]);
    expect(purchaseFeatures({ orders: [{ at: NOW - 2000 * DAY, revenue: 1 }], activityTimes: [] }, NOW)[0]).toBe(MAX_RECENCY_DAYS);
    expect(purchaseFeatures({ orders: [{ at: NOW, revenue: -500 }], activityTimes: [] }, NOW)[2]).toBe(0);
    const busy = Array.from({ length: 500 }, (_, i) => NOW - i * 1000);
    expect(purchaseFeatures({ orders: [], activityTimes: busy }, NOW)[3]).toBe(MAX_ACTIVITY_30D);
  });

  it('gives a request the same row from a summary of the year as from the orders themselves', () => {
    const yearOrders = activity.orders.filter((o) => o.at > NOW - 365 * DAY);
    expect(
      summaryFeatures(
        {
          lastOrderAt: NOW - 10 * DAY,
          orders365d: yearOrders.length,
          revenue365d: yearOrders.reduce((sum, o) => sum + o.revenue, 0),
          activityTimes: activity.activityTimes.filter((at) => at > NOW - ACTIVITY_WINDOW_DAYS * DAY),
        },
        NOW,
      ),
    ).toEqual(purchaseFeatures(activity, NOW));
  });

  it('tallies every customer as purchaseFeatures would, labels from the horizon after, and leaves out the inactive', () => {
    const tally = new PurchaseTally(NOW, 30 * DAY);
    for (const order of activity.orders) tally.addOrder(1, order.at, order.revenue);
    for (const at of activity.activityTimes) tally.addActivity(1, at);
    tally.addOrder(1, NOW + 5 * DAY, 100);
    tally.addActivity(2, NOW - 5 * DAY);
    tally.addOrder(2, NOW + 31 * DAY, 100);
    // Only a purchase after the cut-off: not a customer yet at the cut-off.
    tally.addOrder(3, NOW + DAY, 100);
    expect([...tally.rows()]).toEqual([
      { profileId: 1, features: purchaseFeatures(activity, NOW), label: true },
      { profileId: 2, features: [MAX_RECENCY_DAYS, 0, 0, 1, 5], label: false },
    ]);
  });
});
