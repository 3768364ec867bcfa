import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
interface Listed {
  id: number;
  code: string;
  pool_id: number | null;
  balance: number;
  status: string;
}

describe.each(TEST_DIALECTS)('admin certificate and pool lists on %s', (dialect) => {
  let t: TestApp;
  let shop: string;
  let other: string;

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.adminHeaders });
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: t.adminHeaders, payload });

  async function all<T>(url: string, limit: number): Promise<T[]> {
    const seen: T[] = [];
    let cursor: string | null = null;
    do {
      const sep = url.includes('?') ? '&' : '?';
      const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<Page<T>>();
      expect(page.items.length).toBeLessThanOrEqual(limit);
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return seen;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shop = `/admin/v1/shops/${(await createShopFixture(t.app.services)).shopId}`;
    const otherId = (await createShopFixture(t.app.services)).shopId;
    other = `/admin/v1/shops/${otherId}`;
    for (const name of ['Pool A', 'Pool B', 'Pool C']) expect((await post(`${shop}/certificate-pools`, { name })).statusCode).toBe(201);
    await post(`${other}/certificate-pools`, { name: 'Elsewhere' });
    const soon = new Date(t.clock.now() + 60_000).toISOString();
    // 12 certificates: ids 1..12; even ids in pool 1, every third from 3 expiring soon.
    for (let i = 1; i <= 12; i++) {
      const body: Record<string, unknown> = { code: `GIFT-${i}`, amount: 10.25 * i };
      if (i % 2 === 0) body.pool_id = 1;
      if (i % 3 === 0) body.expires_at = soon;
      expect((await post(`${shop}/certificates`, body)).statusCode).toBe(201);
    }
    await post(`${other}/certificates`, { code: 'GIFT-1', amount: 5, pool_id: 1 });
    // Spent to zero: what a captured checkout leaves (certificate-holds.ts moves the amounts so).
    await t.db.db.updateTable('certificates').set({ balance: 0 }).where('code', 'in', ['GIFT-4', 'GIFT-5']).execute();
    t.clock.advance(120_000);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists the pools of the shop alone, in order, page by page', async () => {
    const pools = await all<{ id: number; name: string; created_at: string }>(`${shop}/certificate-pools`, 2);
    expect(pools.map((p) => p.name)).toEqual(['Pool A', 'Pool B', 'Pool C']);
    expect(pools[0]).toEqual({ id: 1, name: 'Pool A', created_at: expect.stringMatching(/Z$/) });
  });

  it('lists every certificate newest first exactly once, with balances in currency units and a status', async () => {
    const listed = await all<Listed>(`${shop}/certificates`, 5);
    expect(listed.map((c) => c.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(listed.find((c) => c.code === 'GIFT-7')).toMatchObject({ balance: 71.75, status: 'active', pool_id: null });
    expect(listed.find((c) => c.code === 'GIFT-4')).toMatchObject({ balance: 0, status: 'spent', pool_id: 1 });
    expect(listed.find((c) => c.code === 'GIFT-9')).toMatchObject({ status: 'expired' });
    expect(listed.find((c) => c.code === 'GIFT-1')).toEqual({
      id: 1,
      code: 'GIFT-1',
      pool_id: null,
      amount: 10.25,
      balance: 10.25,
      held: 0,
      expires_at: null,
      created_at: expect.any(String),
      status: 'active',
    });
  });

  it('filters by pool and by status, and both', async () => {
    const ids = async (query: string) => (await all<Listed>(`${shop}/certificates?${query}`, 2)).map((c) => c.id);
    expect(await ids('pool=1')).toEqual([12, 10, 8, 6, 4, 2]);
    expect(await ids('status=spent')).toEqual([5, 4]);
    expect(await ids('status=expired')).toEqual([12, 9, 6, 3]);
    expect(await ids('status=active')).toEqual([11, 10, 8, 7, 2, 1]);
    expect(await ids('pool=1&status=active')).toEqual([10, 8, 2]);
    expect(await ids('pool=3')).toEqual([]);
  });

  it("never shows another shop's certificates and answers 404 for an unknown shop", async () => {
    expect((await all<Listed>(`${other}/certificates`, 50)).map((c) => c.code)).toEqual(['GIFT-1']);
    expectAdminError(await get('/admin/v1/shops/abcdef0123456789abcdef01234567/certificates'), 404, 'NOT_FOUND');
    expectAdminError(await get('/admin/v1/shops/abcdef0123456789abcdef01234567/certificate-pools'), 404, 'NOT_FOUND');
  });

  it('refuses bad parameters with 422 naming them', async () => {
    const cases: [string, string][] = [
      ['certificates?status=gone', 'status'],
      ['certificates?pool=0', 'pool'],
      ['certificates?pool=x', 'pool'],
      ['certificates?limit=201', 'limit'],
      ['certificates?cursor=bad!', 'cursor'],
      ['certificates?cursor=WyJ4Il0', 'cursor'],
      ['certificates?sort=id', 'sort'],
      ['certificate-pools?limit=0', 'limit'],
    ];
    for (const [url, field] of cases) {
      expect(expectAdminError(await get(`${shop}/${url}`), 422, 'VALIDATION_FAILED'), url).toContain(field);
    }
  });
});
