import { describe, expect, it } from 'vitest';
import { customerQuery, filtersFrom, nextDay, paramsOf, searchQuery } from './log-filters';

describe('the delivery log filters', () => {
  it('round-trips through the address, dropping empty ones', () => {
    const filters = filtersFrom(new URLSearchParams('customer=kate%40example.org&channel=email&code=&x=1'));
    expect(filters).toEqual({ customer: 'kate@example.org', channel: 'email' });
    expect(paramsOf(filters).toString()).toBe('customer=kate%40example.org&channel=email');
  });

  it('reads the customer box as a profile id, an email or a phone', () => {
    expect(customerQuery('42')).toEqual({ profile_id: 42 });
    expect(customerQuery(' kate@example.org ')).toEqual({ email: 'kate@example.org' });
    expect(customerQuery('+7 900 123-45-67')).toEqual({ phone: '+7 900 123-45-67' });
    expect(customerQuery('0')).toEqual({ phone: '0' });
  });

  it("makes the period whole days in the shop's zone, the last day included", () => {
    expect(searchQuery({ from: '2026-01-01', to: '2026-01-31' }, 'Europe/Moscow')).toEqual({
      from: '2025-12-31T21:00:00.000Z',
      to: '2026-01-31T21:00:00.000Z',
    });
  });

  it('leaves out a channel, status or outcome the API does not know', () => {
    expect(searchQuery({ channel: 'fax', status: 'sent', outcome: 'eaten', code: 'm1' }, 'UTC')).toEqual({ status: 'sent', code: 'm1' });
  });

  it('steps to the next day across a month and a year', () => {
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('nope')).toBe('nope');
  });
});
