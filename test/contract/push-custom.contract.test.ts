import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VARIABLES } from '../../src/public-api/tracking/push-custom.params.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectStatusAnswer, FORM_TYPE, send, type ContractRequest, type Json, type Vars } from './harness.js';
import { trackEventRequest } from './rn-sdk-requests.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * POST /push/custom (interface.md endpoint 1, contract-notes "POST /push/custom") as
 * data, on both databases. Placeholders: {shop} (codes `signed_up` and `level_2`),
 * {did} {sid} (a device of it), {other_shop} (code `foreign_code`), {inactive_shop},
 * {unknown_shop}. The clock stands at NOW (test/helpers ManualClock's start).
 */

const NOW_S = Date.UTC(2026, 0, 15, 12, 0, 0) / 1000;

interface CustomCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  readonly message?: string;
  /** For a 200 with {did}: the stored event (services.tracking.listEvents). */
  readonly stored?: { readonly event: string; readonly params: Readonly<Record<string, unknown>>; readonly time?: number };
  /** For a 200 without a did: the profile that must exist for this identifier. */
  readonly profileWith?: Readonly<Record<string, string>>;
}

type Fields = Record<string, Json | undefined>;
const BASE: Fields = { shop_id: '{shop}', did: '{did}', sid: '{sid}', event: 'signed_up' };

function json(fields: Fields = {}): ContractRequest {
  const body: Record<string, Json> = {};
  for (const [key, value] of Object.entries({ ...BASE, ...fields })) if (value !== undefined) body[key] = value;
  return { url: '/push/custom', body };
}
const noDid = (fields: Fields) => json({ did: undefined, sid: undefined, ...fields });

const EVENT = 'Parameter `event` is not valid';
const SOURCE = 'Parameter `source` must be a JSON object with `code` and `from`, or a string holding one.';
const SCALARS = (name: string) => `Parameter \`${name}\` must be a scalar or an array of scalars.`;
const signedUp = (params: Record<string, unknown> = {}, time?: number) => ({
  event: 'signed_up',
  params,
  ...(time !== undefined && { time }),
});

const CASES: readonly CustomCase[] = [
  // identifiers
  { name: 'did with sid → 200', request: json(), status: 200, stored: signedUp({}, NOW_S * 1000) },
  { name: 'did with seance as sid → 200', request: json({ sid: undefined, seance: '{sid}' }), status: 200, stored: signedUp() },
  {
    name: 'did without sid → 422 naming sid',
    request: json({ sid: undefined }),
    status: 422,
    message: 'Parameter `sid` is required together with `did`.',
  },
  { name: 'did with a malformed sid → 422', request: json({ sid: 'INVALID_ID' }), status: 422, message: 'Session ID is not valid' },
  { name: 'a malformed did → 422', request: json({ did: 'INVALID_ID' }), status: 422, message: 'Device ID is not valid' },
  {
    name: 'a well-formed did /init never registered → 404',
    request: json({ did: '0000000000' }),
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'an unknown Android ID beside an email → 404',
    request: json({ did: '9774d56d682e549c', email: 'kate@example.org' }),
    status: 404,
    message: 'Device not found',
  },
  {
    name: 'an unknown did with an unknown event code → 404 (the device first)',
    request: json({ did: '0000000000', event: 'never_created' }),
    status: 404,
    message: 'Device not found',
  },
  { name: 'email only → 200', request: noDid({ email: 'Kate@Example.org' }), status: 200, profileWith: { email: 'kate@example.org' } },
  { name: 'phone only → 200', request: noDid({ phone: '+7 (901) 000-00-01' }), status: 200, profileWith: { phone: '79010000001' } },
  { name: 'external_id only → 200', request: noDid({ external_id: 'crm-17' }), status: 200, profileWith: { externalId: 'crm-17' } },
  { name: 'loyalty_id only → 200', request: noDid({ loyalty_id: 'L-900' }), status: 200, profileWith: { loyaltyId: 'L-900' } },
  { name: 'telegram_id only → 200', request: noDid({ telegram_id: '123456789' }), status: 200, profileWith: { telegramId: '123456789' } },
  { name: 'no identifier → 422', request: noDid({}), status: 422, message: 'Identifier is not valid' },
  {
    name: 'only empty identifiers → 422',
    request: noDid({ did: '', email: '', phone: '' }),
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'identifiers as JSON null count as absent → 422',
    request: noDid({ email: null, phone: null }),
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'a malformed email → 422 naming it',
    request: noDid({ email: 'kate-at-example' }),
    status: 422,
    message: 'Parameter `email` is not valid.',
  },
  { name: 'a phone of letters → 422 naming it', request: noDid({ phone: 'abc' }), status: 422, message: 'Parameter `phone` is not valid.' },
  // credentials
  { name: 'shop_id absent → 401', request: json({ shop_id: undefined }), status: 401, message: 'Parameter `shop_id` is required.' },
  {
    name: 'shop_id malformed → 422',
    request: json({ shop_id: 'abc' }),
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  { name: 'shop_id of no shop → 404', request: json({ shop_id: '{unknown_shop}' }), status: 404, message: 'Shop not found' },
  { name: 'a shop that is not active → 403', request: json({ shop_id: '{inactive_shop}' }), status: 403, message: 'Shop is not active.' },
  {
    name: 'GET → 405',
    request: { method: 'GET', url: '/push/custom', query: 'shop_id={shop}&did={did}&sid={sid}&event=signed_up' },
    status: 405,
    message: 'Method GET is not allowed for this endpoint.',
  },
  // event
  { name: 'event absent → 422', request: json({ event: undefined }), status: 422, message: 'Parameter `event` is required.' },
  { name: 'an unknown event code → 422', request: json({ event: 'never_created' }), status: 422, message: EVENT },
  { name: 'a code created for another shop → 422', request: json({ event: 'foreign_code' }), status: 422, message: EVENT },
  { name: 'a code that cannot exist → 422', request: json({ event: 'Signed Up' }), status: 422, message: EVENT },
  { name: 'the second code of the shop → 200', request: json({ event: 'level_2' }), status: 200, stored: { event: 'level_2', params: {} } },
  // category, label, value, time
  {
    name: 'category and label are stored',
    request: json({ category: 'promo', label: 'spring' }),
    status: 200,
    stored: signedUp({ category: 'promo', label: 'spring' }),
  },
  { name: 'category as JSON null counts as absent', request: json({ category: null }), status: 200, stored: signedUp() },
  { name: 'an integer value is stored', request: json({ value: 5 }), status: 200, stored: signedUp({ value: 5 }) },
  { name: 'a numeric string value is read as an integer', request: json({ value: '-12' }), status: 200, stored: signedUp({ value: -12 }) },
  { name: 'value 1.5 → 422', request: json({ value: 1.5 }), status: 422, message: 'Parameter `value` must be an integer.' },
  { name: 'value "abc" → 422', request: json({ value: 'abc' }), status: 422, message: 'Parameter `value` must be an integer.' },
  {
    name: 'a time in the past is the event’s time',
    request: json({ time: NOW_S - 3600 }),
    status: 200,
    stored: signedUp({}, (NOW_S - 3600) * 1000),
  },
  {
    name: 'a time as a numeric string',
    request: json({ time: String(NOW_S - 60) }),
    status: 200,
    stored: signedUp({}, (NOW_S - 60) * 1000),
  },
  {
    name: 'a time up to 5 minutes ahead is clock skew → 200',
    request: json({ time: NOW_S + 300 }),
    status: 200,
    stored: signedUp({}, (NOW_S + 300) * 1000),
  },
  {
    name: 'a time further in the future → 422',
    request: json({ time: NOW_S + 301 }),
    status: 422,
    message: 'Parameter `time` must not be in the future.',
  },
  {
    name: 'a time in milliseconds (far future) → 422',
    request: json({ time: NOW_S * 1000 }),
    status: 422,
    message: 'Parameter `time` must not be in the future.',
  },
  { name: 'time 0 → 422', request: json({ time: 0 }), status: 422, message: 'Parameter `time` must be a Unix timestamp in seconds.' },
  { name: 'time not a number → 422', request: json({ time: 'yesterday' }), status: 422, message: 'Parameter `time` must be a number.' },
  // extra variables and payload
  {
    name: 'extra [a-z0-9_]+ keys are stored; other keys and shop_secret are not',
    request: json({ plan: 'gold', count_2: 3, tags: ['a', 'b'], ok: true, Plan: 'x', 'a-b': 'y', shop_secret: 's3cret' }),
    status: 200,
    stored: signedUp({ plan: 'gold', count_2: 3, tags: ['a', 'b'], ok: true }),
  },
  { name: 'an extra variable that is an object → 422', request: json({ meta: { a: 1 } }), status: 422, message: SCALARS('meta') },
  {
    name: 'an extra variable that is an array of objects → 422',
    request: json({ meta: [{ a: 1 }] }),
    status: 422,
    message: SCALARS('meta'),
  },
  {
    name: `more than ${MAX_VARIABLES} extra variables → 422`,
    request: json(Object.fromEntries(Array.from({ length: MAX_VARIABLES + 1 }, (_, i) => [`v${i}`, i]))),
    status: 422,
    message: `The event has more than ${MAX_VARIABLES} extra variables.`,
  },
  {
    name: 'a payload object is stored',
    request: json({ payload: { step: 2, names: ['x', 'y'], done: false } }),
    status: 200,
    stored: signedUp({ payload: { step: 2, names: ['x', 'y'], done: false } }),
  },
  {
    name: 'a payload that is not an object → 422',
    request: json({ payload: 'step=2' }),
    status: 422,
    message: 'Parameter `payload` must be an object.',
  },
  {
    name: 'a payload with a nested object → 422',
    request: json({ payload: { a: { b: 1 } } }),
    status: 422,
    message: SCALARS('payload[a]'),
  },
  {
    name: 'a form body with variables and payload brackets',
    request: {
      url: '/push/custom',
      contentType: FORM_TYPE,
      body: 'shop_id={shop}&did={did}&seance={sid}&event=signed_up&plan=gold&payload[step]=2&list[]=a&list[]=b&value=7',
    },
    status: 200,
    stored: signedUp({ plan: 'gold', list: ['a', 'b'], value: 7, payload: { step: '2' } }),
  },
  // source: what the mobile SDK adds for 48 hours after trackSource, read as POST /push reads it (interface.md source rules 1-3)
  {
    name: 'source rule 1: an object sets recommended_by and recommended_code',
    request: json({ source: { from: 'dynamic', code: 'blk1' } }),
    status: 200,
    stored: signedUp({ recommended_by: 'dynamic', recommended_code: 'blk1' }),
  },
  {
    name: 'source rule 1: a string holding JSON, a numeric code',
    request: json({ source: '{"from":"bulk","code":17}' }),
    status: 200,
    stored: signedUp({ recommended_by: 'bulk', recommended_code: '17' }),
  },
  {
    name: 'source rule 1: form brackets',
    request: {
      url: '/push/custom',
      contentType: FORM_TYPE,
      body: 'shop_id={shop}&did={did}&sid={sid}&event=signed_up&source[from]=chain&source[code]=c7',
    },
    status: 200,
    stored: signedUp({ recommended_by: 'chain', recommended_code: 'c7' }),
  },
  {
    name: 'source rule 2: from not allowed → both null',
    request: json({ source: { from: 'google', code: 'x' } }),
    status: 200,
    stored: signedUp({ recommended_by: null, recommended_code: null }),
  },
  {
    name: 'source rule 2: code absent → both null',
    request: json({ source: { from: 'dynamic' } }),
    status: 200,
    stored: signedUp({ recommended_by: null, recommended_code: null }),
  },
  { name: 'source rule 3: a string that is not JSON → 422', request: json({ source: 'dynamic' }), status: 422, message: SOURCE },
  { name: 'source rule 3: empty → 422', request: json({ source: '' }), status: 422, message: SOURCE },
  {
    name: 'parameters in the query string, the body winning',
    request: { ...json({ event: 'level_2' }), query: 'event=never_created&plan=silver' },
    status: 200,
    stored: { event: 'level_2', params: { plan: 'silver' } },
  },
];

describe.each(TEST_DIALECTS)('POST /push/custom contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const { shops } = t.app.services;
    const shop = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services);
    const inactive = await createShopFixture(t.app.services);
    await shops.createCustomEvent(shop.shopId, { code: 'signed_up' });
    await shops.createCustomEvent(shop.shopId, { code: 'level_2' });
    await shops.createCustomEvent(other.shopId, { code: 'foreign_code' });
    await shops.createCustomEvent(inactive.shopId, { code: 'signed_up' });
    await shops.updateShop(inactive.shopId, { active: false });
    const device = await initDevice(t, shop.shopId);
    vars = {
      shop: shop.shopId,
      other_shop: other.shopId,
      inactive_shop: inactive.shopId,
      unknown_shop: '0'.repeat(30),
      did: device.did,
      sid: device.sid,
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const newest = async () => (await t.app.services.tracking.listEvents(vars.shop!, vars.did!, 1))[0];

  it.each(CASES)('$name', async (row) => {
    const before = await newest();
    expectStatusAnswer(await send(t, row.request, vars), row.status, row.message);
    const after = await newest();
    if (row.status !== 200 || row.stored === undefined) {
      expect(after?.id, 'no event of the device was stored').toBe(before?.id);
    } else {
      expect(after!.id).toBeGreaterThan(before?.id ?? 0);
      expect(after).toMatchObject({ event: row.stored.event, custom: true, items: [] });
      expect(after!.params).toEqual(row.stored.params);
      if (row.stored.time !== undefined) expect(after!.time).toBe(row.stored.time);
    }
    if (row.profileWith !== undefined) {
      const [kind, value] = Object.entries(row.profileWith)[0]!;
      const query = { [kind]: value };
      const profiles = await t.app.services.identity.findProfiles(vars.shop!, query);
      expect(profiles).toEqual([expect.objectContaining(query)]);
    }
  });

  it('trackEvent within 48 hours of trackSource, as the SDK sends it: accepted and attributed to the source', async () => {
    const state = { shopId: vars.shop!, did: vars.did!, sid: vars.sid! };
    const request = trackEventRequest(
      state,
      'signed_up',
      { category: 'promo', value: 3, customFields: { plan: 'gold' } },
      { from: 'dynamic', code: 'blk1' },
    );
    expectStatusAnswer(await t.app.inject(request), 200);
    const event = await newest();
    expect(event!.params).toEqual({
      category: 'promo',
      value: 3,
      plan: 'gold',
      payload: { plan: 'gold' },
      recommended_by: 'dynamic',
      recommended_code: 'blk1',
    });
    // The attribution columns the reports group by, as for POST /push.
    const row = await t.db.db
      .selectFrom('events')
      .select(['recommended_by', 'recommended_code'])
      .where('shop_id', '=', vars.shop!)
      .where('id', '=', event!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ recommended_by: 'dynamic', recommended_code: 'blk1' });
  });
});
