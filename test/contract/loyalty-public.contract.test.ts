import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { loyaltyJoinRequest, loyaltyStatusRequest, type SdkState } from './rn-sdk-requests.js';
import { SDK_GET_HEADERS } from './sdk-wire.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * GET /loyalty/members/status and POST /loyalty/members/join (issue 13 part 2,
 * docs/loyalty.md), on both databases: built from the requests the mobile SDK makes
 * (rn-sdk-requests.ts) and checked on what it reads (`status`, `payload.member`,
 * `payload.level` with `name`, `code`, `expiration_date`), then credentials and bad input.
 */

describe.each(TEST_DIALECTS)('public loyalty calls on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;
  let sdk: SdkState;
  let otherShop: { shopId: string; did: string };
  let inactiveShop: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const services = t.app.services;
    const shop = await createShopFixture(services);
    shopId = shop.shopId;
    secret = shop.secret;
    const device = await initDevice(t, shopId);
    sdk = { shopId, did: device.did, sid: device.sid };
    await services.loyalty.joinMember(shopId, { phone: '+7 (900) 111-22-33', loyaltyId: 'CARD 1/2' });
    const other = await createShopFixture(services);
    otherShop = { shopId: other.shopId, did: (await initDevice(t, other.shopId)).did };
    await services.loyalty.joinMember(other.shopId, { phone: '79005556677' });
    const inactive = await createShopFixture(services);
    inactiveShop = inactive.shopId;
    await services.shops.updateShop(inactiveShop, { active: false });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('GET /loyalty/members/status', () => {
    it.each([
      ['the phone as stored', '79001112233'],
      ['the phone in another spelling, reserved characters and all', '+7 (900) 111-22-33'],
      ['the loyalty_id, with a reserved character', 'CARD 1/2'],
    ])('answers a member named by %s with member true and a null level', async (_name, identifier) => {
      const response = await t.app.inject(loyaltyStatusRequest(sdk, identifier));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
    });

    it('answers 404 with the contract sentence for an identifier that names no member', async () => {
      for (const identifier of ['79009998877', 'no-such-card', '79005556677' /* another shop's member */]) {
        const response = await t.app.inject(loyaltyStatusRequest(sdk, identifier));
        expect(response.statusCode, identifier).toBe(404);
        expect(response.json()).toEqual({ status: 'error', payload: { message: 'Loyalty program member is not found' } });
      }
    });

    it("answers member false for the device of a customer who has not joined, and true once the device's customer joins", async () => {
      const device = await initDevice(t, shopId);
      const state = { shopId, did: device.did, sid: device.sid };
      const before = await t.app.inject(loyaltyStatusRequest(state, ''));
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json()).toEqual({ status: 'success', payload: { member: false, level: null } });
      const joined = await t.app.inject(loyaltyJoinRequest(state, { phone: '8 900 444-55-66' }));
      expect(joined.statusCode, joined.body).toBe(200);
      const after = await t.app.inject(loyaltyStatusRequest(state, ''));
      expect(after.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
    });

    it('reads a named phone, loyalty_id or email when identifier is absent', async () => {
      await t.app.services.loyalty.joinMember(shopId, { phone: '79003330000', email: 'Named@Example.org' });
      const ask = (query: string) =>
        t.app.inject({
          method: 'GET',
          url: `/loyalty/members/status?shop_id=${shopId}&did=${sdk.did}&${query}`,
          headers: { ...SDK_GET_HEADERS },
        });
      for (const query of ['phone=8%20900%20333-00-00', 'loyalty_id=CARD%201%2F2', 'email=named%40example.org']) {
        const response = await ask(query);
        expect(response.statusCode, query).toBe(200);
        expect(response.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
      }
      for (const query of ['phone=79003339999', 'email=nobody%40example.org', 'loyalty_id=none']) {
        const response = await ask(query);
        expect(response.statusCode, query).toBe(404);
        expect(response.json()).toEqual({ status: 'error', payload: { message: 'Loyalty program member is not found' } });
      }
      // a profile that holds the email but never joined is no member
      await t.app.services.identity.resolveProfile(shopId, { email: 'guest@example.org' });
      expect((await ask('email=guest%40example.org')).statusCode).toBe(404);
    });

    const url = (query: string) => `/loyalty/members/status?${query}`;
    it.each([
      ['no shop_id → 401', 'identifier=79001112233&did={did}', 401, 'Parameter `shop_id` is required.'],
      [
        'a malformed shop_id → 422',
        'shop_id=xyz&identifier=79001112233&did={did}',
        422,
        'Parameter `shop_id` must be 30 hexadecimal characters.',
      ],
      ['an unknown shop → 404', `shop_id=${'0'.repeat(30)}&identifier=79001112233&did={did}`, 404, 'Shop not found'],
      ['an inactive shop → 403', 'shop_id={inactive}&identifier=79001112233&did={did}', 403, 'Shop is not active.'],
      ['an unknown well-formed did → 404', 'shop_id={shop}&identifier=79001112233&did=Unknown123', 404, 'Device not found'],
      ['another shop’s device → 404', 'shop_id={shop}&identifier=79001112233&did={other_did}', 404, 'Device not found'],
      ['a malformed did → 422', 'shop_id={shop}&identifier=79001112233&did=INVALID_ID', 422, 'Device ID is not valid'],
      ['neither did nor identifier → 422', 'shop_id={shop}', 422, 'Parameter `did` or `identifier` is required.'],
      ['a malformed named phone → 422', 'shop_id={shop}&did={did}&phone=12', 422, 'Parameter `phone` is not valid.'],
      [
        'an identifier of 256 characters → 422',
        `shop_id={shop}&did={did}&identifier=${'a'.repeat(256)}`,
        422,
        'Parameter `identifier` must be at most 255 characters.',
      ],
    ])('%s', async (_name, query, status, message) => {
      const filled = query
        .replace('{shop}', shopId)
        .replace('{did}', sdk.did)
        .replace('{other_did}', otherShop.did)
        .replace('{inactive}', inactiveShop);
      const response = await t.app.inject({ method: 'GET', url: url(filled), headers: { ...SDK_GET_HEADERS } });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toEqual({ status: 'error', payload: { message } });
    });
  });

  describe('POST /loyalty/members/join', () => {
    it("joins the device's customer with the SDK's params, links the identifiers, and joining twice is no error", async () => {
      const device = await initDevice(t, shopId);
      const state = { shopId, did: device.did, sid: device.sid };
      const params = { phone: '+7 900 777-88-99', email: 'Kate@Example.org', first_name: 'Kate', last_name: 'Ivanova' };
      for (let i = 0; i < 2; i += 1) {
        const response = await t.app.inject(loyaltyJoinRequest(state, params));
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
      }
      const member = await t.app.services.loyalty.viewMember(shopId, '79007778899');
      expect(member).toMatchObject({ identifier: '79007778899', balance: 0 });
      const [profile] = await t.app.services.identity.findProfiles(shopId, { did: device.did });
      expect(profile).toMatchObject({ id: member.profileId, phone: '79007778899', email: 'kate@example.org' });
      const { attributes } = await t.app.services.profiles.getProfile(shopId, { did: device.did, identifiers: {} });
      expect(attributes.fields).toMatchObject({ first_name: 'Kate', last_name: 'Ivanova' });
      const status = await t.app.inject(loyaltyStatusRequest(state, '+7 900 777-88-99'));
      expect(status.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
    });

    it("joins a new device to the member who holds the phone (identity's rules): one member, the device's status true", async () => {
      const device = await initDevice(t, shopId);
      const state = { shopId, did: device.did, sid: device.sid };
      await t.app.services.loyalty.joinMember(shopId, { phone: '79009990001' });
      await t.app.services.loyalty.creditManual(shopId, '79009990001', { amount: 500 });
      const response = await t.app.inject(loyaltyJoinRequest(state, { phone: '8 (900) 999-00-01' }));
      expect(response.statusCode, response.body).toBe(200);
      const [profile] = await t.app.services.identity.findProfiles(shopId, { did: device.did });
      const member = await t.app.services.loyalty.viewMember(shopId, '79009990001');
      expect(member.profileId).toBe(profile?.id);
      expect(member.balance).toBe(500);
      const status = await t.app.inject(loyaltyStatusRequest(state, ''));
      expect(status.json()).toEqual({ status: 'success', payload: { member: true, level: null } });
    });

    it('answers every one of simultaneous joins of one customer with success', async () => {
      const device = await initDevice(t, shopId);
      const state = { shopId, did: device.did, sid: device.sid };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => t.app.inject(loyaltyJoinRequest(state, { phone: '79006660000', email: 'race@example.org' }))),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
      const member = await t.app.services.loyalty.findMember(shopId, '79006660000');
      const [profile] = await t.app.services.identity.findProfiles(shopId, { did: device.did });
      expect(profile?.id).toBe(member.profileId);
    });

    it('joins by loyalty_id alone, and by the phone already on the device’s profile', async () => {
      const a = await initDevice(t, shopId);
      const byCard = await t.app.inject(loyaltyJoinRequest({ shopId, ...a }, { loyalty_id: 'CARD-77' }));
      expect(byCard.statusCode, byCard.body).toBe(200);
      expect((await t.app.services.loyalty.findMember(shopId, 'CARD-77')).identifier).toBe('CARD-77');

      const b = await initDevice(t, shopId);
      await t.app.services.identity.resolveProfile(shopId, { did: b.did, phone: '79001230000' });
      const known = await t.app.inject(loyaltyJoinRequest({ shopId, ...b }, {}));
      expect(known.statusCode, known.body).toBe(200);
      expect((await t.app.services.loyalty.findMember(shopId, '79001230000')).identifier).toBe('79001230000');
    });

    it('answers 409 when the phone belongs to another customer than the email names, and makes no one a member', async () => {
      await t.app.services.identity.resolveProfile(shopId, { email: 'first@example.org' });
      await t.app.services.identity.resolveProfile(shopId, { email: 'second@example.org', phone: '79002220000' });
      const device = await initDevice(t, shopId);
      const response = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { email: 'first@example.org', phone: '79002220000' }));
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({ status: 'error', payload: { message: 'Parameter `phone` belongs to another customer.' } });
      const status = await t.app.inject(loyaltyStatusRequest({ shopId, ...device }, '79002220000'));
      expect(status.statusCode).toBe(404);
    });

    it('refuses a join without a phone or loyalty_id before writing anything', async () => {
      const device = await initDevice(t, shopId);
      const response = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { email: 'nophone@example.org', first_name: 'No' }));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toEqual({ status: 'error', payload: { message: 'Parameter `phone` or `loyalty_id` is required.' } });
      expect(await t.app.services.identity.findProfiles(shopId, { email: 'nophone@example.org' })).toEqual([]);
      const status = await t.app.inject(loyaltyStatusRequest({ shopId, ...device }, ''));
      expect(status.json()).toEqual({ status: 'success', payload: { member: false, level: null } });
    });

    it('refuses a bad name as POST /profile/set does, and makes no one a member', async () => {
      const device = await initDevice(t, shopId);
      const response = await t.app.inject(loyaltyJoinRequest({ shopId, ...device }, { phone: '79001239999', first_name: { a: 1 } }));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json<{ payload: { message: string } }>().payload.message).toMatch(/^Parameter `first_name` /);
      expect((await t.app.inject(loyaltyStatusRequest({ shopId, ...device }, '79001239999'))).statusCode).toBe(404);
    });

    it.each([
      ['no shop_id → 401', { did: '{did}', phone: '79001112233' }, 401, 'Parameter `shop_id` is required.'],
      [
        'a malformed shop_id → 422',
        { shop_id: 'xyz', did: '{did}', phone: '79001112233' },
        422,
        'Parameter `shop_id` must be 30 hexadecimal characters.',
      ],
      ['an unknown shop → 404', { shop_id: '0'.repeat(30), did: '{did}', phone: '79001112233' }, 404, 'Shop not found'],
      ['an inactive shop → 403', { shop_id: '{inactive}', did: '{did}', phone: '79001112233' }, 403, 'Shop is not active.'],
      ['an unknown well-formed did → 404', { shop_id: '{shop}', did: 'Unknown123', phone: '79001112233' }, 404, 'Device not found'],
      ['another shop’s device → 404', { shop_id: '{shop}', did: '{other_did}', phone: '79001112233' }, 404, 'Device not found'],
      ['a malformed did → 422', { shop_id: '{shop}', did: 'INVALID_ID', phone: '79001112233' }, 422, 'Device ID is not valid'],
      ['identifiers without did or secret → 401', { shop_id: '{shop}', phone: '79001112233' }, 401, 'Invalid secret key'],
      ['a wrong secret without did → 401', { shop_id: '{shop}', shop_secret: 'wrong', phone: '79001112233' }, 401, 'Invalid secret key'],
      ['nothing to join → 422', { shop_id: '{shop}' }, 422, 'Parameter `phone` or `loyalty_id` is required.'],
      ['a malformed phone → 422', { shop_id: '{shop}', did: '{did}', phone: '12' }, 422, 'Parameter `phone` is not valid.'],
      [
        'a malformed email → 422',
        { shop_id: '{shop}', did: '{did}', phone: '79001112233', email: 'not-an-email' },
        422,
        'Parameter `email` is not valid.',
      ],
      ['a phone given as an object → 422', { shop_id: '{shop}', did: '{did}', phone: { a: 1 } }, 422, 'Parameter `phone` is not valid.'],
    ])('%s', async (_name, body, status, message) => {
      const filled = Object.fromEntries(
        Object.entries(body).map(([k, v]) => [
          k,
          v === '{shop}' ? shopId : v === '{did}' ? sdk.did : v === '{other_did}' ? otherShop.did : v === '{inactive}' ? inactiveShop : v,
        ]),
      );
      const response = await t.app.inject({ method: 'POST', url: '/loyalty/members/join', payload: filled });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toEqual({ status: 'error', payload: { message } });
    });

    it('lets a server with the shop secret join by identifiers alone', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/loyalty/members/join',
        payload: { shop_id: shopId, shop_secret: secret, phone: '79004440000' },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect((await t.app.services.loyalty.findMember(shopId, '79004440000')).identifier).toBe('79004440000');
    });
  });

  it('documents both calls in the OpenAPI document under the loyalty tag', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    const paths = response.json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>().paths;
    expect(paths['/loyalty/members/status']?.get?.tags).toEqual(['loyalty']);
    expect(paths['/loyalty/members/join']?.post?.tags).toEqual(['loyalty']);
  });
});
