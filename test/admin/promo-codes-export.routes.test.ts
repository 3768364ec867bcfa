import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HEADER = 'code,status,usage_limit,per_member_limit,used,blocked,ends_at,created_at';

describe.each(TEST_DIALECTS)('admin promo codes CSV export on %s', (dialect) => {
  let t: TestApp;
  let shop: string;
  let otherShop: string;

  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });

  async function promotion(shopPath: string): Promise<number> {
    const created = await inject('POST', `${shopPath}/promotions`, {
      name: 'Sale',
      status: 'active',
      discount: { type: 'percent', value: 10 },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ id: number }>().id;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(NOW);
    const { shopId } = await createShopFixture(t.app.services);
    shop = `/admin/v1/shops/${shopId}`;
    otherShop = `/admin/v1/shops/${(await createShopFixture(t.app.services)).shopId}`;
    await promotion(shop);
    await promotion(shop);
    await promotion(otherShop);
    // 2,500 generated codes: three batches of the export's 1,000.
    const generated = await inject('POST', `${shop}/promotions/1/promo-codes/generate`, {
      count: 2500,
      pattern: 'GEN-********',
      usage_limit: 3,
    });
    expect(generated.statusCode, generated.body).toBe(201);
    const made = [
      { code: '-5OFF', promotion_id: 1, usage_limit: 1 },
      { code: 'LATE', promotion_id: 1, ends_at: new Date(NOW + 60_000).toISOString() },
      { code: 'OTHER-PROMO', promotion_id: 2 },
    ];
    for (const body of made) expect((await inject('POST', `${shop}/promo-codes`, body)).statusCode).toBe(201);
    await inject('POST', `${otherShop}/promo-codes`, { code: 'ELSEWHERE', promotion_id: 1 });
    // Used once: what a confirmed order leaves (promo-code-holds.ts counts it so).
    await t.db.db.updateTable('promo_codes').set({ used: 1 }).where('shop_id', '=', shopId).where('code', '=', '-5OFF').execute();
    t.clock.advance(120_000);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('streams every code of the promotion once, in code order, as an attachment', async () => {
    const res = await inject('GET', `${shop}/promotions/1/promo-codes.csv`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="promotion-1-promo-codes.csv"');
    expect(res.body.endsWith('\r\n')).toBe(true);
    const lines = res.body.slice(0, -2).split('\r\n');
    expect(lines[0]).toBe(HEADER);
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows).toHaveLength(2502);
    const codes = rows.map((r) => r[0]!);
    expect(new Set(codes).size).toBe(2502);
    expect(codes).toEqual([...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(codes.filter((c) => c.startsWith('GEN-'))).toHaveLength(2500);
    expect(codes).not.toContain('OTHER-PROMO');
    expect(codes).not.toContain('ELSEWHERE');
    const created = new Date(NOW).toISOString();
    expect(rows.find((r) => r[0]!.startsWith('GEN-'))).toEqual([expect.stringMatching(/^GEN-/), 'active', '3', '', '0', '0', '', created]);
  });

  it('says whether each code is active, used up or ended, and defuses a code a spreadsheet would read as a formula', async () => {
    const body = (await inject('GET', `${shop}/promotions/1/promo-codes.csv`)).body;
    const created = new Date(NOW).toISOString();
    expect(body).toContain(`\r\n'-5OFF,used_up,1,,1,0,,${created}\r\n`);
    expect(body).toContain(`\r\nLATE,ended,,,0,0,${new Date(NOW + 60_000).toISOString()},${created}\r\n`);
    expect(body).not.toMatch(/\r\n-5OFF/);
  });

  it('answers a promotion with no codes with the header alone', async () => {
    const id = await promotion(shop);
    const res = await inject('GET', `${shop}/promotions/${id}/promo-codes.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`${HEADER}\r\n`);
  });

  it("answers 404 for an unknown promotion or shop, and never another shop's codes", async () => {
    expectAdminError(await inject('GET', `${shop}/promotions/99/promo-codes.csv`), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', '/admin/v1/shops/abcdef0123456789abcdef01234567/promotions/1/promo-codes.csv'), 404, 'NOT_FOUND');
    const other = await inject('GET', `${otherShop}/promotions/1/promo-codes.csv`);
    expect(other.body).toBe(`${HEADER}\r\nELSEWHERE,active,,,0,0,,${new Date(NOW).toISOString()}\r\n`);
  });

  it('reads the codes in batches, never all at once', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    await promotion(`/admin/v1/shops/${shopId}`);
    await inject('POST', `/admin/v1/shops/${shopId}/promotions/1/promo-codes/generate`, { count: 25, pattern: 'B-******' });
    const sizes: number[] = [];
    for await (const batch of await t.app.services.promoCodes.exportCodes(shopId, 1, 10)) sizes.push(batch.length);
    expect(sizes).toEqual([10, 10, 5]);
  });
});
