import { describe, expect, it } from 'vitest';
import { actionFilter, formatJson } from './audit.queries';

describe('actionFilter', () => {
  it('keeps an exact action or a prefix with its star, trimmed and lower-cased', () => {
    expect(actionFilter(' Shop.Update ')).toBe('shop.update');
    expect(actionFilter('loyalty.*')).toBe('loyalty.*');
  });

  it('reads a trailing dot as a prefix, and nothing typed as no filter', () => {
    expect(actionFilter('shop.secret.')).toBe('shop.secret.*');
    expect(actionFilter('   ')).toBeUndefined();
  });
});

describe('formatJson', () => {
  it('indents JSON and keeps markup as characters', () => {
    expect(formatJson({ name: '<b>x</b>' })).toBe('{\n  "name": "<b>x</b>"\n}');
    expect(formatJson(null)).toBe('—');
  });
});
