import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/modules/tracking/tracking.types.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectStatusAnswer, send, type Vars } from './harness.js';
import {
  BAD_INPUT,
  CONTRACT_NOTES,
  LIST_SCENARIO,
  NORMALISATION_TABLE,
  STATUS_TABLE,
  TRACK_PURCHASE,
  TRACK_PURCHASE_BODY,
  type PushCase,
} from './push.cases.js';
import { initDevice, profileOfDevice } from './tracking-fixtures.js';

/**
 * POST /push, every row of interface.md's status table and item normalisation table,
 * the contract-notes rows and the bad input of issue 3, as data (push.cases.ts), on
 * both databases. Each 200 must have stored exactly one new event for the device (read
 * back through the tracking service); each failure must have stored nothing.
 */
describe.each(TEST_DIALECTS)('POST /push contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { PATRON_BODY_LIMIT: String(1024 * 1024) } });
    const services = t.app.services;
    const shop = await createShopFixture(services);
    const device = await initDevice(t, shop.shopId);
    const others: Record<string, string> = {};
    const states = { inactive: { active: false }, restricted: { restricted: true }, unpaid: { paidTill: '2020-01-31' } };
    for (const [name, patch] of Object.entries(states)) {
      const other = await createShopFixture(services);
      others[`${name}_shop`] = other.shopId;
      others[`${name}_did`] = (await initDevice(t, other.shopId)).did;
      await services.shops.updateShop(other.shopId, patch);
    }
    const listDevice = await initDevice(t, shop.shopId);
    vars = {
      shop: shop.shopId,
      did: device.did,
      sid: device.sid,
      list_did: listDevice.did,
      unknown_shop: '0'.repeat(30),
      ...others,
    };
  });
  afterAll(async () => {
    await t.close();
  });

  async function newestEvent(): Promise<StoredEvent | undefined> {
    return (await t.app.services.tracking.listEvents(vars.shop!, vars.did!, 1))[0];
  }

  async function check(row: PushCase): Promise<void> {
    const before = await newestEvent();
    const response = await send(t, row.request, vars);
    const message = row.message instanceof RegExp ? expect.stringMatching(row.message) : row.message;
    expectStatusAnswer(response, row.status, message as string | undefined);
    const after = await newestEvent();
    if (row.status !== 200) {
      expect(after?.id, 'a refused request stored nothing').toBe(before?.id);
      return;
    }
    expect(after, 'a 200 stored the event').toBeDefined();
    expect(after!.id).toBeGreaterThan(before?.id ?? 0);
    const { stored } = row;
    if (stored?.event !== undefined) expect(after!.event).toBe(stored.event);
    if (stored?.items !== undefined) expect(after!.items).toEqual(stored.items);
    if (stored?.itemCount !== undefined) expect(after!.items).toHaveLength(stored.itemCount);
    if (stored?.params !== undefined) expect(after!.params).toMatchObject(stored.params);
    for (const name of stored?.absent ?? []) expect(after!.params).not.toHaveProperty(name);
  }

  describe('status table (interface.md, Errors / POST /push)', () => {
    it.each(STATUS_TABLE)('$name', check);
  });

  describe('item normalisation table', () => {
    it.each(NORMALISATION_TABLE)('$name', check);
  });

  describe('contract notes', () => {
    it.each(CONTRACT_NOTES)('$name', check);
  });

  describe('bad input', () => {
    it.each(BAD_INPUT)('$name', check);
  });

  describe('trackPurchase fields (contract-notes, POST /push)', () => {
    it.each(TRACK_PURCHASE)('$name', check);

    it('stores them with the order too, amounts in minor units', async () => {
      const { did, sid } = await initDevice(t, vars.shop!);
      const body = { ...TRACK_PURCHASE_BODY, did, seance: sid, sid, order_id: 'M-2002' };
      expectStatusAnswer(await send(t, { url: '/push', body }, vars), 200);
      const orders = await t.app.services.tracking.listOrders(vars.shop!, await profileOfDevice(t, vars.shop!, did));
      expect(orders).toEqual([
        expect.objectContaining({
          orderId: 'M-2002',
          itemsTotal: 250_050,
          orderPrice: 245_050,
          orderCash: 200_025,
          orderBonuses: 30_000,
          orderDelivery: 25_001,
          orderDiscount: 10_000,
          channel: 'mobile_app',
          taxFree: true,
          giftPackage: true,
          deliveryAddress: 'Moscow, Tverskaya 1, flat 2',
          custom: { floor: 3, gift_note: 'Happy birthday', tags: ['a', 'b'] },
          stream: 'android',
          deliveryType: 'courier',
          paymentType: 'card',
          promocode: 'SPRING',
        }),
      ]);
    });
  });

  describe('the eight events and the cart and wish list (interface.md, Events)', () => {
    it('applies each event to the device’s lists in order', async () => {
      for (const step of LIST_SCENARIO) {
        expectStatusAnswer(await send(t, step.request, vars), 200);
        const profileId = await profileOfDevice(t, vars.shop!, vars.list_did!);
        expect(await t.app.services.tracking.getLists(vars.shop!, profileId), step.name).toEqual(step.lists);
      }
    });
  });

  describe('identifiers beside the did', () => {
    it('links the device to the profile of the email and phone given with the event', async () => {
      const { did } = await initDevice(t, vars.shop!);
      const request = {
        url: '/push',
        body: { shop_id: vars.shop!, did, event: 'view', items: [{ id: 'p1' }], email: ' Ann@Example.ORG', phone: '8 (912) 345-67-89' },
      };
      expectStatusAnswer(await send(t, request, vars), 200);
      const profiles = await t.app.services.identity.findProfiles(vars.shop!, { email: 'ann@example.org' });
      expect(profiles).toEqual([expect.objectContaining({ email: 'ann@example.org', phone: '79123456789', devices: [did] })]);
      expect(await profileOfDevice(t, vars.shop!, did)).toBe(profiles[0]!.id);
    });
  });
});
