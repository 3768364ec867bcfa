import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackedItem } from '../../src/modules/tracking/domain/items.js';
import type { PushEventInput } from '../../src/modules/tracking/tracking.types.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

describe.each(TEST_DIALECTS)('admin profile lookup on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = t.adminHeaders) => t.app.inject({ method: 'GET', url, headers });
  const lookup = (shopId: string, query: string) => get(`/admin/v1/shops/${shopId}/profiles?${query}`);

  /** A device with its anonymous profile, created a second after whatever came before. */
  async function newDevice(shopId: string): Promise<{ did: string; profileId: number }> {
    t.clock.advance(1000);
    return t.app.services.identity.createDevice(shopId);
  }

  async function push(
    shopId: string,
    did: string,
    event: PushEventInput['event'],
    items: TrackedItem[],
    extra: Partial<PushEventInput> = {},
  ): Promise<void> {
    t.clock.advance(1000);
    await t.app.services.tracking.recordPush({ shopId, did, event, items, attribution: {}, ...extra });
  }

  /** The person of most tests: one device, every identifier, a cart of two lines and a wish list. */
  async function customerWithCart(shopId: string) {
    const { did, profileId } = await newDevice(shopId);
    await t.app.services.identity.resolveProfile(shopId, {
      did,
      email: ' Ann.Lee@Example.COM ',
      phone: '+7 912 345-67-89',
      externalId: 'crm-17',
      loyaltyId: 'card-42',
      telegramId: 'tg-99',
    });
    await push(shopId, did, 'cart', [{ id: 'A-1', amount: 2, price: 1500.5 }]);
    await push(shopId, did, 'cart', [{ id: 'B-2', amount: 1, line_id: 'L-1', fashion_size: 'M' }]);
    await push(shopId, did, 'wish', [{ id: 'C-3', amount: 1 }]);
    const body = {
      id: profileId,
      email: 'ann.lee@example.com',
      phone: '79123456789',
      external_id: 'crm-17',
      loyalty_id: 'card-42',
      telegram_id: 'tg-99',
      devices: [did],
      segments: [],
      properties: {},
      subscriptions: {},
      push_tokens: [],
      cart: [
        { id: 'A-1', amount: 2, price: 1500.5 },
        { id: 'B-2', amount: 1, line_id: 'L-1', fashion_size: 'M' },
      ],
      wish: [{ id: 'C-3', amount: 1 }],
    };
    return { did, profileId, body };
  }

  it('answers the profile with its identifiers, devices, segments, properties, cart and wish list', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const { body } = await customerWithCart(shopId);

    const response = await lookup(shopId, 'email=ann.lee%40example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ profiles: [body] });
  });

  describe('finds the same profile by each criterion, normalised as everywhere', () => {
    let shopId: string;
    let customer: Awaited<ReturnType<typeof customerWithCart>>;
    beforeAll(async () => {
      shopId = (await createShopFixture(t.app.services)).shopId;
      customer = await customerWithCart(shopId);
      // A second person in the same shop, who must never be answered for the first.
      const other = await newDevice(shopId);
      await t.app.services.identity.resolveProfile(shopId, { did: other.did, email: 'bob@example.com' });
    });

    it.each([
      ['email, trimmed and in any case', () => 'email=%20ANN.Lee%40example.com%20'],
      ['phone written as 8 (912) 345-67-89', () => `phone=${encodeURIComponent('8 (912) 345-67-89')}`],
      ['phone written as ten digits', () => 'phone=9123456789'],
      ['external_id', () => 'external_id=crm-17'],
      ['loyalty_id', () => 'loyalty_id=card-42'],
      ['did', () => `did=${customer.did}`],
      ['telegram_id', () => 'telegram_id=tg-99'],
      ['several criteria that all match', () => `email=ann.lee%40example.com&phone=79123456789&did=${customer.did}`],
    ])('by %s', async (_name, query) => {
      const response = await lookup(shopId, query());
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ profiles: [customer.body] });
    });

    it('answers no profile when the criteria belong to different people', async () => {
      const response = await lookup(shopId, `email=bob%40example.com&did=${customer.did}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ profiles: [] });
    });

    it('answers no profile for identifiers nobody holds', async () => {
      for (const query of ['email=nobody%40example.com', 'phone=79990000000', 'external_id=crm-18', 'did=ZZZZZZZZZZ']) {
        const response = await lookup(shopId, query);
        expect({ query, status: response.statusCode, body: response.json() }).toEqual({
          query,
          status: 200,
          body: { profiles: [] },
        });
      }
    });
  });

  it('shows merged profiles once, as the older profile that took over devices, identifiers and cart', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const older = await newDevice(shopId);
    await t.app.services.identity.resolveProfile(shopId, { did: older.did, email: 'kate@example.com' });
    await push(shopId, older.did, 'wish', [{ id: 'W-1', amount: 1 }]);
    // The same person on a second device, anonymous until an event names her.
    const younger = await newDevice(shopId);
    await push(shopId, younger.did, 'cart', [{ id: 'K-1', amount: 3 }]);
    await push(shopId, younger.did, 'view', [{ id: 'K-1', amount: 1 }], { identifiers: { email: 'kate@example.com' } });

    const merged = {
      id: older.profileId,
      email: 'kate@example.com',
      phone: null,
      external_id: null,
      loyalty_id: null,
      telegram_id: null,
      devices: [older.did, younger.did],
      segments: [],
      properties: {},
      subscriptions: {},
      push_tokens: [],
      cart: [{ id: 'K-1', amount: 3 }],
      wish: [{ id: 'W-1', amount: 1 }],
    };
    for (const query of ['email=kate%40example.com', `did=${older.did}`, `did=${younger.did}`]) {
      const response = await lookup(shopId, query);
      expect({ query, status: response.statusCode, body: response.json() }).toEqual({
        query,
        status: 200,
        body: { profiles: [merged] },
      });
    }
  });

  it("scopes the lookup to the path's shop: shop B never sees shop A's profile", async () => {
    const a = await createShopFixture(t.app.services);
    const b = await createShopFixture(t.app.services);
    const customer = await customerWithCart(a.shopId);

    for (const query of ['email=ann.lee%40example.com', 'phone=79123456789', 'external_id=crm-17', `did=${customer.did}`]) {
      const response = await lookup(b.shopId, query);
      expect({ query, status: response.statusCode, body: response.json() }).toEqual({
        query,
        status: 200,
        body: { profiles: [] },
      });
    }

    // Shop B's own customer with the same email is a different profile, with nothing of A's.
    const own = await newDevice(b.shopId);
    await t.app.services.identity.resolveProfile(b.shopId, { did: own.did, email: 'ann.lee@example.com' });
    const response = await lookup(b.shopId, 'email=ann.lee%40example.com');
    expect(response.json()).toEqual({
      profiles: [
        {
          id: own.profileId,
          email: 'ann.lee@example.com',
          phone: null,
          external_id: null,
          loyalty_id: null,
          telegram_id: null,
          devices: [own.did],
          segments: [],
          properties: {},
          subscriptions: {},
          push_tokens: [],
          cart: [],
          wish: [],
        },
      ],
    });
    expect(own.profileId).not.toBe(customer.profileId);
    expect((await lookup(a.shopId, 'email=ann.lee%40example.com')).json()).toEqual({ profiles: [customer.body] });
  });

  it('answers 401 without the admin token or with a wrong one', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `/admin/v1/shops/${shopId}/profiles?email=ann%40example.com`;
    expectAdminError(await get(url, {}), 401, 'UNAUTHORIZED');
    expectAdminError(await get(url, { authorization: 'Bearer not-the-token' }), 401, 'UNAUTHORIZED');
  });

  it.each([UNKNOWN_SHOP, 'not-a-shop'])('answers 404 NOT_FOUND for the unknown shop %s', async (shopId) => {
    const message = expectAdminError(await lookup(shopId, 'email=ann%40example.com'), 404, 'NOT_FOUND');
    expect(message).toBe('Shop not found.');
  });

  it('answers 422 naming every criterion when none is given', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    for (const url of [`/admin/v1/shops/${shopId}/profiles`, `/admin/v1/shops/${shopId}/profiles?`]) {
      const message = expectAdminError(await get(url), 422, 'VALIDATION_FAILED');
      expect(message).toBe('At least one of `email`, `phone`, `external_id`, `loyalty_id`, `telegram_id`, `did` is required.');
    }
  });

  it.each([
    ['phone=abc', 'phone'],
    ['phone=12345', 'phone'],
    ['phone=', 'phone'],
    ['email=not-an-email', 'email'],
    ['email=', 'email'],
    ['external_id=%20%20', 'external_id'],
    [`loyalty_id=${'x'.repeat(256)}`, 'loyalty_id'],
    ['did=short', 'did'],
    ['did=', 'did'],
    ['did=abcdefghi%21', 'did'],
    ['email=a%40b.ru&email=c%40d.ru', 'email'],
    ['mail=ann%40example.com', 'mail'],
  ])('answers 422 VALIDATION_FAILED naming the parameter for %s', async (query, field) => {
    const { shopId } = await createShopFixture(t.app.services);
    const message = expectAdminError(await lookup(shopId, query), 422, 'VALIDATION_FAILED');
    expect(message).toContain(`\`${field}\``);
  });
});
