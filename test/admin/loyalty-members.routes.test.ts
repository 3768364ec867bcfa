import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;
const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

type Body = Record<string, unknown>;
interface MemberList {
  items: { identifier: string; balance: number; pending: number; joined_at: string }[];
  next_cursor: string | null;
}

describe.each(TEST_DIALECTS)('admin loyalty member list, write-off and liabilities on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/loyalty`;

  async function shopWithMembers(phones: string[]): Promise<string> {
    t.clock.set(NOW);
    const { shopId } = await createShopFixture(t.app.services);
    for (const phone of phones) {
      const created = await inject('POST', `${base(shopId)}/members`, { phone });
      expect(created.statusCode, created.body).toBe(201);
      t.clock.advance(1000);
    }
    return shopId;
  }

  describe('GET …/loyalty/members', () => {
    it('lists members newest first, filtered, in pages linked by next_cursor', async () => {
      const shopId = await shopWithMembers(['79070000001', '79070000002', '79080000003']);
      await inject('POST', `${base(shopId)}/members/79070000001/bonuses`, { amount: 12.5 });
      await inject('POST', `${base(shopId)}/members/79080000003/bonuses`, { amount: 0.01 });

      const all = await inject('GET', `${base(shopId)}/members`);
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json()).toEqual({
        items: [
          { identifier: '79080000003', balance: 0.01, pending: 0, joined_at: '2026-01-15T12:00:02.000Z' },
          { identifier: '79070000002', balance: 0, pending: 0, joined_at: '2026-01-15T12:00:01.000Z' },
          { identifier: '79070000001', balance: 12.5, pending: 0, joined_at: '2026-01-15T12:00:00.000Z' },
        ],
        next_cursor: null,
      });

      const list = async (query: string) => (await inject('GET', `${base(shopId)}/members?${query}`)).json<MemberList>();
      expect((await list('q=7907&min_balance=0.01')).items.map((m) => m.identifier)).toEqual(['79070000001']);
      expect((await list('max_balance=0.01')).items.map((m) => m.identifier)).toEqual(['79080000003', '79070000002']);
      expect((await list('min_balance=12.5&max_balance=12.50')).items.map((m) => m.identifier)).toEqual(['79070000001']);
      expect((await list('has_pending=false&joined_from=2026-01-15T12:00:01Z&joined_to=2026-01-15T12:00:01Z')).items).toHaveLength(1);
      expect((await list('has_pending=true')).items).toEqual([]);

      const first = await list('limit=2');
      expect(first.items.map((m) => m.identifier)).toEqual(['79080000003', '79070000002']);
      expect(first.next_cursor).toEqual(expect.any(String));
      const second = await list(`limit=2&cursor=${first.next_cursor}`);
      expect(second).toEqual({ items: [expect.objectContaining({ identifier: '79070000001' })], next_cursor: null });
    });

    it('refuses bad filters with 422 naming the parameter, and an unknown shop with 404', async () => {
      const shopId = await shopWithMembers([]);
      const refused = async (query: string) =>
        expectAdminError(await inject('GET', `${base(shopId)}/members?${query}`), 422, 'VALIDATION_FAILED');
      expect(await refused('limit=0')).toBe('Query parameter `limit` must be at least 1.');
      expect(await refused('limit=101')).toBe('Query parameter `limit` must be at most 100.');
      expect(await refused('limit=ten')).toContain('`limit`');
      expect(await refused('min_balance=-1')).toBe('Query parameter `min_balance` must be at least 0.');
      expect(await refused('max_balance=1.005')).toBe('Query parameter `max_balance` must have at most two decimals.');
      expect(await refused('min_balance=lots')).toContain('`min_balance`');
      expect(await refused('has_pending=yes')).toBe('Query parameter `has_pending` must be a boolean.');
      expect(await refused('joined_from=yesterday')).toContain('`joined_from`');
      expect(await refused('cursor=not-a-cursor')).toBe('Query parameter `cursor` is not valid.');
      expect(await refused(`q=${'x'.repeat(256)}`)).toContain('`q`');
      expect(await refused('sort=balance')).toContain('`sort`');
      expectAdminError(await inject('GET', `${base(UNKNOWN_SHOP)}/members`), 404, 'NOT_FOUND');
    });
  });

  describe('GET …/loyalty/members/{identifier}/transactions', () => {
    it("pages a member's transactions newest first by next_before", async () => {
      const shopId = await shopWithMembers(['79090000001']);
      const member = `${base(shopId)}/members/79090000001`;
      const ids: number[] = [];
      for (const amount of [1, 2, 3])
        ids.push((await inject('POST', `${member}/bonuses`, { amount })).json<{ transaction_id: number }>().transaction_id);
      const first = await inject('GET', `${member}/transactions?limit=2`);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({
        items: [expect.objectContaining({ id: ids[2], amount: 3, kind: 'manual' }), expect.objectContaining({ id: ids[1], amount: 2 })],
        next_before: ids[1],
      });
      const second = await inject('GET', `${member}/transactions?limit=2&before=${ids[1]}`);
      expect(second.json()).toEqual({
        items: [
          {
            id: ids[0],
            amount: 1,
            status: 'confirmed',
            kind: 'manual',
            order_id: null,
            reason: null,
            created_at: '2026-01-15T12:00:01.000Z',
            expires_at: null,
          },
        ],
        next_before: null,
      });
      expect(expectAdminError(await inject('GET', `${member}/transactions?before=0`), 422, 'VALIDATION_FAILED')).toBe(
        'Query parameter `before` must be at least 1.',
      );
      expectAdminError(await inject('GET', `${base(shopId)}/members/nobody/transactions`), 404, 'NOT_FOUND');
    });
  });

  describe('POST …/bonuses/write-off', () => {
    it('writes bonuses off with a reason as a write_off transaction, and refuses beyond the balance with 409', async () => {
      const shopId = await shopWithMembers(['79100000001']);
      const member = `${base(shopId)}/members/79100000001`;
      await inject('POST', `${member}/bonuses`, { amount: 100 });
      const written = await inject('POST', `${member}/bonuses/write-off`, { amount: 40.25, reason: 'Card reported stolen' });
      expect(written.statusCode, written.body).toBe(201);
      expect(written.json()).toEqual({ transaction_id: expect.any(Number), balance: 59.75 });
      const view = (await inject('GET', member)).json<{ balance: number; transactions: Body[] }>();
      expect(view.transactions[0]).toMatchObject({
        id: written.json<Body>().transaction_id,
        kind: 'write_off',
        amount: -40.25,
        status: 'confirmed',
        reason: 'Card reported stolen',
      });

      const beyond = await inject('POST', `${member}/bonuses/write-off`, { amount: 59.76, reason: 'too much' });
      expect(expectAdminError(beyond, 409, 'CONFLICT')).toBe('Not enough bonuses: the balance is 59.75.');
      expect((await inject('GET', member)).json()).toMatchObject({
        balance: 59.75,
        transactions: [{ kind: 'write_off' }, { kind: 'manual' }],
      });
    });

    it('refuses a negative, zero or fractional-kopeck amount and a missing, empty or overlong reason, writing nothing', async () => {
      const shopId = await shopWithMembers(['79110000001']);
      const member = `${base(shopId)}/members/79110000001`;
      await inject('POST', `${member}/bonuses`, { amount: 10 });
      const refused = async (body: Body) =>
        expectAdminError(await inject('POST', `${member}/bonuses/write-off`, body), 422, 'VALIDATION_FAILED');
      expect(await refused({ amount: -1, reason: 'x' })).toBe('Field `amount` must be greater than 0.');
      expect(await refused({ amount: 0, reason: 'x' })).toBe('Field `amount` must be greater than 0.');
      expect(await refused({ amount: 1.005, reason: 'x' })).toBe('Field `amount` must have at most two decimals.');
      expect(await refused({ amount: '1', reason: 'x' })).toBe('Field `amount` must be a number.');
      expect(await refused({ amount: 1 })).toBe('Field `reason` is required.');
      expect(await refused({ amount: 1, reason: '' })).toBe('Field `reason` must not be empty.');
      expect(await refused({ amount: 1, reason: 'x'.repeat(501) })).toBe('Field `reason` must be at most 500 characters long.');
      expect((await inject('GET', member)).json()).toMatchObject({ balance: 10, transactions: [{ kind: 'manual' }] });
      expectAdminError(
        await inject('POST', `${base(shopId)}/members/nobody/bonuses/write-off`, { amount: 1, reason: 'x' }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('GET …/loyalty/liabilities', () => {
    it('answers outstanding, pending and expiring bonuses in currency units', async () => {
      const shopId = await shopWithMembers(['79120000001', '79120000002']);
      await inject('POST', `${base(shopId)}/members/79120000001/bonuses`, { amount: 100.5 });
      await inject('POST', `${base(shopId)}/members/79120000002/bonuses`, {
        amount: 20.25,
        expires_at: new Date(NOW + 10 * DAY).toISOString(),
      });
      const answer = await inject('GET', `${base(shopId)}/liabilities`);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ outstanding: 120.75, pending: 0, expiring_30_days: 20.25, members: 2 });
      expectAdminError(await inject('GET', `${base(UNKNOWN_SHOP)}/liabilities`), 404, 'NOT_FOUND');
    });
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(doc.paths['/admin/v1/shops/{shop_id}/loyalty/members']?.get).toBeDefined();
    for (const path of [
      '/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/transactions',
      '/admin/v1/shops/{shop_id}/loyalty/members/{identifier}/bonuses/write-off',
      '/admin/v1/shops/{shop_id}/loyalty/liabilities',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
