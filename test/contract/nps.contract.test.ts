import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { androidReview, iosReview, rnList, rnReview, type Device } from './nps-requests.js';
import { initDevice } from './tracking-fixtures.js';

const NOW = Date.UTC(2026, 11, 7, 10, 0, 0);
const DAY = '2026-12-07';

/**
 * POST /nps/create, GET /nps/channels and GET /nps/categories (contract-notes "Beyond
 * interface.md") as the three SDKs send them (nps-requests.ts), on both databases: the
 * answers they parse, what is stored, and the refusals in the status envelope.
 */
describe.each(TEST_DIALECTS)('NPS calls on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;
  let device: Device;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(NOW);
    ({ shopId, secret } = await createShopFixture(t.app.services, { timezone: 'Europe/Moscow' }));
    const put = (path: string, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}/nps/${path}`, headers: t.adminHeaders, payload });
    for (const code of ['android_app', 'ios_app', 'email']) expect((await put(`channels/${code}`, { name: code })).statusCode).toBe(200);
    expect(
      (await put('categories/delivery', { name: 'Delivery', promoter_question: 'What did you like?', promoter_success: 'Thanks!' }))
        .statusCode,
    ).toBe(200);
    expect((await put('categories/checkout', { name: 'Checkout' })).statusCode).toBe(200);
    device = { shopId, ...(await initDevice(t, shopId)) };
  });
  afterAll(async () => t?.close());

  const reviews = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shopId}/nps/reviews?date_from=${DAY}&date_to=${DAY}&limit=200`,
      headers: t.adminHeaders,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ reviews: Array<Record<string, unknown>> }>().reviews;
  };
  const expectSuccess = async (request: InjectOptions) => {
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ status: 'success' });
  };
  const profileOf = async (did: string) => (await t.app.services.identity.requireDevice(shopId, did)).profileId;

  it('answers the React Native SDK’s channel and category lists as bare arrays, every text a string', async () => {
    const channels = await t.app.inject(rnList(device, 'channels'));
    expect(channels.statusCode).toBe(200);
    expect(channels.json()).toEqual([
      { name: 'android_app', code: 'android_app' },
      { name: 'email', code: 'email' },
      { name: 'ios_app', code: 'ios_app' },
    ]);
    const categories = await t.app.inject(rnList(device, 'categories'));
    expect(categories.statusCode).toBe(200);
    expect(categories.json()).toEqual([
      {
        name: 'Checkout',
        code: 'checkout',
        detractor_question: '',
        passive_question: '',
        promoter_question: '',
        detractor_success: '',
        passive_success: '',
        promoter_success: '',
      },
      {
        name: 'Delivery',
        code: 'delivery',
        detractor_question: '',
        passive_question: '',
        promoter_question: 'What did you like?',
        detractor_success: '',
        passive_success: '',
        promoter_success: 'Thanks!',
      },
    ]);
  });

  it('stores the review of each SDK’s form, once for a retried request, tied to its order', async () => {
    // A tracked order the React Native review names.
    const purchase = await t.app.inject({
      method: 'POST',
      url: '/push',
      payload: { shop_id: shopId, did: device.did, event: 'purchase', order_id: 'A-100', items: [{ id: '7', price: 100, amount: 1 }] },
    });
    expect(purchase.statusCode, purchase.body).toBe(200);
    const rn = rnReview(device, { rate: 9, category: 'delivery', orderId: 'A-100', comment: 'Fast, 100% on time & tidy' });
    await expectSuccess(rn);
    // axios's retry may carry an empty form body (Content-Length: 0): the same review.
    await expectSuccess({ ...rn, payload: '' });
    const ios = iosReview(device, { rate: 7, category: 'checkout' });
    await expectSuccess(ios);
    await expectSuccess(ios);
    await expectSuccess(androidReview(device, { rate: 3, category: 'checkout', comment: 'Slow' }, { from: 'bulk', code: 'x1' }));
    const profileId = await profileOf(device.did);
    const stored = (await reviews()).map(({ id: _id, created_at: _c, updated_at: _u, ...rest }) => rest);
    expect(stored).toEqual([
      { channel: 'android_app', category: 'checkout', rate: 3, comment: 'Slow', order_id: null, order_found: false, profile_id: profileId },
      { channel: 'ios_app', category: 'checkout', rate: 7, comment: null, order_id: null, order_found: false, profile_id: profileId },
      {
        channel: 'android_app',
        category: 'delivery',
        rate: 9,
        comment: 'Fast, 100% on time & tidy',
        order_id: 'A-100',
        order_found: true,
        profile_id: profileId,
      },
    ]);
  });

  it('replaces the review of the same order, channel and category instead of adding one', async () => {
    const before = (await reviews()).length;
    await expectSuccess(rnReview(device, { rate: 4, category: 'delivery', orderId: 'A-100', comment: 'Changed my mind' }));
    const after = await reviews();
    expect(after).toHaveLength(before);
    expect(after.find((r) => r.order_id === 'A-100')).toMatchObject({ rate: 4, comment: 'Changed my mind', order_found: true });
  });

  it('takes a review by email from a server holding the secret, for the customer holding it', async () => {
    await expectSuccess({
      method: 'POST',
      url: '/nps/create',
      payload: {
        shop_id: shopId,
        shop_secret: secret,
        email: 'Rita@Example.com',
        channel: 'email',
        category: 'delivery',
        rate: 10,
        order_id: 'B-1',
      },
    });
    const [profile] = await t.app.services.identity.findProfilesOnly(shopId, { email: 'rita@example.com' });
    expect(profile).toBeDefined();
    expect((await reviews()).find((r) => r.order_id === 'B-1')).toMatchObject({ profile_id: profile?.id, rate: 10, order_found: false });
  });

  const refusals: ReadonlyArray<readonly [string, () => InjectOptions, number, string]> = [
    ['a rate of 11', () => rnReview(device, { rate: 11, category: 'delivery' }), 422, 'Parameter `rate` must be an integer from 0 to 10.'],
    [
      'a rate of -1',
      () => androidReview(device, { rate: -1, category: 'delivery' }),
      422,
      'Parameter `rate` must be an integer from 0 to 10.',
    ],
    [
      'a rate of 7.5',
      () => iosReview(device, { rate: 7.5, category: 'delivery' }),
      422,
      'Parameter `rate` must be an integer from 0 to 10.',
    ],
    [
      'an unknown channel',
      () => iosReview(device, { rate: 8, channel: 'web_popup', category: 'delivery' }),
      422,
      'Unknown NPS channel `web_popup`.',
    ],
    ['an unknown category', () => androidReview(device, { rate: 8, category: 'returns' }), 422, 'Unknown NPS category `returns`.'],
    ['no category (the React Native SDK’s empty one)', () => rnReview(device, { rate: 8 }), 422, 'Parameter `category` is required.'],
    [
      'an email without the secret',
      () => ({
        method: 'POST',
        url: '/nps/create',
        payload: { shop_id: shopId, email: 'rita@example.com', channel: 'email', category: 'delivery', rate: 5 },
      }),
      401,
      'Invalid secret key',
    ],
    ['an unknown device', () => rnReview({ ...device, did: 'unknown0001' }, { rate: 8, category: 'delivery' }), 404, 'Device not found'],
  ];
  it.each(refusals)('refuses %s in the status envelope and stores nothing', async (_name, request, status, message) => {
    const before = await reviews();
    const response = await t.app.inject(request());
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status, body: { status: 'error', payload: { message } } });
    expect(await reviews()).toEqual(before);
  });
});
