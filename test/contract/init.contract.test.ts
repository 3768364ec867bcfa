import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { FORM_TYPE, send, type ContractRequest, type Vars } from './harness.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * GET /init (contract-notes, "Identifiers" and "Wire format") as data, on both
 * databases. Placeholders: {shop} (RUB), {usd_shop}, {did} and {sid} (a device and its
 * live session), {inactive_shop}, {unknown_shop}.
 */

interface InitCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  readonly message?: string;
  /** For a 200: the ids answered — a placeholder or literal to match, or `new` for a freshly issued one. */
  readonly did?: string;
  readonly sid?: string;
  readonly currency?: string;
}

const get = (query: string, extra: Partial<ContractRequest> = {}): ContractRequest => ({ method: 'GET', url: '/init', query, ...extra });
const NEW = 'new';

const CASES: readonly InitCase[] = [
  {
    name: 'without did: a new device and a new session',
    request: get('shop_id={shop}&v=3'),
    status: 200,
    did: NEW,
    sid: NEW,
    currency: '₽',
  },
  { name: 'an empty did counts as none', request: get('shop_id={shop}&v=3&did=&sid='), status: 200, did: NEW, sid: NEW },
  {
    name: 'a known did with its live sid keeps both',
    request: get('shop_id={shop}&v=3&did={did}&sid={sid}'),
    status: 200,
    did: '{did}',
    sid: '{sid}',
  },
  { name: 'seance is read as sid', request: get('shop_id={shop}&v=3&did={did}&seance={sid}'), status: 200, did: '{did}', sid: '{sid}' },
  {
    name: 'an unknown well-formed did is accepted as the device',
    request: get('shop_id={shop}&v=3&did=Fresh00001'),
    status: 200,
    did: 'Fresh00001',
    sid: NEW,
  },
  { name: '0000000000 is a well-formed did', request: get('shop_id={shop}&v=3&did=0000000000'), status: 200, did: '0000000000', sid: NEW },
  {
    name: 'a well-formed sid the server never issued opens a session',
    request: get('shop_id={shop}&v=3&did=Fresh00002&sid=abcdefghij'),
    status: 200,
    did: 'Fresh00002',
    sid: 'abcdefghij',
  },
  {
    name: 'sid wins over seance',
    request: get('shop_id={shop}&v=3&did=Fresh00003&sid=sidwins001&seance=seance0001'),
    status: 200,
    sid: 'sidwins001',
  },
  {
    name: 'stream, tz and referrer are accepted',
    request: get('shop_id={shop}&v=3&stream=web&tz=3&referrer=https%3A%2F%2Fsearch.example%2F'),
    status: 200,
    did: NEW,
  },
  { name: 'stream=null counts as absent', request: get('shop_id={shop}&v=3&stream=null'), status: 200, did: NEW },
  {
    name: 'GET with an urlencoded content type and an empty body',
    request: get('shop_id={shop}&v=3', { contentType: FORM_TYPE, body: '' }),
    status: 200,
    did: NEW,
  },
  { name: 'the currency symbol of the shop', request: get('shop_id={usd_shop}&v=3'), status: 200, currency: '$' },
  { name: 'a malformed did → 422', request: get('shop_id={shop}&v=3&did=INVALID_ID'), status: 422, message: 'Device ID is not valid' },
  { name: 'a did of 7 characters → 422', request: get('shop_id={shop}&v=3&did=abcdefg'), status: 422, message: 'Device ID is not valid' },
  {
    name: 'a did of 65 characters → 422',
    request: get(`shop_id={shop}&v=3&did=${'a'.repeat(65)}`),
    status: 422,
    message: 'Device ID is not valid',
  },
  { name: 'a did with a dot → 422', request: get('shop_id={shop}&v=3&did=abcd.efgh'), status: 422, message: 'Device ID is not valid' },
  {
    name: 'a sid of 11 characters → 422 (a sid is exactly 10)',
    request: get('shop_id={shop}&v=3&sid=abcdefghijk'),
    status: 422,
    message: 'Session ID is not valid',
  },
  { name: 'a sid with a hyphen → 422', request: get('shop_id={shop}&v=3&sid=abcd-efghi'), status: 422, message: 'Session ID is not valid' },
  { name: 'a malformed sid → 422', request: get('shop_id={shop}&v=3&sid=short'), status: 422, message: 'Session ID is not valid' },
  {
    name: 'a malformed seance → 422',
    request: get('shop_id={shop}&v=3&seance=bad-seance'),
    status: 422,
    message: 'Session ID is not valid',
  },
  { name: 'v absent: served (mobile SDKs never send it)', request: get('shop_id={shop}'), status: 200, did: NEW, sid: NEW },
  { name: 'v empty counts as absent', request: get('shop_id={shop}&v='), status: 200, did: NEW, sid: NEW },
  { name: 'v as a list → 422', request: get('shop_id={shop}&v[]=3'), status: 422, message: 'Parameter `v` must be a string.' },
  {
    name: 'an unknown Android ID (16 hex) is registered as the device',
    request: get('shop_id={shop}&did=9774d56d682e549c'),
    status: 200,
    did: '9774d56d682e549c',
    sid: NEW,
  },
  {
    name: 'an unknown UUID is registered as the device',
    request: get('shop_id={shop}&did=5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C'),
    status: 200,
    did: '5A2E1C4B-7F3D-4E2A-9B1C-0D8E6F4A2B3C',
    sid: NEW,
  },
  { name: 'a did of 8 characters is well-formed', request: get('shop_id={shop}&did=abcd1234'), status: 200, did: 'abcd1234', sid: NEW },
  {
    name: 'a did of 64 characters is well-formed',
    request: get(`shop_id={shop}&did=${'b'.repeat(64)}`),
    status: 200,
    did: 'b'.repeat(64),
    sid: NEW,
  },
  { name: 'shop_id absent → 401', request: get('v=3'), status: 401, message: 'Parameter `shop_id` is required.' },
  {
    name: 'shop_id malformed → 422',
    request: get('shop_id=xyz&v=3'),
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  { name: 'shop_id of no shop → 404', request: get('shop_id={unknown_shop}&v=3'), status: 404, message: 'Shop not found' },
  { name: 'a shop that is not active → 403', request: get('shop_id={inactive_shop}&v=3'), status: 403, message: 'Shop is not active.' },
  {
    name: 'POST → 405',
    request: { method: 'POST', url: '/init', query: 'shop_id={shop}&v=3' },
    status: 405,
    message: 'Method POST is not allowed for this endpoint.',
  },
];

describe.each(TEST_DIALECTS)('GET /init contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const shop = await createShopFixture(t.app.services);
    const usd = await createShopFixture(t.app.services, { currency: 'USD' });
    const inactive = await createShopFixture(t.app.services);
    await t.app.services.shops.updateShop(inactive.shopId, { active: false });
    const device = await initDevice(t, shop.shopId);
    vars = {
      shop: shop.shopId,
      usd_shop: usd.shopId,
      inactive_shop: inactive.shopId,
      unknown_shop: '0'.repeat(30),
      did: device.did,
      sid: device.sid,
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const filled = (value: string) => value.replace(/\{(\w+)\}/g, (_whole, name: string) => vars[name] ?? '');

  it.each(CASES)('$name', async (row) => {
    const response = await send(t, row.request, vars);
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json<Record<string, unknown>>();
    if (row.status !== 200) {
      expect(body).toEqual({ status: 'error', payload: { message: row.message } });
      return;
    }
    // Exactly these keys: a top-level `message` would read as a failure to an SDK.
    expect(Object.keys(body).sort()).toEqual(['currency', 'did', 'seance', 'sid']);
    expect(body).toEqual({
      did:
        row.did === undefined || row.did === NEW
          ? expect.stringMatching(/^[A-Za-z0-9]{10}$/)
          : expect.stringMatching(/^[A-Za-z0-9-]{8,64}$/),
      sid: expect.stringMatching(/^[A-Za-z0-9]{10}$/),
      seance: body.sid,
      currency: row.currency ?? '₽',
    });
    for (const key of ['did', 'sid'] as const) {
      const expected = row[key];
      if (expected === undefined) continue;
      if (expected === NEW) expect(Object.values(vars)).not.toContain(body[key]);
      else expect(body[key]).toBe(filled(expected));
    }
    if (row.did !== undefined) {
      expect(await t.app.services.tracking.deviceExists(vars.shop!, body.did as string), 'the device exists after /init').toBe(true);
    }
  });

  it('issues a different did for each device without one', async () => {
    const dids = new Set<string>();
    for (let i = 0; i < 5; i += 1) dids.add((await initDevice(t, vars.shop!)).did);
    expect(dids.size).toBe(5);
  });

  it('keeps a session alive for 2 hours without activity and opens a new one after', async () => {
    const { did, sid } = await initDevice(t, vars.shop!);
    const again = () => t.app.inject({ method: 'GET', url: `/init?shop_id=${vars.shop}&v=3&did=${did}&sid=${sid}` });

    t.clock.advance(2 * 60 * 60 * 1000 - 60_000);
    expect((await again()).json()).toMatchObject({ did, sid, seance: sid });

    t.clock.advance(2 * 60 * 60 * 1000 + 60_000);
    const renewed = (await again()).json<{ did: string; sid: string; seance: string }>();
    expect(renewed.did).toBe(did);
    expect(renewed.sid).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(renewed.sid).not.toBe(sid);
    expect(renewed.seance).toBe(renewed.sid);
  });
});
