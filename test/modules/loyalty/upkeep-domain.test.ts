import { describe, expect, it } from 'vitest';
import { decodeMemberCursor, encodeMemberCursor, memberSearch } from '../../../src/modules/loyalty/domain/member-list.js';
import { firstLinkAt, HOUR_MS, lotDueAt, MINUTE_MS, nextLinkAt } from '../../../src/modules/loyalty/domain/upkeep.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('lotDueAt', () => {
  it('is the earlier of a pending lot confirms_at and its expiry', () => {
    expect(lotDueAt({ status: 'pending', confirmsAt: NOW + 5, expiresAt: NOW + 9 })).toBe(NOW + 5);
    expect(lotDueAt({ status: 'pending', confirmsAt: NOW + 9, expiresAt: NOW + 5 })).toBe(NOW + 5);
    expect(lotDueAt({ status: 'pending', confirmsAt: NOW + 9, expiresAt: null })).toBe(NOW + 9);
  });

  it('is the expiry of a confirmed lot, and null for one that never expires or a pending lot nothing confirms by time', () => {
    expect(lotDueAt({ status: 'confirmed', confirmsAt: NOW + 1, expiresAt: NOW + 7 })).toBe(NOW + 7);
    expect(lotDueAt({ status: 'confirmed', expiresAt: null })).toBeNull();
    expect(lotDueAt({ status: 'pending', confirmsAt: null, expiresAt: null })).toBeNull();
  });
});

describe('nextLinkAt', () => {
  it('runs at the earliest due instant between a minute and an hour from now', () => {
    expect(nextLinkAt(NOW, NOW + 20 * MINUTE_MS, false)).toBe(NOW + 20 * MINUTE_MS);
    expect(nextLinkAt(NOW, NOW + 1, false)).toBe(NOW + MINUTE_MS);
    expect(nextLinkAt(NOW, NOW - HOUR_MS, false)).toBe(NOW + MINUTE_MS);
    expect(nextLinkAt(NOW, NOW + 3 * HOUR_MS, false)).toBe(NOW + HOUR_MS);
  });

  it('runs hourly for active holds alone, and ends the chain when nothing will be due', () => {
    expect(nextLinkAt(NOW, null, true)).toBe(NOW + HOUR_MS);
    expect(nextLinkAt(NOW, null, false)).toBeNull();
  });
});

describe('firstLinkAt', () => {
  it('runs work already due at once and far work within the hour', () => {
    expect(firstLinkAt(NOW, NOW - 5)).toBe(NOW);
    expect(firstLinkAt(NOW, NOW + 5)).toBe(NOW + 5);
    expect(firstLinkAt(NOW, NOW + 400 * HOUR_MS)).toBe(NOW + HOUR_MS);
  });
});

describe('member cursor', () => {
  it('round-trips a position and is opaque', () => {
    const cursor = { joinedAt: NOW, profileId: 8_123_456_789_012 };
    const text = encodeMemberCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).not.toContain(String(cursor.profileId));
    expect(decodeMemberCursor(text)).toEqual(cursor);
  });

  it('refuses text it did not give out', () => {
    for (const text of [
      '',
      'abc',
      '!!!',
      Buffer.from('1.x').toString('base64url'),
      Buffer.from('99999999999999999.1').toString('base64url'),
      'A'.repeat(65),
    ]) {
      expect(decodeMemberCursor(text), text).toBeUndefined();
    }
  });
});

describe('memberSearch', () => {
  it('compares digits with the phone once separators are out, and the text as written with the loyalty_id', () => {
    expect(memberSearch('+7 (900) 12')).toEqual({ prefix: '+7 (900) 12', phonePrefix: '790012' });
    expect(memberSearch('CARD-7')).toEqual({ prefix: 'CARD-7', phonePrefix: undefined });
    expect(memberSearch('8900')).toEqual({ prefix: '8900', phonePrefix: '8900' });
  });
});
