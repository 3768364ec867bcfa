import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

type Body = Record<string, unknown>;

describe.each(TEST_DIALECTS)('admin loyalty routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/loyalty`;

  async function shopWithMember(phone = '79001234567'): Promise<{ shopId: string; member: string }> {
    t.clock.set(NOW);
    const { shopId } = await createShopFixture(t.app.services);
    const created = await inject('POST', `${base(shopId)}/members`, { phone });
    expect(created.statusCode, created.body).toBe(201);
    return { shopId, member: `${base(shopId)}/members/${phone}` };
  }

  it('answers the default programme before the first PUT, and the settings after it', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const defaults = await inject('GET', base(shopId));
    expect(defaults.statusCode).toBe(200);
    expect(defaults.json()).toEqual({
      reward_percent: 0,
      max_bonus_share_percent: 100,
      bonus_value: 1,
      bonus_lifetime_days: null,
      reward_pending_days: 0,
    });
    const settings = { reward_percent: 5, max_bonus_share_percent: 50, bonus_value: 1, bonus_lifetime_days: 365, reward_pending_days: 0 };
    const put = await inject('PUT', base(shopId), settings);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual(settings);
    expect((await inject('GET', base(shopId))).json()).toEqual(settings);
    const fractional = await inject('PUT', base(shopId), { ...settings, reward_percent: 2.5 });
    expect(fractional.json()).toMatchObject({ reward_percent: 2.5 });
  });

  it('refuses settings out of bounds or with a third decimal, naming the field', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expect(expectAdminError(await inject('PUT', base(shopId), { reward_percent: 101 }), 422, 'VALIDATION_FAILED')).toContain(
      '`reward_percent`',
    );
    expect(expectAdminError(await inject('PUT', base(shopId), { reward_percent: 1.234 }), 422, 'VALIDATION_FAILED')).toBe(
      'Field `reward_percent` must have at most two decimals.',
    );
    expect(expectAdminError(await inject('PUT', base(shopId), { bonus_value: 0 }), 422, 'VALIDATION_FAILED')).toContain('`bonus_value`');
    expect(expectAdminError(await inject('PUT', base(shopId), { bonus_lifetime_days: 0 }), 422, 'VALIDATION_FAILED')).toContain(
      '`bonus_lifetime_days`',
    );
    expectAdminError(await inject('GET', base(UNKNOWN_SHOP)), 404, 'NOT_FOUND');
  });

  it('creates a member with a normalised phone as its identifier, or its loyalty_id without a phone', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const byPhone = await inject('POST', `${base(shopId)}/members`, { phone: '8 (900) 123-45-67', email: 'a@example.com' });
    expect(byPhone.statusCode).toBe(201);
    expect(byPhone.json()).toEqual({ identifier: '79001234567', balance: 0 });
    const byCard = await inject('POST', `${base(shopId)}/members`, { loyalty_id: 'CARD-77' });
    expect(byCard.json()).toEqual({ identifier: 'CARD-77', balance: 0 });
    expect((await inject('GET', `${base(shopId)}/members/CARD-77`)).json()).toMatchObject({ identifier: 'CARD-77', balance: 0 });
    const again = await inject('POST', `${base(shopId)}/members`, { phone: '79001234567', loyalty_id: 'CARD-78' });
    expect(again.json()).toEqual({ identifier: '79001234567', balance: 0 });
  });

  it('refuses a member without phone or loyalty_id, and an unknown field', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expect(expectAdminError(await inject('POST', `${base(shopId)}/members`, { email: 'a@example.com' }), 422, 'VALIDATION_FAILED')).toBe(
      'Field `phone` or `loyalty_id` is required.',
    );
    expectAdminError(await inject('POST', `${base(shopId)}/members`, { phone: '79001234567', card: 'x' }), 422, 'VALIDATION_FAILED');
    expect(expectAdminError(await inject('POST', `${base(shopId)}/members`, { phone: 'not a phone' }), 422, 'VALIDATION_FAILED')).toBe(
      'Field `phone` is not valid.',
    );
    expect(
      expectAdminError(
        await inject('POST', `${base(shopId)}/members`, { loyalty_id: 'x', email: 'not-an-email' }),
        422,
        'VALIDATION_FAILED',
      ),
    ).toBe('Field `email` is not valid.');
  });

  it('answers 404 for an identifier that is neither a member phone nor a known loyalty_id', async () => {
    const { shopId } = await shopWithMember();
    expect(expectAdminError(await inject('GET', `${base(shopId)}/members/79990000000`), 404, 'NOT_FOUND')).toBe('Member not found.');
    expectAdminError(await inject('GET', `${base(shopId)}/members/nobody`), 404, 'NOT_FOUND');
    expectAdminError(await inject('POST', `${base(shopId)}/members/nobody/bonuses`, { amount: 1 }), 404, 'NOT_FOUND');
  });

  it('credits bonuses in currency units and lists the transactions newest first', async () => {
    const { member } = await shopWithMember();
    const first = await inject('POST', `${member}/bonuses`, { amount: 500, reason: 'welcome' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ transaction_id: expect.any(Number), balance: 500 });
    t.clock.set(NOW + 60_000);
    const second = await inject('POST', `${member}/bonuses`, { amount: 0.29, expires_at: '2026-03-01T00:00:00Z' });
    expect(second.json()).toMatchObject({ balance: 500.29 });
    const view = await inject('GET', member);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      identifier: '79001234567',
      balance: 500.29,
      pending: 0,
      transactions: [
        {
          id: second.json<Body>().transaction_id,
          amount: 0.29,
          status: 'confirmed',
          kind: 'manual',
          order_id: null,
          reason: null,
          created_at: '2026-01-15T12:01:00.000Z',
          expires_at: '2026-03-01T00:00:00.000Z',
        },
        {
          id: first.json<Body>().transaction_id,
          amount: 500,
          status: 'confirmed',
          kind: 'manual',
          order_id: null,
          reason: 'welcome',
          created_at: '2026-01-15T12:00:00.000Z',
          expires_at: null,
        },
      ],
      level: null,
    });
  });

  it('refuses negative, zero and fractional-kopeck amounts and an expires_at in the past, writing nothing', async () => {
    const { member } = await shopWithMember();
    for (const amount of [-5, 0, 1.005]) {
      const message = expectAdminError(await inject('POST', `${member}/bonuses`, { amount }), 422, 'VALIDATION_FAILED');
      expect(message).toMatch(/^Field `amount` must /);
    }
    expect(
      expectAdminError(
        await inject('POST', `${member}/bonuses`, { amount: 10, expires_at: '2026-01-15T11:59:59Z' }),
        422,
        'VALIDATION_FAILED',
      ),
    ).toBe('Field `expires_at` must be in the future.');
    expectAdminError(await inject('POST', `${member}/bonuses`, { amount: 10, expires_at: 'tomorrow' }), 422, 'VALIDATION_FAILED');
    expect((await inject('GET', member)).json()).toMatchObject({ balance: 0, transactions: [] });
  });

  it('debits with a reason, oldest expiry first, and refuses a debit beyond the balance with 409 and nothing written', async () => {
    const { member } = await shopWithMember();
    await inject('POST', `${member}/bonuses`, { amount: 100 });
    await inject('POST', `${member}/bonuses`, { amount: 50, expires_at: '2026-02-01T00:00:00Z' });
    const debit = await inject('POST', `${member}/bonuses/debit`, { amount: 70.5, reason: 'returned goods' });
    expect(debit.statusCode, debit.body).toBe(201);
    expect(debit.json()).toEqual({ transaction_id: expect.any(Number), balance: 79.5 });
    const refused = await inject('POST', `${member}/bonuses/debit`, { amount: 79.51, reason: 'too much' });
    expect(expectAdminError(refused, 409, 'CONFLICT')).toBe('Not enough bonuses: the balance is 79.50.');
    expectAdminError(await inject('POST', `${member}/bonuses/debit`, { amount: 1 }), 422, 'VALIDATION_FAILED');
    const view = (await inject('GET', member)).json<{ balance: number; transactions: Body[] }>();
    expect(view.balance).toBe(79.5);
    expect(view.transactions.map((x) => [x.kind, x.amount])).toEqual([
      ['debit', -70.5],
      ['manual', 50],
      ['manual', 100],
    ]);
    // The lot expiring first was drawn first: after its expiry 79.50 stays.
    t.clock.set(Date.UTC(2026, 1, 1));
    expect((await inject('GET', member)).json()).toMatchObject({ balance: 79.5 });
  });

  it('documents every loyalty route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      '/admin/v1/shops/{shop_id}/loyalty',
      '/admin/v1/shops/{shop_id}/loyalty/members',
      '/admin/v1/shops/{shop_id}/loyalty/members/{identifier}',
      '/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/bonuses',
      '/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/bonuses/debit',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
