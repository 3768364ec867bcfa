import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECORDS_PER_REQUEST } from '../../src/modules/audience/domain/limits.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { FORM_TYPE, form, send, type ContractRequest, type Json, type Vars } from './harness.js';

/**
 * POST /import/audience (interface.md endpoint 11; contract-notes "Secrets and errors"
 * for the statuses) as data, on both databases: the status envelope, the checks made
 * before the answer (credentials, then the body's shape, then the segment), and that an
 * accepted request is a queued import while a refused one stores nothing. Placeholders:
 * {shop} and {secret}, {segment} (a segment of {shop}), {other_segment} (of another
 * shop), {inactive_shop}/{inactive_secret}, {unknown_shop}.
 */

const ANN = { email: 'ann@example.org', first_name: 'Ann' };

interface AudienceCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  readonly message?: string;
  /** Records the queued import received (200 only). */
  readonly received?: number;
}

const post = (body: Json): ContractRequest => ({ url: '/import/audience', body });
const withShop = (fields: Record<string, Json>): ContractRequest => post({ shop_id: '{shop}', shop_secret: '{secret}', ...fields });

const CASES: readonly AudienceCase[] = [
  { name: 'records → 200, a queued import', request: withShop({ audience: [ANN, { phone: '89120000001' }] }), status: 200, received: 2 },
  {
    name: 'segment_id as a string of digits → 200',
    request: withShop({ audience: [ANN], segment_id: '{segment}' }),
    status: 200,
    received: 1,
  },
  { name: 'segment_id null counts as absent → 200', request: withShop({ audience: [ANN], segment_id: null }), status: 200, received: 1 },
  { name: 'an empty audience → 200, an empty import', request: withShop({ audience: [] }), status: 200, received: 0 },
  {
    name: 'bad records are accepted: they are skipped when imported',
    request: withShop({ audience: [{}, 'x', { phone: 'abc' }] }),
    status: 200,
    received: 3,
  },
  {
    name: 'an urlencoded form body → 200',
    request: {
      url: '/import/audience',
      body: Buffer.from(
        `shop_id={shop}&shop_secret={secret}&${form([
          ['audience[][email]', 'kim@example.org'],
          ['audience[][first_name]', 'Kim'],
        ])}`,
      ),
      contentType: FORM_TYPE,
    },
    status: 200,
    received: 1,
  },
  {
    name: 'text/plain JSON (browser SDKs) → 200',
    request: { ...withShop({ audience: [ANN] }), contentType: 'text/plain' },
    status: 200,
    received: 1,
  },
  // credentials, in the order of the /push table
  {
    name: 'shop_id absent → 401',
    request: post({ shop_secret: '{secret}', audience: [ANN] }),
    status: 401,
    message: 'Parameter `shop_id` is required.',
  },
  {
    name: 'shop_id malformed → 422',
    request: post({ shop_id: 'abc', shop_secret: '{secret}', audience: [ANN] }),
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'shop_id of no shop → 404',
    request: post({ shop_id: '{unknown_shop}', shop_secret: '{secret}', audience: [ANN] }),
    status: 404,
    message: 'Shop not found',
  },
  { name: 'shop_secret absent → 401', request: post({ shop_id: '{shop}', audience: [ANN] }), status: 401, message: 'Invalid secret key' },
  {
    name: 'shop_secret wrong → 401',
    request: post({ shop_id: '{shop}', shop_secret: 'wrong', audience: [ANN] }),
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'another shop’s secret → 401',
    request: post({ shop_id: '{shop}', shop_secret: '{inactive_secret}', audience: [ANN] }),
    status: 401,
    message: 'Invalid secret key',
  },
  {
    name: 'a shop that is not active → 403',
    request: post({ shop_id: '{inactive_shop}', shop_secret: '{inactive_secret}', audience: [ANN] }),
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'credentials come before the shape: no audience and no secret → 401',
    request: post({ shop_id: '{shop}' }),
    status: 401,
    message: 'Invalid secret key',
  },
  // the body's shape
  { name: 'audience absent → 422', request: withShop({}), status: 422, message: 'Parameter `audience` is required.' },
  {
    name: 'audience null → 422 (absent)',
    request: withShop({ audience: null }),
    status: 422,
    message: 'Parameter `audience` is required.',
  },
  {
    name: 'audience a string → 422',
    request: withShop({ audience: 'ann@example.org' }),
    status: 422,
    message: 'Parameter `audience` must be an array.',
  },
  {
    name: 'audience an object → 422',
    request: withShop({ audience: ANN }),
    status: 422,
    message: 'Parameter `audience` must be an array.',
  },
  { name: 'audience a number → 422', request: withShop({ audience: 5 }), status: 422, message: 'Parameter `audience` must be an array.' },
  {
    name: 'segment_id not an integer → 422',
    request: withShop({ audience: [ANN], segment_id: 'one' }),
    status: 422,
    message: 'Parameter `segment_id` must be an integer.',
  },
  {
    name: 'segment_id a fraction → 422',
    request: withShop({ audience: [ANN], segment_id: 1.5 }),
    status: 422,
    message: 'Parameter `segment_id` must be an integer.',
  },
  {
    name: 'an unknown segment_id → 404',
    request: withShop({ audience: [ANN], segment_id: 999_999 }),
    status: 404,
    message: 'Segment 999999 does not exist.',
  },
  {
    name: 'another shop’s segment → 404',
    request: withShop({ audience: [ANN], segment_id: '{other_segment}' }),
    status: 404,
    message: 'Segment {other_segment} does not exist.',
  },
  // the wire
  {
    name: 'a body that is not JSON → 400',
    request: { url: '/import/audience', body: Buffer.from('{"shop_id": "{shop}", "audience": [{"email": "a@b.c"},]}') },
    status: 400,
    message: 'The request body is not valid JSON.',
  },
  {
    name: 'a truncated body → 400',
    request: { url: '/import/audience', body: Buffer.from('{"shop_id": "{shop}", "audience": [{"email": "a@b.c"}') },
    status: 400,
    message: 'The request body is not valid JSON.',
  },
  {
    name: 'a JSON array body → 422',
    request: { url: '/import/audience', body: Buffer.from('[{"email": "a@b.c"}]') },
    status: 422,
    message: 'The request body must be a JSON object.',
  },
  {
    name: 'GET → 405',
    request: { method: 'GET', url: '/import/audience', query: 'shop_id={shop}' },
    status: 405,
    message: 'Method GET is not allowed for this endpoint.',
  },
];

describe.each(TEST_DIALECTS)('POST /import/audience contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const { shops, segments } = t.app.services;
    const shop = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services);
    const inactive = await createShopFixture(t.app.services);
    await shops.updateShop(inactive.shopId, { active: false });
    await segments.createSegment(other.shopId, { name: 'Other' });
    const segment = await segments.createSegment(shop.shopId, { name: 'VIP' });
    const otherSegment = await segments.createSegment(other.shopId, { name: 'Other 2' });
    vars = {
      shop: shop.shopId,
      secret: shop.secret,
      segment: String(segment.id),
      other_segment: String(otherSegment.id),
      inactive_shop: inactive.shopId,
      inactive_secret: inactive.secret,
      unknown_shop: '0'.repeat(30),
    };
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(CASES)('$name', async (row) => {
    const before = await t.app.services.audience.listImports(vars.shop!);
    const response = await send(t, row.request, vars);
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const after = await t.app.services.audience.listImports(vars.shop!);
    if (row.status === 200) {
      expect(response.json()).toEqual({ status: 'success' });
      expect(after).toHaveLength(before.length + 1);
      expect(after[0]).toMatchObject({ status: 'queued', received: row.received, imported: 0 });
    } else {
      const message = row.message?.replace('{other_segment}', vars.other_segment!);
      expect(response.json()).toEqual({ status: 'error', payload: { message } });
      expect(after).toHaveLength(before.length);
    }
  });

  it('imports into a segment given as a JSON number', async () => {
    const response = await send(t, withShop({ audience: [ANN], segment_id: Number(vars.segment) }), vars);
    expect(response.json()).toEqual({ status: 'success' });
    expect((await t.app.services.audience.listImports(vars.shop!))[0]).toMatchObject({ segmentId: Number(vars.segment) });
  });

  it(`refuses more than ${MAX_RECORDS_PER_REQUEST} records with 413, storing nothing`, async () => {
    const records = new Array<string>(MAX_RECORDS_PER_REQUEST + 1).fill('{"phone":"79120000000"}').join(',');
    const body = `{"shop_id":"${vars.shop}","shop_secret":"${vars.secret}","audience":[${records}]}`;
    const before = await t.app.services.audience.listImports(vars.shop!);
    const response = await t.app.inject({
      method: 'POST',
      url: '/import/audience',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      status: 'error',
      payload: { message: `Parameter \`audience\` must hold at most ${MAX_RECORDS_PER_REQUEST} records.` },
    });
    expect(await t.app.services.audience.listImports(vars.shop!)).toHaveLength(before.length);
  });

  it(`accepts exactly ${MAX_RECORDS_PER_REQUEST} records, over the usual body limit`, async () => {
    const records = new Array<string>(MAX_RECORDS_PER_REQUEST)
      .fill('{"email":"someone.with.a.long.address@example.org","first_name":"Anastasia","last_name":"Konstantinopolskaya"}')
      .join(',');
    const body = `{"shop_id":"${vars.shop}","shop_secret":"${vars.secret}","audience":[${records}]}`;
    expect(body.length).toBeGreaterThan(t.config.bodyLimit);
    const response = await t.app.inject({
      method: 'POST',
      url: '/import/audience',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.json()).toEqual({ status: 'success' });
    expect((await t.app.services.audience.listImports(vars.shop!))[0]).toMatchObject({ received: MAX_RECORDS_PER_REQUEST });
  });

  it('refuses a body announced at 200 MB with 413 before reading it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/import/audience',
      payload: `{"shop_id":"${vars.shop}","shop_secret":"${vars.secret}","audience":[]}`,
      headers: { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 'error', payload: { message: expect.stringMatching(/larger than the limit/) } });
  });

  it('keeps the usual body limit for other routes', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/push/custom',
      payload: JSON.stringify({ shop_id: vars.shop, event: 'x', pad: 'p'.repeat(t.config.bodyLimit) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
  });
});
