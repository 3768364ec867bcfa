import { describe, expect, it } from 'vitest';
import { listOf, percentOf, specialPricesOf, specialPricesText, timeOfDayOf } from './promotion-conditions';

describe('promotion conditions', () => {
  it('reads a list separated by commas or spaces, each value once', () => {
    expect(listOf(' ios, android  web,,ios ')).toEqual(['ios', 'android', 'web']);
    expect(listOf('  ')).toEqual([]);
  });

  it('takes a window of the day only as two HH:MM times, and none when both are empty', () => {
    expect(timeOfDayOf('', ' ')).toBeNull();
    expect(timeOfDayOf('22:00', '06:00')).toEqual({ from: '22:00', to: '06:00' });
    expect(timeOfDayOf('22:00', '')).toBeUndefined();
    expect(timeOfDayOf('24:00', '06:00')).toBeUndefined();
    expect(timeOfDayOf('9:00', '10:00')).toBeUndefined();
    expect(timeOfDayOf('10:00', '10:00')).toBeUndefined();
  });

  it('reads a percent from 0 to 100', () => {
    expect(percentOf('')).toBe(0);
    expect(percentOf('12,5')).toBe(12.5);
    expect(percentOf('100')).toBe(100);
    expect(percentOf('100.01')).toBeUndefined();
    expect(percentOf('-1')).toBeUndefined();
    expect(percentOf('ten')).toBeUndefined();
  });

  it('reads special prices one a line and names the first line that is not one', () => {
    expect(specialPricesOf('sku-1 = 990\nsku-2: 1 500,50\n\nsku-3 10')).toEqual({ prices: { 'sku-1': 990, 'sku-2': 1500.5, 'sku-3': 10 } });
    expect(specialPricesOf('sku-1 = 990\nsku-2 = 15.505')).toEqual({ badLine: 2 });
    expect(specialPricesOf('sku-1 = -5')).toEqual({ badLine: 1 });
    expect(specialPricesOf('sku-1')).toEqual({ badLine: 1 });
    expect(specialPricesOf('')).toEqual({ prices: {} });
  });

  it('writes stored special prices back as lines that read the same', () => {
    const prices = { 'sku-1': 990, 'sku-2': 1500.5 };
    expect(specialPricesOf(specialPricesText(prices))).toEqual({ prices });
  });
});
