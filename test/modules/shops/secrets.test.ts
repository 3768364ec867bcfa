import { describe, expect, it } from 'vitest';
import { hashSecret, secretMatches } from '../../../src/modules/shops/secrets.js';

describe('secrets at rest', () => {
  it('matches a secret or token against its stored SHA-256 and refuses any other', () => {
    const stored = hashSecret('the-token-of-the-pass');
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain('the-token');
    expect(secretMatches('the-token-of-the-pass', stored)).toBe(true);
    expect(secretMatches('the-token-of-the-pasS', stored)).toBe(false);
    expect(secretMatches('', stored)).toBe(false);
    expect(secretMatches('the-token-of-the-pass', 'not-a-hash')).toBe(false);
  });
});
