import { describe, expect, it } from 'vitest';
import { isGuardAllowed, resolveGuardedHost } from '../../src/net/address-guard.js';

const OPTIONS = { timeoutMs: 5000 };

describe('resolveGuardedHost', () => {
  it('returns a public literal as it is', async () => {
    expect(await resolveGuardedHost('8.8.8.8', OPTIONS)).toEqual({ ok: true, address: '8.8.8.8', family: 4 });
    expect(await resolveGuardedHost('[2606:4700::1111]', OPTIONS)).toEqual({ ok: true, address: '2606:4700::1111', family: 6 });
  });

  it('refuses loopback and private literals and names unless allowed', async () => {
    for (const host of ['127.0.0.1', '::1', '10.1.2.3', '169.254.169.254', 'localhost']) {
      expect(await resolveGuardedHost(host, OPTIONS)).toMatchObject({ ok: false, code: 'refused_address' });
    }
    expect(await resolveGuardedHost('10.1.2.3', { ...OPTIONS, allowPrivate: ['10.0.0.0/8'] })).toEqual({
      ok: true,
      address: '10.1.2.3',
      family: 4,
    });
    const local = await resolveGuardedHost('localhost', { ...OPTIONS, allowPrivate: ['127.0.0.1', '::1'] });
    expect(local.ok && ['127.0.0.1', '::1'].includes(local.address)).toBe(true);
  });

  it('reports a name that does not resolve and a host that is not a host name', async () => {
    expect(await resolveGuardedHost('patron-test.invalid', OPTIONS)).toMatchObject({ ok: false, code: 'unresolvable' });
    expect(await resolveGuardedHost('bad host/name', OPTIONS)).toMatchObject({ ok: false, code: 'invalid_url' });
  });
});

describe('isGuardAllowed', () => {
  it('allows public addresses, and private ones only when listed or all allowed', () => {
    expect(isGuardAllowed('93.184.216.34', false)).toBe(true);
    expect(isGuardAllowed('127.0.0.1', false)).toBe(false);
    expect(isGuardAllowed('127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(isGuardAllowed('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isGuardAllowed('192.168.1.1', ['10.0.0.0/8'])).toBe(false);
    expect(isGuardAllowed('192.168.1.1', true)).toBe(true);
  });
});
