import { describe, expect, it } from 'vitest';
import { todayIn } from '../shops/shop.queries';
import { addDays, checkPeriod, choiceOf, everyDay, paramsOf, periodLength, periodOf, presetPeriod } from './period';

describe('the dashboard period', () => {
  it("ends the presets on today in the shop's zone, both ends included", () => {
    // 22:30 UTC on 1 March is already 2 March in Moscow, still 1 March in New York.
    const now = new Date('2026-03-01T22:30:00Z');
    expect(presetPeriod(7, todayIn('Europe/Moscow', now))).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(presetPeriod(7, todayIn('America/New_York', now))).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(periodLength(presetPeriod(30, '2026-03-02'))).toBe(30);
    expect(presetPeriod(90, '2026-03-31')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
  });

  it('lists every day across a month end and a leap day', () => {
    expect(everyDay({ from: '2028-02-27', to: '2028-03-01' })).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(everyDay({ from: '2026-03-05', to: '2026-03-05' })).toEqual(['2026-03-05']);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('takes 366 days and refuses 367, a date that does not exist and an end before the start', () => {
    expect(checkPeriod('2027-01-01', '2028-01-01')).toBeNull();
    expect(checkPeriod('2027-01-01', '2028-01-02')).toEqual({ field: 'to', kind: 'tooLong', days: 367 });
    expect(checkPeriod('1926-01-01', '2026-01-01')).toMatchObject({ field: 'to', kind: 'tooLong' });
    expect(checkPeriod('2026-02-30', '2026-03-01')).toEqual({ field: 'from', kind: 'invalid' });
    expect(checkPeriod('2026-03-01', '')).toEqual({ field: 'to', kind: 'missing' });
    expect(checkPeriod('2026-03-02', '2026-03-01')).toEqual({ field: 'to', kind: 'order' });
  });

  it('reads a preset or a custom period from the address and writes it back', () => {
    expect(choiceOf(new URLSearchParams(''))).toEqual({ kind: 'preset', days: 30 });
    expect(choiceOf(new URLSearchParams('days=7'))).toEqual({ kind: 'preset', days: 7 });
    expect(choiceOf(new URLSearchParams('days=12'))).toEqual({ kind: 'preset', days: 30 });
    const custom = choiceOf(new URLSearchParams('from=2026-01-01&to=2026-01-31'));
    expect(custom).toEqual({ kind: 'custom', from: '2026-01-01', to: '2026-01-31' });
    expect(choiceOf(new URLSearchParams(paramsOf(custom)))).toEqual(custom);
    expect(periodOf(custom, '2026-03-01')).toEqual({ period: { from: '2026-01-01', to: '2026-01-31' } });
    expect(periodOf({ kind: 'custom', from: '2025-01-01', to: '2026-06-01' }, '2026-03-01')).toEqual({
      problem: { field: 'to', kind: 'tooLong', days: 517 },
    });
  });
});
