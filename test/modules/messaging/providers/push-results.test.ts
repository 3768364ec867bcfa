import { describe, expect, it } from 'vitest';
import { retryAfterMs, vendorWords } from '../../../../src/modules/messaging/providers/push-results.js';

const now = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('retryAfterMs', () => {
  it('reads delay-seconds and an HTTP date', () => {
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Thu, 15 Jan 2026 12:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 15 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores an absent or unreadable header and caps a huge one at a day', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('99999999', now)).toBe(24 * 3600 * 1000);
  });
});

describe('vendorWords', () => {
  it('keeps one line and cuts a long answer', () => {
    expect(vendorWords('bad\r\nrequest\u0000 here')).toBe('bad request here');
    expect(vendorWords('x'.repeat(400))).toHaveLength(300);
  });
});
