import { describe, expect, it } from 'vitest';
import { normalizeAmount, normalizeItem, normalizeItems, toFiniteNumber } from '../../../src/modules/tracking/domain/items.js';
import { interpretSource } from '../../../src/modules/tracking/domain/source.js';

describe('item normalisation (interface.md, POST /push)', () => {
  it.each([
    [0, 1],
    [-5, 1],
    ['0', 1],
    [1, 1],
    [1000, 1000],
    [1001, 1000],
    ['1500', 1000],
    ['7', 7],
    [2.9, 2],
    ['abc', 1],
    [undefined, 1],
  ])('clamps amount %j to %j', (raw, expected) => {
    expect(normalizeAmount(raw)).toBe(expected);
  });

  it('reads quantity as a synonym of amount', () => {
    expect(normalizeItem({ id: 'a', quantity: '3' })).toEqual({ ok: true, item: { id: 'a', amount: 3 } });
  });

  it('prefers amount over quantity when both are given', () => {
    expect(normalizeItem({ id: 'a', amount: 2, quantity: 9 })).toEqual({ ok: true, item: { id: 'a', amount: 2 } });
  });

  it.each([
    [-1, undefined],
    ['abc', undefined],
    [{}, undefined],
    ['12.50', 12.5],
    [0, 0],
    [99.9, 99.9],
  ])('keeps price %j as %j', (price, expected) => {
    const result = normalizeItem({ id: 'a', price });
    expect(result.ok).toBe(true);
    expect(result.ok ? result.item.price : 'dropped').toBe(expected);
  });

  it('omits empty line_id and fashion_size and keeps non-empty ones', () => {
    expect(normalizeItem({ id: 'a', line_id: '', fashion_size: '' })).toEqual({ ok: true, item: { id: 'a', amount: 1 } });
    expect(normalizeItem({ id: 'a', line_id: 'L1', fashion_size: 'XL' })).toEqual({
      ok: true,
      item: { id: 'a', amount: 1, line_id: 'L1', fashion_size: 'XL' },
    });
  });

  it.each([
    [{ id: '' }, 'id_missing'],
    [{ amount: 1 }, 'id_missing'],
    [{ id: 'x'.repeat(256) }, 'id_too_long'],
    [{ id: 'a\\b' }, 'id_invalid'],
    ['abc', 'not_an_object'],
    [null, 'not_an_object'],
  ])('drops item %j for %s', (raw, reason) => {
    expect(normalizeItem(raw)).toEqual({ ok: false, reason });
  });

  it('accepts an id of exactly 255 characters and a numeric id', () => {
    expect(normalizeItem({ id: 'x'.repeat(255) }).ok).toBe(true);
    expect(normalizeItem({ id: 42 })).toEqual({ ok: true, item: { id: '42', amount: 1 } });
  });

  it('counts dropped items', () => {
    const result = normalizeItems([{ id: 'a' }, { id: '' }, { id: 'b\\' }]);
    expect(result.items.map((i) => i.id)).toEqual(['a']);
    expect(result.dropped).toBe(2);
  });

  it('does not treat hexadecimal or empty strings as numbers', () => {
    expect(toFiniteNumber('0x10')).toBeUndefined();
    expect(toFiniteNumber('')).toBeUndefined();
    expect(toFiniteNumber('Infinity')).toBeUndefined();
  });
});

describe('source rules (interface.md, Events)', () => {
  it('rule 1: applies from/code of a JSON string', () => {
    expect(interpretSource('{"from":"dynamic","code":"abc"}')).toEqual({
      kind: 'applied',
      recommendedBy: 'dynamic',
      recommendedCode: 'abc',
    });
  });

  it('rule 1: applies from/code of an object', () => {
    expect(interpretSource({ from: 'chain', code: 'c1' })).toEqual({ kind: 'applied', recommendedBy: 'chain', recommendedCode: 'c1' });
  });

  it.each([[{ from: 'nowhere', code: 'x' }], [{ code: 'x' }], [{ from: 'dynamic' }], ['{"from":"dynamic"}'], ['{}'], ['[1,2]']])(
    'rule 2: ignores %j',
    (raw) => {
      expect(interpretSource(raw)).toEqual({ kind: 'ignored' });
    },
  );

  it.each([[''], ['   '], ['not json'], ['{"from":']])('rule 3: rejects %j', (raw) => {
    expect(interpretSource(raw)).toEqual({ kind: 'invalid' });
  });
});
