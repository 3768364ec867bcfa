import { describe, expect, it } from 'vitest';
import {
  allowanceOf,
  findBenefitsProblem,
  NO_USAGE,
  type Benefit,
  type PromosBenefit,
} from '../../../src/modules/subscriptions/domain/benefits.js';
import { addDays, isPaid, periodOf } from '../../../src/modules/subscriptions/domain/periods.js';

describe('billing periods', () => {
  it('counts periods from the start day in period_days steps', () => {
    expect(periodOf('2026-01-10', 30, '2026-01-10')).toEqual({ start: '2026-01-10', next: '2026-02-09' });
    expect(periodOf('2026-01-10', 30, '2026-02-08')).toEqual({ start: '2026-01-10', next: '2026-02-09' });
    expect(periodOf('2026-01-10', 30, '2026-02-09')).toEqual({ start: '2026-02-09', next: '2026-03-11' });
    expect(periodOf('2026-01-10', 7, '2026-03-01')).toEqual({ start: '2026-02-28', next: '2026-03-07' });
  });

  it('crosses a leap day and the end of a year by calendar days', () => {
    expect(periodOf('2027-12-20', 10, '2028-02-29')).toEqual({ start: '2028-02-28', next: '2028-03-09' });
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('puts a day before the start in the first period', () => {
    expect(periodOf('2026-01-10', 30, '2026-01-01')).toEqual({ start: '2026-01-10', next: '2026-02-09' });
  });

  it('refuses a period of no days', () => {
    expect(() => periodOf('2026-01-10', 0, '2026-01-10')).toThrow(RangeError);
  });

  it('is paid through the last paid day, not after', () => {
    expect(isPaid('2026-01-31', '2026-01-31')).toBe(true);
    expect(isPaid('2026-01-31', '2026-02-01')).toBe(false);
  });
});

const promos: PromosBenefit = { code: 'sale', name: 'Sale', dataType: 'promos', promotionIds: [1], savingsLimit: 1000_00, usageLimit: 3 };

describe('plan benefits', () => {
  it('accepts the three kinds', () => {
    const benefits: Benefit[] = [
      { code: 'free_delivery', name: 'Free delivery', dataType: 'boolean', value: true },
      { code: 'extra', name: 'Extra', dataType: 'integer', value: 1_000_000 },
      promos,
    ];
    expect(findBenefitsProblem(benefits)).toBeUndefined();
  });

  it('refuses an integer benefit of 1,000,001 and a negative one', () => {
    expect(findBenefitsProblem([{ code: 'x', name: 'X', dataType: 'integer', value: 1_000_001 }])).toEqual({
      field: 'benefits[0].value',
      message: 'Field `benefits[0].value` of an integer benefit must be an integer from 0 to 1,000,000.',
    });
    expect(findBenefitsProblem([{ code: 'x', name: 'X', dataType: 'integer', value: -1 }])?.field).toBe('benefits[0].value');
  });

  it('refuses a plan without benefits, a code twice and a promos benefit without promotions', () => {
    expect(findBenefitsProblem([])?.message).toBe('Field `benefits` must hold at least one benefit.');
    expect(findBenefitsProblem([promos, promos])?.message).toBe('Benefit code `sale` is used twice in the plan.');
    expect(findBenefitsProblem([{ ...promos, promotionIds: [] }])?.field).toBe('benefits[0].promotion_ids');
    expect(findBenefitsProblem([{ ...promos, promotionIds: [1, 1] }])?.field).toBe('benefits[0].promotion_ids');
  });

  it('counts held amounts as used and never answers a negative left', () => {
    expect(allowanceOf(promos, NO_USAGE)).toEqual({
      savingsLimit: 1000_00,
      savingsUsed: 0,
      savingsLeft: 1000_00,
      usageLimit: 3,
      usageUsed: 0,
      usageLeft: 3,
    });
    expect(allowanceOf(promos, { savingsUsed: 300_00, savingsHeld: 200_00, usageUsed: 1, usageHeld: 1 })).toMatchObject({
      savingsUsed: 500_00,
      savingsLeft: 500_00,
      usageUsed: 2,
      usageLeft: 1,
    });
    expect(
      allowanceOf({ ...promos, usageLimit: 1, savingsLimit: 100 }, { savingsUsed: 500, savingsHeld: 0, usageUsed: 2, usageHeld: 0 }),
    ).toMatchObject({
      savingsLeft: 0,
      usageLeft: 0,
    });
  });
});
