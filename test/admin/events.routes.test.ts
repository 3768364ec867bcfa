import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackedItem } from '../../src/modules/tracking/domain/items.js';
import type { PushEventInput } from '../../src/modules/tracking/tracking.types.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';
const START = Date.UTC(2026, 2, 1, 9, 30, 0, 0);

describe.each(TEST_DIALECTS)('admin device events on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = t.adminHeaders) => t.app.inject({ method: 'GET', url, headers });
  const list = (shopId: string, query: string) => get(`/admin/v1/shops/${shopId}/events?${query}`);

  async function shopWithDevice(): Promise<{ shopId: string; did: string }> {
    const { shopId } = await createShopFixture(t.app.services);
    const { did } = await t.app.services.identity.createDevice(shopId);
    return { shopId, did };
  }

  async function push(
    shopId: string,
    did: string,
    event: PushEventInput['event'],
    items: TrackedItem[],
    extra: Partial<PushEventInput> = {},
  ): Promise<void> {
    await t.app.services.tracking.recordPush({ shopId, did, event, items, attribution: {}, ...extra });
  }

  it('answers the newest events first, with ISO 8601 UTC times, stored items and contract-named params', async () => {
    const { shopId, did } = await shopWithDevice();
    await t.app.services.shops.createCustomEvent(shopId, { code: 'newsletter_signup' });

    t.clock.set(START);
    await push(shopId, did, 'view', [{ id: 'A-1', amount: 1, price: 990 }], {
      attribution: { stream: 'web', segment: 'A', recommendedBy: 'dynamic', recommendedCode: 'rec-7' },
    });
    t.clock.set(START + 1_500);
    await push(shopId, did, 'category', [], { categoryId: 'shoes-12', attribution: { stream: 'android' } });
    t.clock.set(START + 60_000);
    await push(shopId, did, 'search', [], { searchQuery: 'red shoes' });
    t.clock.set(START + 61_001);
    await push(shopId, did, 'cart', [{ id: 'A-1', amount: 2, price: 990, line_id: 'L-1', fashion_size: '42' }], {
      // A source that was given but ignored (source rule 2) is stored as null and shown as absent.
      attribution: { stream: 'web', recommendedBy: null, recommendedCode: null },
    });
    t.clock.set(START + 3_600_000);
    await push(shopId, did, 'purchase', [{ id: 'A-1', amount: 2, price: 990 }], { purchase: { orderId: 'order-1' } });
    t.clock.set(START + 3_600_000 + 1);
    const custom = await t.app.services.tracking.recordCustom({
      shopId,
      did,
      identifiers: {},
      code: 'newsletter_signup',
      category: 'promo',
      label: 'footer',
      value: 3,
      variables: { plan: 'gold' },
    });
    expect(custom.ok).toBe(true);

    const response = await list(shopId, `did=${did}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      events: [
        {
          event: 'newsletter_signup',
          time: '2026-03-01T10:30:00.001Z',
          items: [],
          params: { category: 'promo', label: 'footer', value: 3, plan: 'gold' },
        },
        {
          event: 'purchase',
          time: '2026-03-01T10:30:00.000Z',
          items: [{ id: 'A-1', amount: 2, price: 990 }],
          params: { order_id: 'order-1' },
        },
        {
          event: 'cart',
          time: '2026-03-01T09:31:01.001Z',
          items: [{ id: 'A-1', amount: 2, price: 990, line_id: 'L-1', fashion_size: '42' }],
          params: { stream: 'web' },
        },
        { event: 'search', time: '2026-03-01T09:31:00.000Z', items: [], params: { search_query: 'red shoes' } },
        { event: 'category', time: '2026-03-01T09:30:01.500Z', items: [], params: { category_id: 'shoes-12', stream: 'android' } },
        {
          event: 'view',
          time: '2026-03-01T09:30:00.000Z',
          items: [{ id: 'A-1', amount: 1, price: 990 }],
          params: { stream: 'web', segment: 'A', recommended_by: 'dynamic', recommended_code: 'rec-7' },
        },
      ],
    });
  });

  it('shows what trackPurchase sent under the contract names in params', async () => {
    const { shopId, did } = await shopWithDevice();
    const body = {
      shop_id: shopId,
      did,
      event: 'purchase',
      items: [{ id: 'A-1', amount: 1, price: 990 }],
      order_id: 'M-1',
      order_cash: 890,
      order_bonuses: 100,
      order_delivery: 0,
      order_discount: 9.999,
      channel: 'mobile_app',
      tax_free: true,
      delivery_address: 'Moscow',
      custom: { floor: 3 },
    };
    const pushed = await t.app.inject({ method: 'POST', url: '/push', payload: body });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const response = await list(shopId, `did=${did}&limit=1`);
    expect(response.json<{ events: { params: unknown }[] }>().events[0]?.params).toEqual({
      order_id: 'M-1',
      order_cash: 890,
      order_bonuses: 100,
      order_delivery: 0,
      order_discount: 10,
      channel: 'mobile_app',
      tax_free: true,
      delivery_address: 'Moscow',
      custom: { floor: 3 },
    });
  });

  it('answers 50 events by default and the newest `limit` events when asked', async () => {
    const { shopId, did } = await shopWithDevice();
    for (let i = 1; i <= 51; i += 1) {
      t.clock.set(START + i * 1000);
      await push(shopId, did, 'view', [{ id: `P-${i}`, amount: 1 }]);
    }
    const ids = (body: { events: { items: { id: string }[] }[] }) => body.events.map((e) => e.items[0]?.id);

    const byDefault = await list(shopId, `did=${did}`);
    expect(byDefault.statusCode).toBe(200);
    expect(ids(byDefault.json())).toEqual(Array.from({ length: 50 }, (_, i) => `P-${51 - i}`));

    expect(ids((await list(shopId, `did=${did}&limit=2`)).json())).toEqual(['P-51', 'P-50']);
    expect(ids((await list(shopId, `did=${did}&limit=1000`)).json())).toHaveLength(51);
    expect(ids((await list(shopId, `did=${did}&limit=1`)).json())).toEqual(['P-51']);
  });

  it('answers no events for a well-formed device the shop does not know', async () => {
    const { shopId } = await shopWithDevice();
    const response = await list(shopId, 'did=ZZZZZZZZZZ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ events: [] });
  });

  it("scopes the events to the path's shop: shop B never sees shop A's device events", async () => {
    const a = await shopWithDevice();
    await push(a.shopId, a.did, 'view', [{ id: 'SECRET-1', amount: 1 }]);
    const b = await createShopFixture(t.app.services);

    const response = await list(b.shopId, `did=${a.did}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ events: [] });
    expect((await list(a.shopId, `did=${a.did}`)).json()).toMatchObject({ events: [{ event: 'view' }] });
  });

  it('answers 401 without the admin token or with a wrong one', async () => {
    const { shopId, did } = await shopWithDevice();
    const url = `/admin/v1/shops/${shopId}/events?did=${did}`;
    expectAdminError(await get(url, {}), 401, 'UNAUTHORIZED');
    expectAdminError(await get(url, { authorization: 'Bearer not-the-token' }), 401, 'UNAUTHORIZED');
  });

  it('lists the events of a device the SDK brought its own id for (a UUID)', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const did = '5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C';
    await t.app.services.identity.createDevice(shopId, did);
    await push(shopId, did, 'view', [{ id: 'A-1', amount: 1 }]);
    const response = await list(shopId, `did=${did}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ events: unknown[] }>().events).toHaveLength(1);
  });

  it.each([UNKNOWN_SHOP, 'not-a-shop'])('answers 404 NOT_FOUND for the unknown shop %s', async (shopId) => {
    const message = expectAdminError(await list(shopId, 'did=ZZZZZZZZZZ'), 404, 'NOT_FOUND');
    expect(message).toBe('Shop not found.');
  });

  it.each([
    ['', 'did', 'Query parameter `did` is required.'],
    ['limit=5', 'did', 'Query parameter `did` is required.'],
    ['did=', 'did', 'Query parameter `did` must match the pattern ^[A-Za-z0-9-]{8,64}$.'],
    ['did=short', 'did', 'Query parameter `did` must match the pattern ^[A-Za-z0-9-]{8,64}$.'],
    [`did=${'Z'.repeat(65)}`, 'did', 'Query parameter `did` must match the pattern ^[A-Za-z0-9-]{8,64}$.'],
    ['did=ZZZZ_ZZZZ', 'did', 'Query parameter `did` must match the pattern ^[A-Za-z0-9-]{8,64}$.'],
    ['did=ZZZZZZZZZZ&did=YYYYYYYYYY', 'did', 'Query parameter `did` must be a string.'],
    ['did=ZZZZZZZZZZ&limit=0', 'limit', 'Query parameter `limit` must be at least 1.'],
    ['did=ZZZZZZZZZZ&limit=-3', 'limit', 'Query parameter `limit` must be at least 1.'],
    ['did=ZZZZZZZZZZ&limit=1001', 'limit', 'Query parameter `limit` must be at most 1000.'],
    ['did=ZZZZZZZZZZ&limit=99999999999999999999', 'limit', 'Query parameter `limit` must be an integer.'],
    ['did=ZZZZZZZZZZ&limit=1.5', 'limit', 'Query parameter `limit` must be an integer.'],
    ['did=ZZZZZZZZZZ&limit=ten', 'limit', 'Query parameter `limit` must be an integer.'],
    ['did=ZZZZZZZZZZ&limit=', 'limit', 'Query parameter `limit` must be an integer.'],
    ['did=ZZZZZZZZZZ&since=2026-01-01', 'since', 'Query parameter `since` is not allowed.'],
  ])('answers 422 VALIDATION_FAILED for ?%s, naming %s', async (query, _field, expected) => {
    const { shopId } = await shopWithDevice();
    expect(expectAdminError(await list(shopId, query), 422, 'VALIDATION_FAILED')).toBe(expected);
  });
});
