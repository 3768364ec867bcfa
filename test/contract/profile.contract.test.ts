import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { fill, FORM_TYPE, type Json, type Vars } from './harness.js';
import {
  getProfileRequest,
  manageSubscriptionsRequest,
  pushTokenRequest,
  segmentsRequest,
  setProfileRequest,
  trackRequest,
  type SdkState,
} from './rn-sdk-requests.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * The profile group (issue 12 parts 2, 3 and 5; docs/profiles.md) as the platform's
 * React Native SDK calls it, on both databases: each SDK call rebuilt from its source
 * (rn-sdk-requests.ts) with the fields the SDK reads asserted, then the bad input and
 * credentials of contract-notes "Secrets and errors" as a table. Placeholders: {shop},
 * {secret}, {did} (a device of the shop), {unknown_did} (well-formed, never issued),
 * {segment}, {inactive_shop}, {unknown_shop}.
 */

interface Case {
  readonly name: string;
  readonly method?: 'GET' | 'POST';
  readonly path: string;
  readonly query?: string;
  readonly body?: Json | string;
  readonly contentType?: string;
  readonly status: number;
  readonly message?: string;
}

const SET = '/profile/set';
const TOKENS = '/mobile_push_tokens';
const MANAGE = '/subscriptions/manage';
const ADD = '/segments/add';
const REMOVE = '/segments/remove';

const CASES: readonly Case[] = [
  // POST /profile/set: credentials and the device, in the order of the /push table.
  {
    name: 'set: shop_id absent → 401',
    path: SET,
    body: { did: '{did}', first_name: 'Ann' },
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'set: shop_id malformed → 422',
    path: SET,
    body: { shop_id: 'abc', did: '{did}' },
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  { name: 'set: unknown shop → 404', path: SET, body: { shop_id: '{unknown_shop}', did: '{did}' }, status: 404, message: 'Shop not found' },
  {
    name: 'set: inactive shop → 403',
    path: SET,
    body: { shop_id: '{inactive_shop}', did: '{did}' },
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'set: did absent → 401',
    path: SET,
    body: { shop_id: '{shop}', email: 'ann@example.com' },
    status: 401,
    message: 'Parameter `did` is required.',
  },
  {
    name: 'set: did malformed → 422',
    path: SET,
    body: { shop_id: '{shop}', did: 'INVALID_ID' },
    status: 422,
    message: 'Device ID is not valid',
  },
  {
    name: 'set: unknown well-formed did → 404',
    path: SET,
    body: { shop_id: '{shop}', did: '{unknown_did}', first_name: 'Ann' },
    status: 404,
    message: 'Device not found',
  },
  // Bad values: the whole update is refused, naming the field (an unknown key is only ignored: see below).
  {
    name: 'set: custom property of the wrong type → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', vip_level: 'gold' },
    status: 422,
    message: 'Parameter `vip_level` must be an integer.',
  },
  {
    name: 'set: malformed birthday → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', birthday: '1990-02-30' },
    status: 422,
    message: 'Parameter `birthday` 1990-02-30 is not a calendar date.',
  },
  {
    name: 'set: birthday in the future → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', birthday: '2999-01-01' },
    status: 422,
    message: 'Parameter `birthday` must be from 1900-01-01 to today.',
  },
  {
    name: 'set: gender not m/f → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', gender: 'x' },
    status: 422,
    message: 'Parameter `gender` must be m or f.',
  },
  {
    name: 'set: malformed email → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', email: 'not-an-email' },
    status: 422,
    message: 'Parameter `email` is not valid: an email looks like name@domain.tld.',
  },
  {
    name: 'set: malformed phone → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', phone: '12345' },
    status: 422,
    message: 'Parameter `phone` is not valid: a phone has 10 to 15 digits.',
  },
  {
    name: 'set: kids not JSON → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', kids: '[{gender:m}' },
    status: 422,
    message: 'Parameter `kids` must be a JSON array.',
  },
  {
    name: 'set: kids JSON but not an array → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', kids: '{"gender":"m"}' },
    status: 422,
    message: 'Parameter `kids` must be an array.',
  },
  {
    name: 'set: a kid with a bad gender → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', kids: '[{"gender":"m"},{"gender":"q"}]' },
    status: 422,
    message: 'Parameter `kids[1]` gender must be m or f.',
  },
  {
    name: 'set: a subscription flag that is not a boolean → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', email_bulk: 'yes' },
    status: 422,
    message: 'Parameter `email_bulk` must be true or false.',
  },
  {
    name: 'set: a name of 256 characters → 422',
    path: SET,
    body: { shop_id: '{shop}', did: '{did}', first_name: 'x'.repeat(256) },
    status: 422,
    message: 'Parameter `first_name` must be at most 255 characters.',
  },
  {
    name: 'set: a wrong secret → 401',
    path: SET,
    body: { shop_id: '{shop}', shop_secret: 'nope', email: 'ann@example.com' },
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'set: with the secret, no did and no identifier → 422',
    path: SET,
    body: { shop_id: '{shop}', shop_secret: '{secret}', first_name: 'Ann' },
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'set: GET → 405',
    method: 'GET',
    path: SET,
    query: 'shop_id={shop}&did={did}',
    status: 405,
    message: 'Method GET is not allowed for this endpoint.',
  },

  // GET /profile
  {
    name: 'get: did absent → 422',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}',
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'get: did malformed → 422',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}&did=INVALID_ID',
    status: 422,
    message: 'Device ID is not valid',
  },
  {
    name: 'get: unknown well-formed did → 404',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}&did={unknown_did}',
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'get: by email without the secret → 401',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}&email=ann%40example.com',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'get: device and email without the secret → 401',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}&did={did}&email=ann%40example.com',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'get: a wrong secret → 401',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}&did={did}&shop_secret=wrong',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'get: by an email nobody holds, with the secret → 404',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={shop}&shop_secret={secret}&email=nobody%40example.com',
    status: 404,
    message: 'Profile not found',
  },
  {
    name: 'get: unknown shop → 404',
    method: 'GET',
    path: '/profile',
    query: 'shop_id={unknown_shop}&did={did}',
    status: 404,
    message: 'Shop not found',
  },

  // POST /mobile_push_tokens
  {
    name: 'tokens: did absent → 401',
    path: TOKENS,
    query: 'shop_id={shop}&token=t-1&platform=ios',
    contentType: FORM_TYPE,
    status: 401,
    message: 'Parameter `did` is required.',
  },
  {
    name: 'tokens: did malformed → 422',
    path: TOKENS,
    query: 'shop_id={shop}&did=INVALID_ID&token=t-1&platform=ios',
    contentType: FORM_TYPE,
    status: 422,
    message: 'Device ID is not valid',
  },
  {
    name: 'tokens: unknown well-formed did → 404',
    path: TOKENS,
    query: 'shop_id={shop}&did={unknown_did}&token=t-1&platform=ios',
    contentType: FORM_TYPE,
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'tokens: token absent → 422',
    path: TOKENS,
    query: 'shop_id={shop}&did={did}&platform=ios',
    contentType: FORM_TYPE,
    status: 422,
    message: 'Parameter `token` is required.',
  },
  {
    name: 'tokens: token over 4096 characters → 422',
    path: TOKENS,
    query: `shop_id={shop}&did={did}&platform=ios&token=${'t'.repeat(4097)}`,
    contentType: FORM_TYPE,
    status: 422,
    message: 'Parameter `token` must be at most 4096 characters.',
  },
  {
    name: 'tokens: platform absent → 422',
    path: TOKENS,
    query: 'shop_id={shop}&did={did}&token=t-1',
    contentType: FORM_TYPE,
    status: 422,
    message: 'Parameter `platform` is required.',
  },
  {
    name: 'tokens: unknown platform → 422',
    path: TOKENS,
    query: 'shop_id={shop}&did={did}&token=t-1&platform=huawei',
    contentType: FORM_TYPE,
    status: 422,
    message: 'Parameter `platform` must be one of ios, android.',
  },
  {
    name: 'tokens: shop_id absent → 401',
    path: TOKENS,
    query: 'did={did}&token=t-1&platform=ios',
    contentType: FORM_TYPE,
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'tokens: inactive shop → 403',
    path: TOKENS,
    query: 'shop_id={inactive_shop}&did={did}&token=t-1&platform=ios',
    contentType: FORM_TYPE,
    status: 403,
    message: 'Shop is not active.',
  },

  // POST /subscriptions/manage
  {
    name: 'manage: no flag → 422',
    path: MANAGE,
    body: { shop_id: '{shop}', did: '{did}' },
    status: 422,
    message:
      'At least one of `email_bulk`, `email_chain`, `email_transactional`, `sms_bulk`, `sms_chain`, `sms_transactional` is required.',
  },
  {
    name: 'manage: a flag that is not a boolean → 422',
    path: MANAGE,
    body: { shop_id: '{shop}', did: '{did}', sms_bulk: 'sure' },
    status: 422,
    message: 'Parameter `sms_bulk` must be true or false.',
  },
  {
    name: 'manage: no identifier → 422',
    path: MANAGE,
    body: { shop_id: '{shop}', email_bulk: true },
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'manage: email without did or secret → 401',
    path: MANAGE,
    body: { shop_id: '{shop}', email: 'ann@example.com', email_bulk: true },
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'manage: malformed email → 422',
    path: MANAGE,
    body: { shop_id: '{shop}', did: '{did}', email: 'nope', email_bulk: true },
    status: 422,
    message: 'Parameter `email` is not valid.',
  },
  {
    name: 'manage: unknown well-formed did → 404',
    path: MANAGE,
    body: { shop_id: '{shop}', did: '{unknown_did}', email_bulk: true },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'manage: by email with the secret',
    path: MANAGE,
    body: { shop_id: '{shop}', shop_secret: '{secret}', email: 'server@example.com', sms_chain: 'false' },
    status: 200,
  },

  // POST /segments/add, /segments/remove, GET /segments/get
  {
    name: 'add: segment_id absent → 422',
    path: ADD,
    body: { shop_id: '{shop}', did: '{did}' },
    status: 422,
    message: 'Parameter `segment_id` is required.',
  },
  {
    name: 'add: segment_id not a number → 422',
    path: ADD,
    body: { shop_id: '{shop}', did: '{did}', segment_id: 'SEGMENT_ID' },
    status: 422,
    message: 'Parameter `segment_id` must be an integer of at least 1.',
  },
  {
    name: 'add: unknown segment → 404',
    path: ADD,
    body: { shop_id: '{shop}', did: '{did}', segment_id: 999 },
    status: 404,
    message: 'Segment 999 does not exist.',
  },
  {
    name: 'add: unknown well-formed did → 404',
    path: ADD,
    body: { shop_id: '{shop}', did: '{unknown_did}', segment_id: '{segment}' },
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'add: malformed did → 422',
    path: ADD,
    body: { shop_id: '{shop}', did: 'INVALID_ID', segment_id: '{segment}' },
    status: 422,
    message: 'Device ID is not valid',
  },
  {
    name: 'add: phone without did or secret → 401',
    path: ADD,
    body: { shop_id: '{shop}', phone: '+10000000000', segment_id: '{segment}' },
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'add: a wrong secret → 401',
    path: ADD,
    body: { shop_id: '{shop}', shop_secret: 'nope', phone: '+10000000000', segment_id: '{segment}' },
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'add: by phone with the secret',
    path: ADD,
    body: { shop_id: '{shop}', shop_secret: '{secret}', phone: '+10000000000', segment_id: '{segment}' },
    status: 200,
  },
  {
    name: 'remove: unknown segment → 404',
    path: REMOVE,
    body: { shop_id: '{shop}', did: '{did}', segment_id: 998 },
    status: 404,
    message: 'Segment 998 does not exist.',
  },
  {
    name: 'remove: someone nobody knows, with the secret',
    path: REMOVE,
    body: { shop_id: '{shop}', shop_secret: '{secret}', email: 'ghost@example.com', segment_id: '{segment}' },
    status: 200,
  },
  {
    name: 'get segments: unknown well-formed did → 404',
    method: 'GET',
    path: '/segments/get',
    query: 'shop_id={shop}&did={unknown_did}',
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'get segments: email without did or secret → 401',
    method: 'GET',
    path: '/segments/get',
    query: 'shop_id={shop}&email=ann%40example.com',
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'get segments: shop_id only in the JSON body of the GET',
    method: 'GET',
    path: '/segments/get',
    body: { shop_id: '{shop}', did: '{unknown_did}' },
    status: 404,
    message: 'Device not found',
  },
];

describe.each(TEST_DIALECTS)('profile group contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;
  let segmentId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const shop = await createShopFixture(t.app.services);
    const inactive = await createShopFixture(t.app.services);
    await t.app.services.shops.updateShop(inactive.shopId, { active: false });
    await t.app.services.customProperties.createProperty(shop.shopId, { code: 'favourite_color', type: 'string' });
    await t.app.services.customProperties.createProperty(shop.shopId, { code: 'vip_level', type: 'integer' });
    segmentId = (await t.app.services.segments.createSegment(shop.shopId, { name: 'Newsletter' })).id;
    const { did } = await initDevice(t, shop.shopId);
    vars = {
      shop: shop.shopId,
      secret: shop.secret,
      did,
      unknown_did: 'zzzzzzzzzz',
      segment: String(segmentId),
      inactive_shop: inactive.shopId,
      unknown_shop: 'c'.repeat(30),
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const sdk = async (): Promise<SdkState> => {
    const { did, sid } = await initDevice(t, vars.shop!);
    return { shopId: vars.shop!, did, sid };
  };
  const send = (request: InjectOptions) => t.app.inject(request);
  const admin = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${vars.shop}/profiles?${query}`, headers: t.adminHeaders });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ profiles: Record<string, unknown>[] }>().profiles;
  };
  const expectSuccess = (response: LightMyRequestResponse) => {
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 200 });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ status: 'success' });
  };

  it.each(CASES)('$name', async (row) => {
    const url = row.query === undefined ? row.path : `${row.path}?${fill(row.query, vars)}`;
    const request: InjectOptions = { method: row.method ?? 'POST', url };
    if (row.body !== undefined) {
      request.payload = typeof row.body === 'string' ? fill(row.body, vars) : JSON.stringify(fill(row.body, vars));
      request.headers = { 'content-type': row.contentType ?? 'application/json' };
    } else if (row.contentType) request.headers = { 'content-type': row.contentType };
    const response = await send(request);
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    if (row.status === 200) expect(response.json()).toEqual({ status: 'success' });
    else expect(response.json()).toEqual({ status: 'error', payload: { message: row.message } });
  });

  it('getProfile: bought_something is derived from the orders of the customer, whichever of its devices bought', async () => {
    const phone = await sdk();
    const tablet = await sdk();
    const bought = async (state: SdkState) => {
      const response = await send(getProfileRequest(state));
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ bought_something: boolean }>().bought_something;
    };
    expectSuccess(await send(setProfileRequest(phone, { email: 'buyer@example.org' })));
    expect(await bought(phone)).toBe(false);

    // The tablet buys while still anonymous: its own customer has bought, the phone's not yet.
    const purchase = { event: 'purchase', order_id: 'BS-1', order_price: 10, items: [{ id: 'p1', amount: 1, price: 10 }] };
    expectSuccess(await send(trackRequest(tablet, purchase)));
    expect(await bought(tablet)).toBe(true);
    expect(await bought(phone)).toBe(false);

    // The tablet signs in: its customer merges into the phone's, orders and all.
    expectSuccess(await send(setProfileRequest(tablet, { email: 'buyer@example.org' })));
    expect(await bought(phone)).toBe(true);
    expect(await bought(tablet)).toBe(true);
  });

  it('getProfile: bought_something counts a completed loyalty checkout order, kept under a customer merged since', async () => {
    const s = t.app.services;
    await s.loyalty.putSettings(vars.shop!, {
      rewardPercent: 500,
      maxBonusSharePercent: 5000,
      bonusValue: 100,
      bonusLifetimeDays: null,
      rewardPendingDays: 0,
    });
    const app = await sdk();
    // The member the shop's till knows by phone is a customer younger than the app's device.
    await s.loyalty.joinMember(vars.shop!, { phone: '79005550101' });
    const checkout = (step: string, extra: Record<string, unknown>) =>
      send({
        method: 'POST',
        url: `/loyalty/checkout/${step}`,
        payload: { shop_id: vars.shop, shop_secret: vars.secret, order_id: 'BS-C1', ...extra },
      });
    const applied = await checkout('apply', { identifier: '79005550101', cart_items: [{ product_id: 'p1', price: 100, quantity: 1 }] });
    expect(applied.statusCode, applied.body).toBe(200);
    const read = async () => (await send(getProfileRequest(app))).json<{ bought_something: boolean }>().bought_something;

    // The app's customer signs in with that phone: the member's customer merges into it.
    expectSuccess(await send(setProfileRequest(app, { phone: '79005550101' })));
    expect(await read()).toBe(false);
    const confirmed = await checkout('confirm', {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await read()).toBe(true);
  });

  it('setProfile with keys the shop has no custom property for: the rest is stored, the answer names the ignored keys', async () => {
    const state = await sdk();
    const response = await send(
      setProfileRequest(state, {
        first_name: 'Kate',
        favourite_color: 'blue',
        shoe_size: 42,
        hair: { colour: 'red' },
        email: 'kate@example.org',
      }),
    );
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 200 });
    // What the SDK reads: `status`, a success (not a number of 400 or more); the keys it lost beside it.
    expect(response.json()).toEqual({ status: 'success', payload: { ignored_keys: ['shoe_size', 'hair'] } });

    const [profile] = await admin('email=kate%40example.org');
    expect(profile).toMatchObject({ devices: [state.did], properties: { first_name: 'Kate', favourite_color: 'blue' } });
    expect(Object.keys(profile!.properties as object)).not.toContain('shoe_size');
    const read = await send(getProfileRequest(state));
    expect(read.json()).toMatchObject({ has_email: true, custom_properties: { favourite_color: 'blue' } });
  });

  it('setProfile: stores every field the SDK sends, links the identifiers, and GET /profile reads it back', async () => {
    const state = await sdk();
    expectSuccess(
      await send(
        setProfileRequest(state, {
          external_id: 100500,
          email: 'John.Doe@examplemail.com',
          phone: '4400114527199',
          first_name: 'John',
          last_name: 'Doe',
          birthday: '1990-03-11',
          age: 31,
          gender: 'm',
          location: 'NY',
          bought_something: true,
          loyalty_id: '000001234567',
          loyalty_card_location: 'NY',
          loyalty_status: '5% discount',
          loyalty_bonuses: 1123,
          loyalty_bonuses_to_next_level: 1877,
          fb_id: '000000000354677',
          vk_id: 'vk031845',
          telegram_id: '0125762968357835',
          kids: [
            { gender: 'm', birthday: '2001-04-12' },
            { gender: 'f', birthday: '2015-07-28' },
          ],
          auto: [{ brand: 'Nissan', model: 'Qashqai', vds: 'TM7N243E4G0BJG978' }],
          favourite_color: 'green',
          vip_level: 3,
          email_bulk: true,
          sms_bulk: false,
        }),
      ),
    );

    const [profile] = await admin('telegram_id=0125762968357835');
    expect(profile).toMatchObject({
      email: 'john.doe@examplemail.com',
      phone: '4400114527199',
      external_id: '100500',
      loyalty_id: '000001234567',
      telegram_id: '0125762968357835',
      devices: [state.did],
      properties: {
        favourite_color: 'green',
        vip_level: 3,
        first_name: 'John',
        last_name: 'Doe',
        birthday: '1990-03-11',
        age: 31,
        gender: 'm',
        location: 'NY',
        bought_something: true,
        loyalty_card_location: 'NY',
        loyalty_status: '5% discount',
        loyalty_bonuses: 1123,
        loyalty_bonuses_to_next_level: 1877,
        fb_id: '000000000354677',
        vk_id: 'vk031845',
        kids: [
          { gender: 'm', birthday: '2001-04-12' },
          { gender: 'f', birthday: '2015-07-28' },
        ],
        auto: [{ brand: 'Nissan', model: 'Qashqai', vds: 'TM7N243E4G0BJG978' }],
      },
      subscriptions: { email_bulk: true, sms_bulk: false },
      push_tokens: [],
    });
    expect(Object.keys(profile!.properties as object)).not.toContain('email_bulk');

    // What the SDK's getProfile() receives: the fields an app may show, no identifiers.
    const limited = await send(getProfileRequest(state));
    expect(limited.statusCode, limited.body).toBe(200);
    expect(limited.json()).toEqual({
      id: String(profile!.id),
      has_email: true,
      gender: 'm',
      bought_something: true,
      custom_properties: { favourite_color: 'green', vip_level: 3 },
    });

    // A server with the secret reads the whole profile by an identifier.
    const full = await send({ method: 'GET', url: `/profile?shop_id=${vars.shop}&shop_secret=${vars.secret}&phone=%2B4400114527199` });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toMatchObject({
      id: String(profile!.id),
      email: 'john.doe@examplemail.com',
      first_name: 'John',
      middle_name: null,
      kids: [
        { gender: 'm', birthday: '2001-04-12' },
        { gender: 'f', birthday: '2015-07-28' },
      ],
      custom_properties: { favourite_color: 'green', vip_level: 3 },
    });
  });

  it('setProfile: a later call changes only what it sends; a bad field stores nothing at all', async () => {
    const state = await sdk();
    expectSuccess(await send(setProfileRequest(state, { email: 'kate@example.com', first_name: 'Kate', favourite_color: 'red' })));
    expectSuccess(await send(setProfileRequest(state, { last_name: 'Bell', favourite_color: 'blue' })));
    const refused = await send(setProfileRequest(state, { first_name: 'Changed', gender: 'x' }));
    expect(refused.statusCode).toBe(422);
    const [profile] = await admin('email=kate%40example.com');
    expect(profile?.properties).toEqual({ first_name: 'Kate', last_name: 'Bell', favourite_color: 'blue' });
  });

  it('setProfile: a server with the secret names the customer by identifiers alone, created when nobody holds them', async () => {
    const body = { shop_id: vars.shop, shop_secret: vars.secret, email: 'olga@example.com', first_name: 'Olga', sms_chain: true };
    expectSuccess(
      await send({ method: 'POST', url: '/profile/set', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
    );
    const [profile] = await admin('email=olga%40example.com');
    expect(profile).toMatchObject({ devices: [], properties: { first_name: 'Olga' }, subscriptions: { sms_chain: true } });
  });

  it('setProfile: concurrent updates of one profile all land (the profile row is locked for its properties)', async () => {
    const state = await sdk();
    expectSuccess(await send(setProfileRequest(state, { email: 'max@example.com' })));
    const responses = await Promise.all([
      send(setProfileRequest(state, { favourite_color: 'teal' })),
      send(setProfileRequest(state, { vip_level: 7 })),
      send(setProfileRequest(state, { first_name: 'Max' })),
    ]);
    for (const response of responses) expectSuccess(response);
    const [profile] = await admin('email=max%40example.com');
    expect(profile?.properties).toEqual({ favourite_color: 'teal', vip_level: 7, first_name: 'Max' });
  });

  it('setProfile: the SDK’s null values (JSON null, "null" kids) count as absent', async () => {
    const state = await sdk();
    expectSuccess(await send(setProfileRequest(state, { email: 'nina@example.com', kids: null, first_name: '' })));
    const [profile] = await admin('email=nina%40example.com');
    expect(profile?.properties).toEqual({});
  });

  it('setProfile: an email another device already set moves this device to that customer', async () => {
    const phone = await sdk();
    const tablet = await sdk();
    expectSuccess(await send(setProfileRequest(phone, { email: 'lee@example.com', first_name: 'Lee' })));
    expectSuccess(await send(setProfileRequest(tablet, { email: 'LEE@example.com' })));
    const [profile] = await admin('email=lee%40example.com');
    // Both devices were issued at the same instant of the test clock: their order is not defined.
    expect([...(profile?.devices as string[])].sort()).toEqual([phone.did, tablet.did].sort());
    const read = await send(getProfileRequest(tablet));
    expect(read.json()).toMatchObject({ id: String(profile!.id), has_email: true });
  });

  it('mobile_push_tokens: registers the token of the device’s customer, idempotently, and moves it with the app install', async () => {
    const state = await sdk();
    expectSuccess(await send(setProfileRequest(state, { email: 'pat@example.com' })));
    const token = 'fGx1c2VyOjEyMw:APA91bH-example_token';
    expectSuccess(await send(pushTokenRequest(state, token)));
    const stored = async () =>
      t.db.db
        .selectFrom('profile_push_tokens')
        .selectAll()
        .where('shop_id', '=', vars.shop!)
        .where('token', '=', token)
        .executeTakeFirstOrThrow();
    const first = await stored();
    t.clock.advance(60_000);
    // Every start sends it again: nothing is written.
    expectSuccess(await send(pushTokenRequest(state, token)));
    expect(await stored()).toEqual(first);
    expect((await admin('email=pat%40example.com'))[0]?.push_tokens).toEqual([{ platform: 'android', token }]);

    // The same token from another install's device: it moves there.
    const other = await sdk();
    expectSuccess(await send(pushTokenRequest(other, token, 'ios')));
    expect((await admin('email=pat%40example.com'))[0]?.push_tokens).toEqual([]);
    expect((await admin(`did=${other.did}`))[0]?.push_tokens).toEqual([{ platform: 'ios', token }]);
  });

  it('segments: add, get (a GET with a JSON body) and remove, as the SDK calls them', async () => {
    const state = await sdk();
    const get = async () => {
      const response = await send(segmentsRequest(state, 'get'));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      return response.json<unknown>();
    };
    expect(await get()).toEqual([]);
    expectSuccess(await send(segmentsRequest(state, 'add', { segment_id: String(segmentId) })));
    expectSuccess(await send(segmentsRequest(state, 'add', { segment_id: String(segmentId) })));
    expect(await get()).toEqual([{ id: segmentId, type: 'static' }]);
    expectSuccess(await send(segmentsRequest(state, 'remove', { segment_id: String(segmentId) })));
    expect(await get()).toEqual([]);
  });

  it('segments: an email given with the device links it, so the server finds the member by email', async () => {
    const state = await sdk();
    expectSuccess(await send(segmentsRequest(state, 'add', { email: 'jane@example.com', segment_id: String(segmentId) })));
    const [profile] = await admin('email=jane%40example.com');
    expect(profile).toMatchObject({ devices: [state.did], segments: [segmentId] });
    const byServer = await send({
      method: 'GET',
      url: `/segments/get?shop_id=${vars.shop}&shop_secret=${vars.secret}&email=jane%40example.com`,
    });
    expect(byServer.json()).toEqual([{ id: segmentId, type: 'static' }]);
  });

  it('subscriptions manage: sets the flags sent and keeps the others', async () => {
    const state = await sdk();
    expectSuccess(
      await send(
        manageSubscriptionsRequest(state, {
          email: 'my@example.com',
          phone: '+100000000000',
          email_bulk: true,
          email_chain: true,
          email_transactional: true,
          sms_bulk: true,
          sms_chain: true,
          sms_transactional: true,
        }),
      ),
    );
    expectSuccess(await send(manageSubscriptionsRequest(state, { email: 'my@example.com', email_chain: false, sms_bulk: false })));
    const [profile] = await admin('email=my%40example.com');
    expect(profile).toMatchObject({
      phone: '100000000000',
      devices: [state.did],
      subscriptions: {
        email_bulk: true,
        email_chain: false,
        email_transactional: true,
        sms_bulk: false,
        sms_chain: true,
        sms_transactional: true,
      },
    });
  });
});

describe('profile group in the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
  });

  it('documents each route with its parameters and the answer the SDK parses', () => {
    type Operation = {
      tags?: string[];
      summary?: string;
      requestBody?: unknown;
      parameters?: { name: string }[];
      responses?: Record<string, unknown>;
    };
    const paths = t.app.swagger().paths as Record<string, Record<string, Operation>>;
    const routes: ReadonlyArray<readonly [string, string, string]> = [
      ['/profile/set', 'post', 'did'],
      ['/profile', 'get', 'did'],
      ['/mobile_push_tokens', 'post', 'token'],
      ['/subscriptions/manage', 'post', 'email_bulk'],
      ['/segments/add', 'post', 'segment_id'],
      ['/segments/remove', 'post', 'segment_id'],
      ['/segments/get', 'get', 'did'],
    ];
    for (const [path, method, parameter] of routes) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op?.tags).toEqual(['profile']);
      expect(op?.summary).toEqual(expect.any(String));
      expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['200', '4XX']));
      const documented = JSON.stringify(op?.requestBody ?? op?.parameters);
      expect(documented, `${method} ${path} documents ${parameter}`).toContain(`"${parameter}"`);
    }
    const profile = JSON.stringify(paths['/profile']?.get?.responses?.['200']);
    for (const field of ['has_email', 'gender', 'bought_something', 'custom_properties']) expect(profile).toContain(field);
  });
});
