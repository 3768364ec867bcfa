import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SliderInput } from '../../src/modules/sliders/sliders.service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedSpec } from '../helpers/feed-builder.js';
import { SDK_GET_HEADERS, SDK_USER_AGENT, sdkGetQuery, type SdkValue } from './sdk-wire.js';

/**
 * The official React Native SDK's first start and its GET parameters, on both databases
 * (issue 12 part 1; contract-notes "Identifiers" and "Wire format"). Each request is the
 * one the SDK sends (test/contract/sdk-wire.ts): on first start `GET /init` with
 * `shop_id` and `stream` (null when the app set none) and, when the SDK found one, `did`
 * (the Android ID, or on iOS the vendor UUID or an empty string; 4.0.18 as shipped finds
 * none and sends no did), no `v`, no sid, a form content type and no body. From the answer the SDK reads `did` and `seance` (and treats a `status` of 400
 * or more as failure); afterwards every call carries did, seance and sid.
 */

const ANDROID_ID = '9774d56d682e549c';
const IOS_UUID = '5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C';

const FEED: FeedSpec = {
  categories: [{ id: '1', name: 'Футболки', url: 'https://shop.example/c/tees' }],
  offers: [
    {
      id: 'tee-1',
      available: true,
      url: 'https://shop.example/p/tee-1',
      price: '990',
      currencyId: 'RUB',
      categoryIds: ['1'],
      name: 'T-shirt sand',
    },
  ],
};

const SLIDER: SliderInput = {
  width: 800,
  height: 300,
  slides: [{ imageUrl: 'https://cdn.example.org/a.jpg', url: 'https://shop.example.org/a' }],
};

describe.each(TEST_DIALECTS)('the mobile SDK starting against Patron on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shopId = (await createShopFixture(t.app.services)).shopId;
    await importTestFeed(t.app.services, shopId, FEED);
    await t.app.services.sliders.putSlider(shopId, 'main', SLIDER);
  });
  afterAll(async () => {
    await t.close();
  });

  const sdkGet = (path: string, params: ReadonlyArray<readonly [string, SdkValue]>) =>
    t.app.inject({ method: 'GET', url: `${path}?${sdkGetQuery(params)}`, headers: { ...SDK_GET_HEADERS } });

  /**
   * The SDK's first start: GET /init as it sends it; what it reads from the answer. 4.0.x
   * before 4.0.18 put the device id first; 4.0.18 builds shop_id and stream and adds a
   * did only when it has one (`undefined` here: none at all).
   */
  async function firstStart(did: string | undefined): Promise<{ did: string; seance: string }> {
    const params: Array<[string, SdkValue]> =
      did === undefined
        ? [
            ['shop_id', shopId],
            ['stream', null],
          ]
        : [
            ['did', did],
            ['shop_id', shopId],
            ['stream', null],
          ];
    const response = await sdkGet('/init', params);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body).not.toHaveProperty('status');
    expect(body).not.toHaveProperty('message');
    expect(body.seance).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(body.sid).toBe(body.seance);
    return { did: body.did as string, seance: body.seance as string };
  }

  /** A tracked event right after the start: its did must be known (404 otherwise). */
  async function track(did: string, seance: string) {
    return t.app.inject({
      method: 'POST',
      url: '/push',
      headers: { 'content-type': 'application/json', 'user-agent': SDK_USER_AGENT },
      payload: JSON.stringify({ shop_id: shopId, stream: null, event: 'view', items: [{ id: 'tee-1' }], did, seance, sid: seance }),
    });
  }

  it('sends no v: the Android ID is registered as the device, and events of it are accepted', async () => {
    const { did, seance } = await firstStart(ANDROID_ID);
    expect(did).toBe(ANDROID_ID);
    expect(await t.app.services.identity.findDevice(shopId, ANDROID_ID)).toBeDefined();
    const tracked = await track(did, seance);
    expect(tracked.statusCode, tracked.body).toBe(200);
    expect(tracked.json()).toEqual({ status: 'success' });
  });

  it('an iOS vendor UUID is registered as the device', async () => {
    const { did, seance } = await firstStart(IOS_UUID);
    expect(did).toBe(IOS_UUID);
    expect((await track(did, seance)).statusCode).toBe(200);
  });

  it('an empty did (no device id available) gets a new device', async () => {
    const { did, seance } = await firstStart('');
    expect(did).toMatch(/^[A-Za-z0-9]{10}$/);
    expect((await track(did, seance)).statusCode).toBe(200);
  });

  it('4.0.18 as shipped sends no did on its first /init: it gets a new device, and its events are accepted', async () => {
    const { did, seance } = await firstStart(undefined);
    expect(did).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(await t.app.services.identity.findDevice(shopId, did)).toBeDefined();
    const tracked = await track(did, seance);
    expect(tracked.statusCode, tracked.body).toBe(200);
  });

  it('a second first start with the same device id (a reinstall) keeps the one device', async () => {
    const once = await firstStart('a1b2c3d4e5f60718');
    const again = await firstStart('a1b2c3d4e5f60718');
    expect(again.did).toBe(once.did);
    const device = await t.app.services.identity.findDevice(shopId, 'a1b2c3d4e5f60718');
    expect(device).toBeDefined();
  });

  it('the raw GET of the SDK is what the wire-format rules expect', () => {
    // Guards the helper itself: a search for `t-shirt, sand` and an email, as the SDK sends them.
    expect(sdkGetQuery([['search_query', 't-shirt, sand']])).toBe('search_query=t-shirt%252C+sand');
    expect(sdkGetQuery([['email', 'ann@example.org']])).toBe('email=ann%2540example.org');
    expect(sdkGetQuery([['stream', null]])).toBe('stream=null');
  });

  it('a search for `t-shirt, sand` is read as typed and finds the product', async () => {
    const { did, seance } = await firstStart('search-device-01');
    const response = await sdkGet('/search', [
      ['shop_id', shopId],
      ['stream', null],
      ['type', 'full_search'],
      ['search_query', 't-shirt, sand'],
      ['did', did],
      ['seance', seance],
      ['sid', seance],
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ search_query: string; products_total: number; products: Array<{ id: string }> }>();
    expect(body.search_query).toBe('t-shirt, sand');
    expect(body.products.map((product) => product.id)).toEqual(['tee-1']);
  });

  it('a literal percent sign survives the double encoding', async () => {
    const response = await sdkGet('/search', [
      ['shop_id', shopId],
      ['type', 'full_search'],
      ['search_query', 'sand 100% %25'],
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ search_query: string }>().search_query).toBe('sand 100% %25');
  });

  it('a push with a product event: the product lookup the SDK sends with a JSON body on GET answers its url', async () => {
    const { did, seance } = await firstStart('push-click-dev-01');
    const response = await t.app.inject({
      method: 'GET',
      url: `/products/get?item_id=tee-1&shop_id=${shopId}`,
      headers: { 'content-type': 'application/json', 'user-agent': SDK_USER_AGENT },
      payload: JSON.stringify({ shop_id: shopId, stream: null, did, seance, sid: seance }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ url: string }>().url).toBe('https://shop.example/p/tee-1');
  });

  it.each([
    ['email', 'ann@example.org'],
    ['phone', '+7 (900) 123-45-67'],
  ])('a GET identifier with reserved characters (%s) arrives as the app gave it', async (name, value) => {
    const response = await sdkGet('/slider', [
      ['shop_id', shopId],
      ['code', 'main'],
      [name, value],
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'success' });
  });
});
