import { describe, expect, it } from 'vitest';
import { activeOf } from './nav';

const groups = [
  {
    links: [
      ['loyalty', 'Programme'],
      ['loyalty/members', 'Members'],
    ] as const,
  },
  {
    links: [
      ['products', 'Products'],
      ['products/hidden', 'Hidden'],
      ['customers', 'Customers'],
    ] as const,
  },
];

describe('activeOf', () => {
  const base = '/shops/abc/';
  it('lights the link of the page itself', () => {
    expect(activeOf('/shops/abc/loyalty', base, groups)).toBe('loyalty');
    expect(activeOf('/shops/abc/products', base, groups)).toBe('products');
  });
  it('prefers the longest link that is a prefix of the page', () => {
    expect(activeOf('/shops/abc/loyalty/members', base, groups)).toBe('loyalty/members');
    expect(activeOf('/shops/abc/loyalty/members/79001234567', base, groups)).toBe('loyalty/members');
    expect(activeOf('/shops/abc/products/hidden', base, groups)).toBe('products/hidden');
  });
  it('keeps a section lit on its sub-pages, and only on whole path segments', () => {
    expect(activeOf('/shops/abc/customers/123', base, groups)).toBe('customers');
    expect(activeOf('/shops/abc/customersx', base, groups)).toBeUndefined();
  });
  it('lights nothing outside the shop', () => {
    expect(activeOf('/users', base, groups)).toBeUndefined();
    expect(activeOf('/shops/other/loyalty', base, groups)).toBeUndefined();
  });
});
