import { describe, expect, it } from 'vitest';
import {
  canTransition,
  inTimeOfDay,
  isActiveAt,
  minuteOfDay,
  PROMOTION_STATUSES,
  validatePromotion,
  type PromotionInput,
} from '../../../src/modules/promotions/domain/promotion.js';
import { PROMOTION } from './fixtures.js';

const T = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

const BASE = PROMOTION;

const failure = (p: PromotionInput) => {
  const result = validatePromotion(p);
  return result.ok ? undefined : { field: result.field, message: result.message };
};

describe('isActiveAt', () => {
  it('takes an active promotion as active without bounds, and within its bounds only when it has them', () => {
    expect(isActiveAt({ status: 'active', startsAt: null, endsAt: null }, T)).toBe(true);
    const bounded = { status: 'active' as const, startsAt: T, endsAt: T + HOUR };
    expect(isActiveAt(bounded, T - 1)).toBe(false);
    expect(isActiveAt(bounded, T)).toBe(true);
    expect(isActiveAt(bounded, T + HOUR - 1)).toBe(true);
    expect(isActiveAt(bounded, T + HOUR)).toBe(false);
  });

  it('takes a scheduled promotion as active from starts_at inclusive to ends_at exclusive, by the time given', () => {
    const scheduled = { status: 'scheduled' as const, startsAt: T, endsAt: T + HOUR };
    expect(isActiveAt(scheduled, T - 1)).toBe(false);
    expect(isActiveAt(scheduled, T)).toBe(true);
    expect(isActiveAt(scheduled, T + HOUR)).toBe(false);
    expect(isActiveAt({ status: 'scheduled', startsAt: T, endsAt: null }, T + 1000 * HOUR)).toBe(true);
    expect(isActiveAt({ status: 'scheduled', startsAt: null, endsAt: null }, T)).toBe(false);
  });

  it('never takes a draft, inactive or archived promotion as active, whatever its dates', () => {
    for (const status of ['draft', 'inactive', 'archived'] as const) {
      expect(isActiveAt({ status, startsAt: T - HOUR, endsAt: T + HOUR }, T)).toBe(false);
    }
  });
});

describe('canTransition', () => {
  it('lets a draft go anywhere, the published statuses move among themselves, and nothing leave archived', () => {
    for (const to of PROMOTION_STATUSES) expect(canTransition('draft', to)).toBe(true);
    for (const from of ['scheduled', 'inactive', 'active'] as const) {
      expect(canTransition(from, 'draft')).toBe(false);
      for (const to of ['scheduled', 'inactive', 'active', 'archived'] as const) expect(canTransition(from, to)).toBe(true);
    }
    for (const to of PROMOTION_STATUSES) expect(canTransition('archived', to)).toBe(false);
  });
});

describe('time of day', () => {
  it('reads HH:MM and refuses 25:99 and other malformed times', () => {
    expect(minuteOfDay('00:00')).toBe(0);
    expect(minuteOfDay('23:59')).toBe(1439);
    for (const bad of ['25:99', '24:00', '9:00', '09:60', '0900', '']) expect(minuteOfDay(bad)).toBeNull();
  });

  it('matches from inclusive to exclusive, wrapping past midnight when from is after to', () => {
    const day = { from: '09:00', to: '18:00' };
    expect(inTimeOfDay(day, 9 * 60)).toBe(true);
    expect(inTimeOfDay(day, 18 * 60)).toBe(false);
    expect(inTimeOfDay(day, 8 * 60 + 59)).toBe(false);
    const night = { from: '22:00', to: '06:00' };
    expect(inTimeOfDay(night, 23 * 60)).toBe(true);
    expect(inTimeOfDay(night, 5 * 60)).toBe(true);
    expect(inTimeOfDay(night, 12 * 60)).toBe(false);
  });
});

describe('validatePromotion', () => {
  it('accepts a full promotion with every condition and action', () => {
    expect(
      validatePromotion({
        ...BASE,
        status: 'scheduled',
        startsAt: T,
        endsAt: T + HOUR,
        priority: 10,
        discount: { type: 'fixed', value: 50_000 },
        productIds: ['p1'],
        categoryIds: ['c1'],
        minOrderTotal: 0,
        streams: ['ios'],
        paymentTypes: ['card'],
        byPromoCode: true,
        bonusRewardPercent: 250,
        locations: ['msk'],
        timeOfDay: { from: '22:00', to: '06:00' },
        memberLevels: ['gold'],
        firstOrderOnly: true,
        specialPrices: { p1: 9_900 },
      }),
    ).toEqual({ ok: true });
  });

  it('names the field of each broken rule', () => {
    expect(failure({ ...BASE, name: ' ' })?.field).toBe('name');
    expect(failure({ ...BASE, status: 'scheduled' })).toEqual({
      field: 'starts_at',
      message: 'Field `starts_at` is required for a scheduled promotion.',
    });
    expect(failure({ ...BASE, startsAt: T, endsAt: T })?.field).toBe('ends_at');
    expect(failure({ ...BASE, discount: { type: 'percent', value: 10_001 } })?.field).toBe('discount.value');
    expect(failure({ ...BASE, discount: { type: 'percent', value: -1 } })?.field).toBe('discount.value');
    expect(failure({ ...BASE, discount: { type: 'fixed', value: 0 } })?.field).toBe('discount.value');
    expect(failure({ ...BASE, bonusRewardPercent: 10_001 })?.field).toBe('bonus_reward_percent');
    expect(failure({ ...BASE, priority: 1.5 })?.field).toBe('priority');
    expect(failure({ ...BASE, minOrderTotal: -1 })?.field).toBe('min_order_total');
    expect(failure({ ...BASE, productIds: Array.from({ length: 10_001 }, (_, i) => `p${i}`) })?.field).toBe('product_ids');
    expect(failure({ ...BASE, categoryIds: ['ok', ''] })?.field).toBe('category_ids[1]');
    expect(failure({ ...BASE, streams: ['x'.repeat(65)] })?.field).toBe('streams[0]');
    expect(failure({ ...BASE, timeOfDay: { from: '25:99', to: '06:00' } })?.field).toBe('time_of_day.from');
    expect(failure({ ...BASE, timeOfDay: { from: '06:00', to: '06:00' } })?.field).toBe('time_of_day.to');
    expect(failure({ ...BASE, specialPrices: { p1: 0 } })?.field).toBe('special_prices.p1');
  });

  it('accepts exactly 10,000 product ids and percents of 0 and 100', () => {
    expect(validatePromotion({ ...BASE, productIds: Array.from({ length: 10_000 }, (_, i) => `p${i}`) }).ok).toBe(true);
    expect(validatePromotion({ ...BASE, discount: { type: 'percent', value: 0 } }).ok).toBe(true);
    expect(validatePromotion({ ...BASE, discount: { type: 'percent', value: 10_000 } }).ok).toBe(true);
  });
});
