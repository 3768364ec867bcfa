import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('the path to return to after sign-in', () => {
  it('keeps a path of the app with its query and hash', () => {
    expect(safeNextPath('/shops/0123456789abcdef0123456789abcd/settings')).toBe('/shops/0123456789abcdef0123456789abcd/settings');
    expect(safeNextPath('/shops?page=2#top')).toBe('/shops?page=2#top');
  });

  it('refuses anything that could leave the app: other hosts, schemes, backslashes, control characters', () => {
    for (const next of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '/%0d%0a//evil.example'.replace('%0d%0a', '\r\n'),
      '/\t/evil.example',
      '',
      null,
      undefined,
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeNextPath(next), String(next)).toBe('/');
    }
  });

  it('does not send a person back to sign-in or to an invitation', () => {
    expect(safeNextPath('/sign-in?next=/shops')).toBe('/');
    expect(safeNextPath('/invite/abc')).toBe('/');
  });
});
