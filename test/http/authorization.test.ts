import { describe, expect, it } from 'vitest';
import { schemeCredential } from '../../src/http/authorization.js';

describe('schemeCredential', () => {
  it('reads the credential of its scheme, whatever the scheme name’s case and the spaces around it', () => {
    expect(schemeCredential('Bearer abcdefghijklmnop', 'Bearer')).toBe('abcdefghijklmnop');
    expect(schemeCredential('bearer   abc ', 'Bearer')).toBe('abc');
    expect(schemeCredential('ApplePass abcdefghijklmnop', 'ApplePass')).toBe('abcdefghijklmnop');
    expect(schemeCredential('applepass  abc ', 'ApplePass')).toBe('abc');
  });

  it('reads nothing from another scheme, an empty or two-word credential, or no header', () => {
    expect(schemeCredential('Bearer abcdefghijklmnop', 'ApplePass')).toBeUndefined();
    expect(schemeCredential('Basic dXNlcjpwYXNz', 'Bearer')).toBeUndefined();
    expect(schemeCredential('BearerX abc', 'Bearer')).toBeUndefined();
    expect(schemeCredential('ApplePass ', 'ApplePass')).toBeUndefined();
    expect(schemeCredential('ApplePass a b', 'ApplePass')).toBeUndefined();
    expect(schemeCredential('abc', 'Bearer')).toBeUndefined();
    expect(schemeCredential(undefined, 'Bearer')).toBeUndefined();
  });

  it('refuses a credential longer than the limit', () => {
    expect(schemeCredential(`Bearer ${'a'.repeat(128)}`, 'Bearer', 128)).toBe('a'.repeat(128));
    expect(schemeCredential(`Bearer ${'a'.repeat(129)}`, 'Bearer', 128)).toBeUndefined();
    expect(schemeCredential(`Bearer ${'a'.repeat(100_000)}`, 'Bearer')).toBeUndefined();
  });
});
