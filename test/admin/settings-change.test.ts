import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';

/**
 * Which admin writes replace the settings version (docs/settings-caches.md): a write of
 * settings that succeeded, before its answer; not a read, a refusal, or a write of data.
 */
describe('the settings version and admin writes', () => {
  let t: TestApp;
  let shopId: string;
  beforeAll(async () => {
    t = await createTestApp();
    shopId = (await createShopFixture(t.app.services)).shopId;
  });
  afterAll(async () => {
    await t.close();
  });

  async function bumpsOf(
    method: 'GET' | 'PUT' | 'POST' | 'PATCH',
    path: string,
    payload?: object,
  ): Promise<{ status: number; bumps: number }> {
    const bump = vi.spyOn(t.app.services.settings, 'bump');
    try {
      const response = await t.app.inject({
        method,
        url: `/admin/v1/shops/${shopId}${path}`,
        headers: t.adminHeaders,
        ...(payload && { payload }),
      });
      return { status: response.statusCode, bumps: bump.mock.calls.length };
    } finally {
      bump.mockRestore();
    }
  }

  it('replaces it after a successful write of settings', async () => {
    expect(await bumpsOf('PUT', '/loyalty', { reward_percent: 5 })).toEqual({ status: 200, bumps: 1 });
    expect(await bumpsOf('PATCH', '', { name: 'Renamed shop' })).toEqual({ status: 200, bumps: 1 });
    expect(await bumpsOf('POST', '/custom-events', { code: 'seen_promo' })).toMatchObject({ bumps: 1 });
  });

  it('leaves it after a read, a refused write, and a write of data', async () => {
    expect(await bumpsOf('GET', '/loyalty')).toEqual({ status: 200, bumps: 0 });
    expect(await bumpsOf('PUT', '/loyalty', { reward_percent: 101 })).toEqual({ status: 422, bumps: 0 });
    const member = await bumpsOf('POST', '/loyalty/members', { phone: '79001234567' });
    expect(member.status).toBeLessThan(300);
    expect(member.bumps).toBe(0);
    const credit = await bumpsOf('POST', '/loyalty/members/79001234567/bonuses', { amount: 10 });
    expect(credit.status).toBeLessThan(300);
    expect(credit.bumps).toBe(0);
  });
});
