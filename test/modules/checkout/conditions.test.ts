import { describe, expect, it } from 'vitest';
import {
  isPromotionLive,
  isWithinTimeOfDay,
  localMinutes,
  minutesInTimezone,
  orderConditionsHold,
  parseClockTime,
  promotionCovers,
  type OrderFacts,
} from '../../../src/modules/checkout/domain/conditions.js';
import { NOW, line, member, product, promotion } from './builders.js';

const order: OrderFacts = { orderTotal: 10_000, member: null, paymentType: null, stream: null, locationId: null, minutes: 900 };

describe('checkout time of day', () => {
  it('reads HH:MM of a 24-hour clock and nothing else', () => {
    expect(parseClockTime('00:00')).toBe(0);
    expect(parseClockTime('17:31')).toBe(17 * 60 + 31);
    expect(parseClockTime('23:59')).toBe(1439);
    for (const bad of ['25:99', '24:00', '7:30', '07:3', '07:60', '', ' 07:30', '07:30 ', 'ab:cd']) {
      expect(parseClockTime(bad)).toBeNull();
    }
    expect(parseClockTime(null)).toBeNull();
  });

  it("falls back to now in the shop's time zone when current_time is absent or malformed", () => {
    // 12:00 UTC is 15:00 in Moscow and 08:00 in New York (daylight time on 14 March 2025).
    expect(minutesInTimezone(NOW, 'Europe/Moscow')).toBe(900);
    expect(minutesInTimezone(NOW, 'America/New_York')).toBe(480);
    expect(localMinutes(null, NOW, 'Europe/Moscow')).toBe(900);
    expect(localMinutes('25:99', NOW, 'Europe/Moscow')).toBe(900);
    expect(localMinutes('09:15', NOW, 'Europe/Moscow')).toBe(555);
    expect(minutesInTimezone(Date.UTC(2025, 2, 14, 21, 0), 'Europe/Moscow')).toBe(0);
  });

  it('keeps a window from its start up to its end, wrapping midnight when the end is earlier', () => {
    const lunch = { from: 12 * 60, to: 14 * 60 };
    expect(isWithinTimeOfDay(lunch, 12 * 60)).toBe(true);
    expect(isWithinTimeOfDay(lunch, 14 * 60 - 1)).toBe(true);
    expect(isWithinTimeOfDay(lunch, 14 * 60)).toBe(false);
    expect(isWithinTimeOfDay(lunch, 11 * 60 + 59)).toBe(false);
    const night = { from: 22 * 60, to: 2 * 60 };
    expect(isWithinTimeOfDay(night, 23 * 60)).toBe(true);
    expect(isWithinTimeOfDay(night, 60)).toBe(true);
    expect(isWithinTimeOfDay(night, 2 * 60)).toBe(false);
    expect(isWithinTimeOfDay(night, 12 * 60)).toBe(false);
    expect(isWithinTimeOfDay({ from: 300, to: 300 }, 1000)).toBe(true);
  });
});

describe('checkout promotion conditions', () => {
  it('counts active and scheduled promotions inside their window only', () => {
    expect(isPromotionLive(promotion(1), NOW)).toBe(true);
    expect(isPromotionLive(promotion(1, { status: 'scheduled', startsAt: NOW, endsAt: NOW + 1 }), NOW)).toBe(true);
    expect(isPromotionLive(promotion(1, { status: 'scheduled', startsAt: NOW + 1 }), NOW)).toBe(false);
    expect(isPromotionLive(promotion(1, { status: 'active', endsAt: NOW }), NOW)).toBe(false);
    for (const status of ['draft', 'inactive', 'archived'] as const) {
      expect(isPromotionLive(promotion(1, { status }), NOW)).toBe(false);
    }
  });

  it('checks the minimum order total, stream, payment type and location against the order', () => {
    expect(orderConditionsHold(promotion(1, { conditions: { minOrderTotal: 10_000 } }), order)).toBe(true);
    expect(orderConditionsHold(promotion(1, { conditions: { minOrderTotal: 10_001 } }), order)).toBe(false);
    const pos = promotion(1, { conditions: { streams: ['pos'], paymentTypes: ['cash'], locationIds: ['msk-1'] } });
    expect(orderConditionsHold(pos, order)).toBe(false);
    expect(orderConditionsHold(pos, { ...order, stream: 'pos', paymentType: 'cash', locationId: 'msk-1' })).toBe(true);
    expect(orderConditionsHold(pos, { ...order, stream: 'ios', paymentType: 'cash', locationId: 'msk-1' })).toBe(false);
    expect(orderConditionsHold(pos, { ...order, stream: 'pos', paymentType: 'card', locationId: 'msk-1' })).toBe(false);
    expect(orderConditionsHold(pos, { ...order, stream: 'pos', paymentType: 'cash', locationId: 'spb-1' })).toBe(false);
  });

  it('checks the time of day, the member level and the first order', () => {
    const happyHour = promotion(1, { conditions: { timeOfDay: { from: 17 * 60, to: 19 * 60 } } });
    expect(orderConditionsHold(happyHour, order)).toBe(false);
    expect(orderConditionsHold(happyHour, { ...order, minutes: 17 * 60 + 31 })).toBe(true);
    const gold = promotion(1, { conditions: { memberLevels: ['gold'] } });
    expect(orderConditionsHold(gold, order)).toBe(false);
    expect(orderConditionsHold(gold, { ...order, member: member({ levelCode: 'silver' }) })).toBe(false);
    expect(orderConditionsHold(gold, { ...order, member: member({ levelCode: 'gold' }) })).toBe(true);
    const first = promotion(1, { conditions: { firstOrderOnly: true } });
    expect(orderConditionsHold(first, order)).toBe(false);
    expect(orderConditionsHold(first, { ...order, member: member({ isFirstOrder: false }) })).toBe(false);
    expect(orderConditionsHold(first, { ...order, member: member({ isFirstOrder: true }) })).toBe(true);
  });

  it('covers every line, known or not, when bound to no product', () => {
    expect(promotionCovers(promotion(1), line('A', 100), product('A'))).toBe(true);
    expect(promotionCovers(promotion(1), line('X', 100), undefined)).toBe(true);
  });

  it('covers listed products and products of a category or of its descendants', () => {
    const p = promotion(1, { conditions: { productIds: ['A'], categoryIds: ['food'] } });
    expect(promotionCovers(p, line('A', 100), product('A'))).toBe(true);
    // The feed gives a product's categories with their ancestors: coffee lies under food.
    expect(promotionCovers(p, line('B', 100), product('B', ['coffee', 'food']))).toBe(true);
    expect(promotionCovers(p, line('C', 100), product('C', ['kitchen']))).toBe(false);
  });

  it('never binds a product the feed does not know', () => {
    const p = promotion(1, { conditions: { productIds: ['X'] } });
    expect(promotionCovers(p, line('X', 100), undefined)).toBe(false);
    const special = promotion(2, { discount: { kind: 'special_price', prices: [{ productId: 'X', price: 50 }] } });
    expect(promotionCovers(special, line('X', 100), undefined)).toBe(false);
  });

  it('limits a special price to the products it lists, within its product filter', () => {
    const special = promotion(1, { discount: { kind: 'special_price', prices: [{ productId: 'A', price: 50 }] } });
    expect(promotionCovers(special, line('A', 100), product('A'))).toBe(true);
    expect(promotionCovers(special, line('B', 100), product('B'))).toBe(false);
    const filtered = promotion(2, {
      conditions: { categoryIds: ['food'] },
      discount: { kind: 'special_price', prices: [{ productId: 'A', price: 50 }] },
    });
    expect(promotionCovers(filtered, line('A', 100), product('A', ['kitchen']))).toBe(false);
    expect(promotionCovers(filtered, line('A', 100), product('A', ['food']))).toBe(true);
  });
});
