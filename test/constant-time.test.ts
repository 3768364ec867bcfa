import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../src/constant-time.js';

describe('constantTimeEqual', () => {
  it('is true only for the same bytes, as strings or buffers', () => {
    expect(constantTimeEqual('s3cr3t-signature', 's3cr3t-signature')).toBe(true);
    expect(constantTimeEqual(Buffer.from('ab01', 'hex'), Buffer.from([0xab, 0x01]))).toBe(true);
    expect(constantTimeEqual('s3cr3t-signature', 's3cr3t-signaturE')).toBe(false);
    expect(constantTimeEqual('Ä', 'A\u0308')).toBe(false);
  });

  it('is false for values of another length, including the empty string, without throwing', () => {
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'abc')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
