import { describe, expect, it } from 'vitest';
import {
  isValidDeviceId,
  isValidSessionId,
  normalizeEmail,
  normalizeIdentifiers,
  normalizeOpaqueIdentifier,
  normalizePhone,
} from '../../../src/modules/identity/domain/identifiers.js';
import { generateDeviceId, generateProfileId } from '../../../src/modules/identity/ids.js';

describe('normalizePhone', () => {
  it.each([
    ['+7 (912) 345-67-89', '79123456789'],
    ['89123456789', '79123456789'],
    ['9123456789', '79123456789'],
    ['79123456789', '79123456789'],
    ['8 912 345.67.89', '79123456789'],
    ['+44 20 7946 0958', '442079460958'],
    ['+1 (415) 555-26-71', '14155552671'],
    ['123456789012345', '123456789012345'],
  ])('turns %j into %s', (raw, expected) => {
    expect(normalizePhone(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['7912abc4567', 'letters'],
    ['', 'nothing'],
    ['+', 'only a plus'],
    ['912345678', 'nine digits'],
    ['1234567890123456', 'sixteen digits'],
    ['7912_345_67_89', 'underscores'],
    ['７９１２３４５６７８９', 'full-width digits'],
  ])('rejects %j (%s)', (raw) => {
    expect(normalizePhone(raw).ok).toBe(false);
  });
});

describe('normalizeEmail', () => {
  it.each([
    ['  Ann@Example.COM ', 'ann@example.com'],
    ['ann.lee+shop@mail.example.ru', 'ann.lee+shop@mail.example.ru'],
    ['a@b.co', 'a@b.co'],
  ])('turns %j into %s', (raw, expected) => {
    expect(normalizeEmail(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['ann', 'no @'],
    ['ann@example', 'no top-level domain'],
    ['ann@@example.com', 'two @'],
    ['an n@example.com', 'a space inside'],
    ['ann@example..com', 'an empty domain label'],
    ['@example.com', 'an empty local part'],
    ['', 'nothing'],
    [`${'a'.repeat(64)}@${'b'.repeat(186)}.com`, '255 characters'],
  ])('rejects %j (%s)', (raw) => {
    expect(normalizeEmail(raw).ok).toBe(false);
  });

  it('accepts an address of exactly 254 characters', () => {
    const raw = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(raw).toHaveLength(254);
    expect(normalizeEmail(raw)).toEqual({ ok: true, value: raw });
  });
});

describe('normalizeOpaqueIdentifier', () => {
  it('trims external ids', () => {
    expect(normalizeOpaqueIdentifier('  C-1001 ')).toEqual({ ok: true, value: 'C-1001' });
  });

  it('accepts 255 characters and rejects 256 or an empty string', () => {
    expect(normalizeOpaqueIdentifier('x'.repeat(255)).ok).toBe(true);
    expect(normalizeOpaqueIdentifier('x'.repeat(256)).ok).toBe(false);
    expect(normalizeOpaqueIdentifier('   ').ok).toBe(false);
  });
});

describe('normalizeIdentifiers', () => {
  it('normalises every kind and skips null ones', () => {
    expect(normalizeIdentifiers({ email: 'A@B.RU', phone: '8 (912) 345-67-89', externalId: ' 42 ', loyaltyId: null })).toEqual({
      ok: true,
      value: { email: 'a@b.ru', phone: '79123456789', externalId: '42' },
    });
  });

  it('names the invalid parameter by its contract name', () => {
    expect(normalizeIdentifiers({ email: 'a@b.ru', phone: '7912abc4567' })).toMatchObject({ ok: false, field: 'phone' });
    expect(normalizeIdentifiers({ telegramId: '' })).toMatchObject({ ok: false, field: 'telegram_id' });
  });
});

describe('device ids', () => {
  it.each([
    ['0000000000', true],
    ['aZ09aZ09aZ', true],
    ['abcdefghijk', true],
    ['abcd1234', true],
    ['9774d56d682e549c', true],
    ['5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C', true],
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['abcd123', false],
    ['INVALID_ID', false],
    ['abc', false],
    ['abcdefghi!', false],
    ['abcd efgh', false],
    ['абвгдежзий', false],
    ['', false],
  ])('%j is a well-formed did: %s', (did, expected) => {
    expect(isValidDeviceId(did)).toBe(expected);
  });

  it.each([
    ['0000000000', true],
    ['aZ09aZ09aZ', true],
    ['abcdefghijk', false],
    ['abcdefghi', false],
    ['abcd-efghi', false],
    ['9774d56d682e549c', false],
  ])('%j is a well-formed sid: %s', (sid, expected) => {
    expect(isValidSessionId(sid)).toBe(expected);
  });

  it('generates well-formed, different device ids', () => {
    const ids = Array.from({ length: 200 }, generateDeviceId);
    expect(ids.every(isValidDeviceId)).toBe(true);
    expect(new Set(ids).size).toBe(200);
  });

  it('generates profile ids that are positive safe integers', () => {
    const ids = Array.from({ length: 200 }, generateProfileId);
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
    expect(new Set(ids).size).toBe(200);
  });
});
