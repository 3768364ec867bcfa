import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

describe.each(TEST_DIALECTS)('admin event reward routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as object }) });
  const rules = (shopId: string) => `/admin/v1/shops/${shopId}/loyalty/event-rewards`;

  it('puts, replaces, reads, lists and deletes a rule', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const put = await inject('PUT', `${rules(shopId)}/signed_up`, { amount: 100 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ event_code: 'signed_up', amount: 100 });
    expect((await inject('PUT', `${rules(shopId)}/app_rated`, { amount: 0.29 })).json()).toEqual({ event_code: 'app_rated', amount: 0.29 });
    expect((await inject('PUT', `${rules(shopId)}/signed_up`, { amount: 250.5 })).json()).toEqual({
      event_code: 'signed_up',
      amount: 250.5,
    });

    const one = await inject('GET', `${rules(shopId)}/signed_up`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ event_code: 'signed_up', amount: 250.5 });
    const list = await inject('GET', rules(shopId));
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      event_rewards: [
        { event_code: 'app_rated', amount: 0.29 },
        { event_code: 'signed_up', amount: 250.5 },
      ],
    });

    const deleted = await inject('DELETE', `${rules(shopId)}/signed_up`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(expectAdminError(await inject('GET', `${rules(shopId)}/signed_up`), 404, 'NOT_FOUND')).toBe(
      'Event reward `signed_up` does not exist.',
    );
    expect(expectAdminError(await inject('DELETE', `${rules(shopId)}/signed_up`), 404, 'NOT_FOUND')).toBe(
      'Event reward `signed_up` does not exist.',
    );
    expect((await inject('GET', rules(shopId))).json()).toEqual({ event_rewards: [{ event_code: 'app_rated', amount: 0.29 }] });
  });

  it.each([
    ['a zero amount', { amount: 0 }, 'Field `amount` must be greater than 0.'],
    ['a negative amount', { amount: -100 }, 'Field `amount` must be greater than 0.'],
    ['a fractional kopeck', { amount: 1.005 }, 'Field `amount` must have at most two decimals.'],
    ['an amount beyond 10^9', { amount: 1e9 + 1 }, 'Field `amount` must be at most 1000000000.'],
    ['an amount as a string', { amount: '100' }, 'Field `amount` must be a number.'],
    ['no amount', {}, 'Field `amount` is required.'],
    ['another field', { amount: 100, expires_at: '2030-01-01T00:00:00Z' }, 'Field `expires_at` is not allowed.'],
  ])('refuses %s with 422 naming the field, writing nothing', async (_name, body, message) => {
    const { shopId } = await createShopFixture(t.app.services);
    expect(expectAdminError(await inject('PUT', `${rules(shopId)}/signed_up`, body), 422, 'VALIDATION_FAILED')).toBe(message);
    expect((await inject('GET', rules(shopId))).json()).toEqual({ event_rewards: [] });
  });

  it.each([
    ['capitals', 'Signed_Up'],
    ['a hyphen', 'signed-up'],
    ['65 characters', 'a'.repeat(65)],
  ])('refuses a code with %s with 422 naming event_code', async (_name, code) => {
    const { shopId } = await createShopFixture(t.app.services);
    const message = expectAdminError(await inject('PUT', `${rules(shopId)}/${code}`, { amount: 100 }), 422, 'VALIDATION_FAILED');
    expect(message).toContain('`event_code`');
    expect((await inject('GET', rules(shopId))).json()).toEqual({ event_rewards: [] });
  });

  it('answers 404 for an unknown shop on every route', async () => {
    expectAdminError(await inject('PUT', `${rules(UNKNOWN_SHOP)}/signed_up`, { amount: 100 }), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', rules(UNKNOWN_SHOP)), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', `${rules(UNKNOWN_SHOP)}/signed_up`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${rules(UNKNOWN_SHOP)}/signed_up`), 404, 'NOT_FOUND');
  });

  it("keeps one shop's rules from another", async () => {
    const a = await createShopFixture(t.app.services);
    const b = await createShopFixture(t.app.services);
    await inject('PUT', `${rules(a.shopId)}/signed_up`, { amount: 100 });
    expectAdminError(await inject('GET', `${rules(b.shopId)}/signed_up`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${rules(b.shopId)}/signed_up`), 404, 'NOT_FOUND');
    expect((await inject('GET', `${rules(a.shopId)}/signed_up`)).statusCode).toBe(200);
  });

  it('needs the admin token', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const response = await t.app.inject({ method: 'PUT', url: `${rules(shopId)}/signed_up`, payload: { amount: 100 } });
    expectAdminError(response, 401, 'UNAUTHORIZED');
  });
});
