import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

/** 2026-01-15 12:00 UTC is 15:00 in Moscow; 22:30 UTC is already the 16th there. */
const NOON = Date.UTC(2026, 0, 15, 12, 0, 0);
const LATE_EVENING_UTC = Date.UTC(2026, 0, 15, 22, 30, 0);

type Body = Record<string, unknown>;

const zeros = { impressions: 0, clicks: 0, ctr: 0, views: 0, carts: 0, orders: 0, revenue: 0 };

/**
 * GET …/recommendation-blocks/{code}/stats (docs/recommendations.md "Figures"): events
 * sent through the public POST /push as the SDKs send them, counted per block and day of
 * the shop's time zone, read back with exact numbers. Both databases.
 */
describe.each(TEST_DIALECTS)('admin recommendation block figures on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const admin = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as Body }) });
  const blocks = (shopId: string) => `/admin/v1/shops/${shopId}/recommendation-blocks`;

  /** A shop in Moscow with two blocks, and a device registered by the SDK's start. */
  async function shopWithBlocks() {
    t.clock.set(NOON);
    const { shopId } = await createShopFixture(t.app.services, { timezone: 'Europe/Moscow' });
    const { did } = await t.app.services.identity.createDevice(shopId);
    const home = (await admin('PUT', `${blocks(shopId)}/home`, { title: 'For you', rules: [{ recommender: 'popular' }] })).json<Body>();
    await admin('PUT', `${blocks(shopId)}/cart_page`, { title: 'Also bought', rules: [{ recommender: 'also_bought' }] });
    /** The SDK's POST /push: a JSON body with the device and session beside the event's fields. */
    const push = async (fields: Body) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/push',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ shop_id: shopId, stream: null, ...fields, did, seance: 'Z9y8X7w6V5', sid: 'Z9y8X7w6V5' }),
      });
      expect(response.json(), response.body).toEqual({ status: 'success' });
    };
    const stats = (code: string, from = '2026-01-15', to = '2026-01-16') =>
      admin('GET', `${blocks(shopId)}/${code}/stats?date_from=${from}&date_to=${to}`);
    return { shopId, homeId: home.id as number, push, stats };
  }

  it('counts impressions and clicks by the block id or code the SDK sends as campaign, per day of the shop', async () => {
    const { homeId, push, stats } = await shopWithBlocks();
    await push({ event: 'recone_view', campaign: homeId, inventory: ['A', 'B', 'C'], position: 0 });
    await push({ event: 'recone_view', campaign: 'home', inventory: 'A,B,C', position: 1, recommended_by: 'dynamic' });
    await push({ event: 'recone_click', campaign: String(homeId), inventory: 'B', position: 1 });
    // Not the block's: another source, a campaign no block has.
    await push({ event: 'recone_view', campaign: homeId, inventory: 'A', recommended_by: 'chain' });
    await push({ event: 'recone_view', campaign: 'nowhere', inventory: 'A' });
    t.clock.set(LATE_EVENING_UTC);
    await push({ event: 'recone_view', campaign: homeId, inventory: 'A' });

    const response = await stats('home');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      code: 'home',
      date_from: '2026-01-15',
      date_to: '2026-01-16',
      timezone: 'Europe/Moscow',
      totals: { ...zeros, impressions: 3, clicks: 1, ctr: 0.3333 },
      days: [
        { date: '2026-01-15', ...zeros, impressions: 2, clicks: 1, ctr: 0.5 },
        { date: '2026-01-16', ...zeros, impressions: 1 },
      ],
    });
  });

  it('counts views and carts carrying the block code, and purchases of the items they led to as orders and revenue', async () => {
    const { push, stats } = await shopWithBlocks();
    const fromHome = { recommended_by: 'dynamic', recommended_code: 'home' };
    await push({ event: 'view', items: [{ id: 'A' }], ...fromHome });
    await push({ event: 'cart', items: [{ id: 'B', amount: 2, price: 10.5 }], ...fromHome });
    await push({ event: 'view', items: [{ id: 'X' }], recommended_by: 'dynamic', recommended_code: 'cart_page' });
    // A code no block has, another source and a whole-cart restatement count nothing.
    await push({ event: 'view', items: [{ id: 'C' }], recommended_by: 'dynamic', recommended_code: 'nowhere' });
    await push({ event: 'cart', items: [{ id: 'C' }], recommended_by: 'full_search', recommended_code: 'home' });
    await push({ event: 'cart', items: [{ id: 'B' }], full_cart: true, ...fromHome });
    // A and B were reached through `home`, X through `cart_page`, D through nothing.
    const order = [
      { id: 'A', amount: 1, price: 100 },
      { id: 'B', amount: 2, price: 10.5 },
      { id: 'X', amount: 3, price: 1.1 },
      { id: 'D', amount: 1, price: 999 },
    ];
    await push({ event: 'purchase', order_id: 'N-1', order_price: 1000, items: order });
    // The same order again is no new order.
    await push({ event: 'purchase', order_id: 'N-1', order_price: 1000, items: order });
    // A purchase carrying the block's code is the block's whole.
    await push({
      event: 'purchase',
      order_id: 'N-2',
      items: [
        { id: 'E', amount: 1, price: 5 },
        { id: 'F', amount: 2, price: 0.25 },
      ],
      ...fromHome,
    });

    const home = (await stats('home')).json<Body>();
    expect(home.totals).toEqual({ ...zeros, views: 1, carts: 1, orders: 2, revenue: 121 + 5.5 });
    expect(home.days).toEqual([
      { date: '2026-01-15', ...zeros, views: 1, carts: 1, orders: 2, revenue: 126.5 },
      { date: '2026-01-16', ...zeros },
    ]);
    const cartPage = (await stats('cart_page', '2026-01-15', '2026-01-15')).json<Body>();
    expect(cartPage.totals).toEqual({ ...zeros, views: 1, orders: 1, revenue: 3.3 });
  });

  it('attributes a purchase to the last block that led to the item, within 7 days of it', async () => {
    const { push, stats } = await shopWithBlocks();
    await push({ event: 'view', items: [{ id: 'A' }], recommended_by: 'dynamic', recommended_code: 'home' });
    await push({ event: 'view', items: [{ id: 'A' }], recommended_by: 'dynamic', recommended_code: 'cart_page' });
    await push({ event: 'view', items: [{ id: 'B' }], recommended_by: 'dynamic', recommended_code: 'home' });
    t.clock.advance(7 * 86_400_000 + 1);
    await push({ event: 'view', items: [{ id: 'A' }] });
    t.clock.set(NOON + 7 * 86_400_000 - 1);
    await push({ event: 'purchase', order_id: 'late-1', items: [{ id: 'A', amount: 1, price: 20 }] });
    t.clock.set(NOON + 7 * 86_400_000 + 1);
    await push({ event: 'purchase', order_id: 'late-2', items: [{ id: 'B', amount: 1, price: 30 }] });

    const week = (code: string) => stats(code, '2026-01-15', '2026-01-22');
    expect((await week('cart_page')).json<Body>().totals).toEqual({ ...zeros, views: 1, orders: 1, revenue: 20 });
    expect((await week('home')).json<Body>().totals).toEqual({ ...zeros, views: 2 });
  });

  it('answers CSV with a row per day and a total row', async () => {
    const { homeId, push, shopId } = await shopWithBlocks();
    await push({ event: 'recone_view', campaign: homeId, inventory: 'A' });
    await push({ event: 'recone_click', campaign: homeId, inventory: 'A' });
    const response = await admin('GET', `${blocks(shopId)}/home/stats.csv?date_from=2026-01-14&date_to=2026-01-15`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.body).toBe(
      'date,impressions,clicks,ctr,views,carts,orders,revenue\r\n' +
        '2026-01-14,0,0,0,0,0,0,0\r\n' +
        '2026-01-15,1,1,1,0,0,0,0\r\n' +
        'total,1,1,1,0,0,0,0\r\n',
    );
  });

  it('answers 404 for an unknown block or shop and 422 naming a bad date', async () => {
    const { shopId, stats } = await shopWithBlocks();
    expect(expectAdminError(await stats('nowhere'), 404, 'NOT_FOUND')).toBe('Recommendation block `nowhere` does not exist.');
    const unknownShop = await admin(
      'GET',
      `/admin/v1/shops/abcdef0123456789abcdef01234567/recommendation-blocks/home/stats?date_from=2026-01-15&date_to=2026-01-15`,
    );
    expectAdminError(unknownShop, 404, 'NOT_FOUND');
    expect(expectAdminError(await stats('home', '2026-02-30', '2026-03-01'), 422, 'VALIDATION_FAILED')).toMatch(/`date_from`/);
    expect(expectAdminError(await stats('home', '2026-03-02', '2026-03-01'), 422, 'VALIDATION_FAILED')).toMatch(/`date_to`/);
    expect(expectAdminError(await stats('home', '2025-01-01', '2026-01-02'), 422, 'VALIDATION_FAILED')).toMatch(/`date_to`/);
    expectAdminError(await admin('GET', `${blocks(shopId)}/home/stats?date_from=2026-01-15`), 422, 'VALIDATION_FAILED');
  });

  it('forgets a deleted block’s figures: a new block of the same code starts at zero', async () => {
    const { homeId, push, shopId, stats } = await shopWithBlocks();
    await push({ event: 'recone_view', campaign: homeId, inventory: 'A' });
    expect((await stats('home')).json<Body>().totals).toMatchObject({ impressions: 1 });
    expect((await admin('DELETE', `${blocks(shopId)}/home`)).statusCode).toBe(204);
    expectAdminError(await stats('home'), 404, 'NOT_FOUND');
    await admin('PUT', `${blocks(shopId)}/home`, { title: 'Again', rules: [{ recommender: 'popular' }] });
    expect((await stats('home')).json<Body>().totals).toEqual(zeros);
  });
});
