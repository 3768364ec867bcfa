import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { RateLimitConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { clientKey } from '../../src/http/limits/client-key.js';
import { KeyedFailureWindows } from '../../src/http/limits/failure-windows.js';
import { KeyedState } from '../../src/http/limits/keyed-state.js';
import { RateLimiter } from '../../src/http/limits/rate-limiter.js';
import { KeyedTokenBuckets } from '../../src/http/limits/token-buckets.js';

describe('KeyedTokenBuckets', () => {
  it('lets a full bucket through, then answers the seconds until the next token', () => {
    const buckets = new KeyedTokenBuckets({ capacity: 3, perSecond: 0.5, maxKeys: 10 });
    expect([buckets.take('a', 0), buckets.take('a', 0), buckets.take('a', 0)]).toEqual([0, 0, 0]);
    expect(buckets.take('a', 0)).toBe(2);
    expect(buckets.take('a', 1500)).toBe(1);
    expect(buckets.take('a', 2000)).toBe(0);
    expect(buckets.take('a', 2000)).toBe(2);
  });

  it('keeps a bucket per key and never fills past its capacity', () => {
    const buckets = new KeyedTokenBuckets({ capacity: 2, perSecond: 1, maxKeys: 10 });
    expect(buckets.take('a', 0)).toBe(0);
    expect(buckets.take('b', 0)).toBe(0);
    // An hour idle refills two tokens, not 3,600.
    expect([buckets.take('a', 3_600_000), buckets.take('a', 3_600_000)]).toEqual([0, 0]);
    expect(buckets.take('a', 3_600_000)).toBe(1);
  });

  it('refills nothing when the clock steps back', () => {
    const buckets = new KeyedTokenBuckets({ capacity: 1, perSecond: 1, maxKeys: 10 });
    expect(buckets.take('a', 10_000)).toBe(0);
    expect(buckets.take('a', 5_000)).toBe(1);
    expect(buckets.take('a', 10_999)).toBe(1);
    expect(buckets.take('a', 11_000)).toBe(0);
  });

  it('holds at most maxKeys buckets however many keys come, forgetting the least recently used', () => {
    const buckets = new KeyedTokenBuckets({ capacity: 1, perSecond: 1, maxKeys: 100 });
    expect(buckets.take('kept', 0)).toBe(0);
    for (let i = 0; i < 10_000; i += 1) {
      buckets.take(`rotating-${i}`, 0);
      if (i % 50 === 0) buckets.take('kept', 0);
    }
    expect(buckets.size).toBe(100);
    // "kept" was used recently, so its empty bucket is still there.
    expect(buckets.take('kept', 0)).toBe(1);
    // The first rotating key was forgotten: it starts afresh.
    expect(buckets.take('rotating-0', 0)).toBe(0);
  });
});

describe('KeyedFailureWindows', () => {
  it('blocks a key after `limit` failures until the window that the first opened ends', () => {
    const windows = new KeyedFailureWindows({ limit: 3, windowMs: 60_000, maxKeys: 10 });
    windows.recordFailure('a', 0);
    windows.recordFailure('a', 10_000);
    expect(windows.blockedFor('a', 10_000)).toBe(0);
    windows.recordFailure('a', 20_000);
    expect(windows.blockedFor('a', 20_000)).toBe(40);
    expect(windows.blockedFor('a', 59_001)).toBe(1);
    expect(windows.blockedFor('b', 20_000)).toBe(0);
    expect(windows.blockedFor('a', 60_000)).toBe(0);
    // Counting starts afresh.
    windows.recordFailure('a', 61_000);
    expect(windows.blockedFor('a', 61_000)).toBe(0);
  });

  it('starts a new window for failures spread wider than the window', () => {
    const windows = new KeyedFailureWindows({ limit: 2, windowMs: 1000, maxKeys: 10 });
    for (let t = 0; t < 10_000; t += 1000) {
      windows.recordFailure('a', t);
      expect(windows.blockedFor('a', t)).toBe(0);
    }
  });
});

describe('KeyedState', () => {
  it('refuses a bound that is not a positive integer', () => {
    expect(() => new KeyedState(0)).toThrow();
  });
});

describe('clientKey', () => {
  it('keys IPv4 by the address, an IPv4-mapped IPv6 address as its IPv4 address, and IPv6 by its /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('RateLimiter', () => {
  const config: RateLimitConfig = {
    enabled: true,
    addressPerSecond: 2,
    shopPerSecond: 2,
    devicesPerMinute: 60,
    authFailures: 2,
    authFailureWindowSeconds: 60,
  };

  function refusal(run: () => void): AppError {
    try {
      run();
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('not refused');
  }

  it('throws RATE_LIMITED with the seconds to wait, and counts the refusals by limit', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(config, clock);
    limiter.checkAddress('192.0.2.1');
    limiter.checkAddress('::ffff:192.0.2.1');
    const error = refusal(() => limiter.checkAddress('192.0.2.1'));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.details).toEqual({ retryAfterSeconds: 1, limit: 'address' });
    expect(limiter.stats().limited).toMatchObject({ address: 1, shop: 0 });
    expect(limiter.stats().tracked).toMatchObject({ address: 1 });
  });

  it('keeps the shop secret and admin token failures apart', () => {
    const limiter = new RateLimiter(config, new ManualClock());
    limiter.attemptCredential('admin_token', '192.0.2.1', () => false);
    limiter.attemptCredential('admin_token', '192.0.2.1', () => false);
    expect(refusal(() => limiter.checkCredentialAttempt('admin_token', '192.0.2.1')).details).toEqual({
      retryAfterSeconds: 60,
      limit: 'admin_token',
    });
    expect(() => limiter.checkCredentialAttempt('shop_secret', '192.0.2.1')).not.toThrow();
  });

  it('refuses a spent address without running the comparison, a right credential included', () => {
    const limiter = new RateLimiter(config, new ManualClock());
    let compared = 0;
    const wrong = () => {
      compared += 1;
      return false;
    };
    expect(limiter.attemptCredential('shop_secret', '192.0.2.1', wrong)).toBe(false);
    expect(limiter.attemptCredential('shop_secret', '192.0.2.1', wrong)).toBe(false);
    expect(refusal(() => limiter.attemptCredential('shop_secret', '192.0.2.1', wrong)).code).toBe('RATE_LIMITED');
    expect(refusal(() => limiter.attemptCredential('shop_secret', '192.0.2.1', () => true)).code).toBe('RATE_LIMITED');
    expect(compared).toBe(2);
    expect(limiter.attemptCredential('shop_secret', '192.0.2.2', () => true)).toBe(true);
  });

  it('refuses nothing and remembers nothing when turned off', () => {
    const limiter = new RateLimiter({ ...config, enabled: false }, new ManualClock());
    for (let i = 0; i < 100; i += 1) {
      limiter.checkAddress('192.0.2.1');
      limiter.checkShop('s');
      limiter.checkDeviceCreation('192.0.2.1');
      limiter.checkWalletLog('s');
      limiter.attemptCredential('shop_secret', '192.0.2.1', () => false);
      limiter.checkCredentialAttempt('shop_secret', '192.0.2.1');
    }
    expect(limiter.stats().tracked).toEqual({
      address: 0,
      shop: 0,
      devices: 0,
      wallet_log: 0,
      shop_secret: 0,
      admin_token: 0,
      admin_sign_in: 0,
    });
  });
});
