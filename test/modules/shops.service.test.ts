import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { AppError } from '../../src/errors.js';
import { SHOP_CACHE_TTL_MS, ShopsService } from '../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';

/** Resolves to the AppError a promise rejects with, or fails the test. */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe.each(TEST_DIALECTS)('ShopsService on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let shops: ShopsService;
  const services = () => ({ shops });

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    shops = new ShopsService({ db, clock });
  });
  afterAll(async () => {
    await db.cleanup();
  });

  describe('creating a shop', () => {
    it('returns a 30-hex id, a long secret and the defaults', async () => {
      const { shop, secret } = await shops.createShop({ name: '  Corner store ' });
      expect(shop.shopId).toMatch(/^[0-9a-f]{30}$/);
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(shop).toMatchObject({
        name: 'Corner store',
        currency: 'RUB',
        timezone: 'Europe/Moscow',
        active: true,
        restricted: false,
        paidTill: null,
        createdAt: clock.now(),
      });
      expect(await shops.getShop(shop.shopId)).toEqual(shop);
    });

    it('stores the secret only as a hash', async () => {
      const { shopId, secret } = await createShopFixture(services());
      const row = await db.db.selectFrom('shops').selectAll().where('shop_id', '=', shopId).executeTakeFirstOrThrow();
      for (const value of Object.values(row)) expect(String(value)).not.toContain(secret);
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('gives every shop its own id and secret', async () => {
      const a = await createShopFixture(services());
      const b = await createShopFixture(services());
      expect(a.shopId).not.toBe(b.shopId);
      expect(a.secret).not.toBe(b.secret);
    });

    it.each([
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'Shop', currency: 'rub' }, 'currency'],
      [{ name: 'Shop', currency: 'RUBL' }, 'currency'],
      [{ name: 'Shop', timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    ])('refuses %j naming the field `%s`', async (input, field) => {
      const error = await appErrorOf(shops.createShop(input));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toEqual({ field });
      expect(error.message).toContain(`\`${field}\``);
    });
  });

  describe('reading shops', () => {
    it('answers undefined for an unknown or malformed id, and requireShop throws NOT_FOUND', async () => {
      expect(await shops.getShop('0'.repeat(30))).toBeUndefined();
      expect(await shops.getShop('not-an-id')).toBeUndefined();
      expect((await appErrorOf(shops.requireShop('0'.repeat(30)))).code).toBe('NOT_FOUND');
    });

    it('lists every shop in creation order', async () => {
      const first = await createShopFixture(services());
      clock.advance(1000);
      const second = await createShopFixture(services());
      const ids = (await shops.listShops()).map((s) => s.shopId);
      expect(ids).toContain(first.shopId);
      expect(ids.indexOf(first.shopId)).toBeLessThan(ids.indexOf(second.shopId));
    });
  });

  describe('secrets', () => {
    it('verifies the issued secret and refuses a wrong one', async () => {
      const { shopId, secret } = await createShopFixture(services());
      const credentials = (await shops.findShopWithCredentials(shopId))!;
      expect(shops.verifySecret(credentials, secret)).toBe(true);
      expect(shops.verifySecret(credentials, `${secret}x`)).toBe(false);
      expect(shops.verifySecret(credentials, '')).toBe(false);
    });

    it('refuses the old secret at once after rotation and accepts the new one', async () => {
      const { shopId, secret: oldSecret } = await createShopFixture(services());
      const newSecret = await shops.rotateSecret(shopId);
      expect(newSecret).not.toBe(oldSecret);
      expect(newSecret.length).toBeGreaterThanOrEqual(32);
      const credentials = (await shops.findShopWithCredentials(shopId))!;
      expect(shops.verifySecret(credentials, oldSecret)).toBe(false);
      expect(shops.verifySecret(credentials, newSecret)).toBe(true);
    });

    it('rotates only the shop it is asked to', async () => {
      const a = await createShopFixture(services());
      const b = await createShopFixture(services());
      await shops.rotateSecret(a.shopId);
      expect(shops.verifySecret((await shops.findShopWithCredentials(b.shopId))!, b.secret)).toBe(true);
    });

    it('refuses to rotate the secret of an unknown shop', async () => {
      expect((await appErrorOf(shops.rotateSecret('f'.repeat(30)))).code).toBe('NOT_FOUND');
      expect((await appErrorOf(shops.rotateSecret('../etc'))).code).toBe('NOT_FOUND');
    });
  });

  describe('serving state', () => {
    // 22:30 UTC on 15 January is already 01:30 on 16 January in Moscow (UTC+3).
    const lateEveningUtc = Date.UTC(2026, 0, 15, 22, 30);

    it('serves a fresh shop, and not an inactive or restricted one', async () => {
      const { shopId } = await createShopFixture(services());
      expect(shops.servingState(await shops.requireShop(shopId))).toBe('serving');
      expect(shops.servingState(await shops.updateShop(shopId, { active: false }))).toBe('inactive');
      expect(shops.servingState(await shops.updateShop(shopId, { active: true, restricted: true }))).toBe('restricted');
      expect(shops.servingState(await shops.updateShop(shopId, { restricted: false }))).toBe('serving');
    });

    it.each([
      ['2026-01-15', 'unpaid'],
      ['2026-01-16', 'serving'],
      ['2026-01-17', 'serving'],
    ] as const)('with paid_till %s reads the date in the shop time zone: %s', async (paidTill, expected) => {
      clock.set(lateEveningUtc);
      const { shopId } = await createShopFixture(services(), { timezone: 'Europe/Moscow' });
      const shop = await shops.updateShop(shopId, { paidTill });
      expect(shops.servingState(shop)).toBe(expected);
    });

    it('still serves a shop in UTC whose paid_till is the UTC date', async () => {
      clock.set(lateEveningUtc);
      const { shopId } = await createShopFixture(services(), { timezone: 'UTC' });
      expect(shops.servingState(await shops.updateShop(shopId, { paidTill: '2026-01-15' }))).toBe('serving');
    });

    it('stops serving when the clock passes the end of the last paid day', async () => {
      clock.set(Date.UTC(2026, 0, 16, 20, 59)); // 23:59 in Moscow, 16 January
      const { shopId } = await createShopFixture(services(), { timezone: 'Europe/Moscow' });
      const shop = await shops.updateShop(shopId, { paidTill: '2026-01-16' });
      expect(shops.servingState(shop)).toBe('serving');
      clock.advance(60_000);
      expect(shops.servingState(shop)).toBe('unpaid');
    });

    it('puts inactive before unpaid', async () => {
      clock.set(lateEveningUtc);
      const { shopId } = await createShopFixture(services());
      const shop = await shops.updateShop(shopId, { active: false, paidTill: '2020-01-01' });
      expect(shops.servingState(shop)).toBe('inactive');
    });
  });

  describe('the cached shop of shop_id-only public reads', () => {
    it('sees a change made through the same service at once', async () => {
      const { shopId } = await createShopFixture(services());
      expect((await shops.findShopForPublicRead(shopId))?.active).toBe(true);
      await shops.updateShop(shopId, { active: false });
      expect((await shops.findShopForPublicRead(shopId))?.active).toBe(false);
    });

    it('sees a change made by another process once SHOP_CACHE_TTL_MS has passed, never later', async () => {
      const { shopId } = await createShopFixture(services());
      const otherProcess = new ShopsService({ db, clock });
      expect((await shops.findShopForPublicRead(shopId))?.restricted).toBe(false);
      await otherProcess.updateShop(shopId, { restricted: true });
      clock.advance(SHOP_CACHE_TTL_MS - 1);
      expect((await shops.findShopForPublicRead(shopId))?.restricted).toBe(false);
      clock.advance(1);
      expect((await shops.findShopForPublicRead(shopId))?.restricted).toBe(true);
    });

    it('does not remember an unknown shop', async () => {
      const otherProcess = new ShopsService({ db, clock });
      const { shop } = await otherProcess.createShop({ name: 'Created elsewhere' });
      expect(await shops.findShopForPublicRead('f'.repeat(30))).toBeUndefined();
      expect((await shops.findShopForPublicRead(shop.shopId))?.name).toBe('Created elsewhere');
    });
  });

  describe('updating a shop', () => {
    it('changes only the given fields and clears paid_till with null', async () => {
      const { shopId } = await createShopFixture(services(), { currency: 'EUR', timezone: 'Europe/Berlin' });
      const paid = await shops.updateShop(shopId, { paidTill: '2026-12-31', name: 'Renamed' });
      expect(paid).toMatchObject({ paidTill: '2026-12-31', name: 'Renamed', currency: 'EUR', active: true });
      const cleared = await shops.updateShop(shopId, { paidTill: null });
      expect(cleared).toMatchObject({ paidTill: null, name: 'Renamed', timezone: 'Europe/Berlin' });
      expect(await shops.requireShop(shopId)).toEqual(cleared);
    });

    it.each(['2023-02-30', '2023-13-01', '2023-2-3', 'tomorrow', ''])('refuses paid_till %j naming the field', async (paidTill) => {
      const { shopId } = await createShopFixture(services());
      const error = await appErrorOf(shops.updateShop(shopId, { paidTill }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toEqual({ field: 'paid_till' });
      expect((await shops.requireShop(shopId)).paidTill).toBeNull();
    });

    it('accepts 29 February of a leap year', async () => {
      const { shopId } = await createShopFixture(services());
      expect((await shops.updateShop(shopId, { paidTill: '2028-02-29' })).paidTill).toBe('2028-02-29');
    });

    it('refuses an empty name', async () => {
      const { shopId } = await createShopFixture(services());
      const error = await appErrorOf(shops.updateShop(shopId, { name: ' ' }));
      expect(error.details).toEqual({ field: 'name' });
    });

    it('answers NOT_FOUND for an unknown shop', async () => {
      expect((await appErrorOf(shops.updateShop('a'.repeat(30), { active: false }))).code).toBe('NOT_FOUND');
    });
  });

  describe('custom event codes', () => {
    it('creates, lists by code and deletes codes', async () => {
      const { shopId } = await createShopFixture(services());
      expect(await shops.createCustomEvent(shopId, { code: 'subscribed', name: ' Newsletter ' })).toEqual({
        code: 'subscribed',
        name: 'Newsletter',
        createdAt: clock.now(),
      });
      await shops.createCustomEvent(shopId, { code: 'app_open_2' });
      expect((await shops.listCustomEvents(shopId)).map((e) => [e.code, e.name])).toEqual([
        ['app_open_2', null],
        ['subscribed', 'Newsletter'],
      ]);
      expect(await shops.hasCustomEvent(shopId, 'subscribed')).toBe(true);

      await shops.deleteCustomEvent(shopId, 'subscribed');
      expect(await shops.hasCustomEvent(shopId, 'subscribed')).toBe(false);
      expect((await shops.listCustomEvents(shopId)).map((e) => e.code)).toEqual(['app_open_2']);
    });

    it('answers CONFLICT for a code the shop already has, keeping the first name', async () => {
      const { shopId } = await createShopFixture(services());
      await shops.createCustomEvent(shopId, { code: 'signup', name: 'First' });
      const error = await appErrorOf(shops.createCustomEvent(shopId, { code: 'signup', name: 'Second' }));
      expect(error.code).toBe('CONFLICT');
      expect((await shops.listCustomEvents(shopId)).map((e) => e.name)).toEqual(['First']);
    });

    it.each(['Signup', 'sign-up', '', 'a'.repeat(65), 'код'])('refuses the code %j', async (code) => {
      const { shopId } = await createShopFixture(services());
      const error = await appErrorOf(shops.createCustomEvent(shopId, { code }));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toEqual({ field: 'code' });
    });

    it('keeps each shop to its own codes', async () => {
      const a = await createShopFixture(services());
      const b = await createShopFixture(services());
      await shops.createCustomEvent(a.shopId, { code: 'only_in_a' });

      expect(await shops.hasCustomEvent(b.shopId, 'only_in_a')).toBe(false);
      expect(await shops.listCustomEvents(b.shopId)).toEqual([]);
      expect((await appErrorOf(shops.deleteCustomEvent(b.shopId, 'only_in_a'))).code).toBe('NOT_FOUND');
      expect(await shops.hasCustomEvent(a.shopId, 'only_in_a')).toBe(true);

      // The same code in another shop is no conflict.
      await shops.createCustomEvent(b.shopId, { code: 'only_in_a' });
      expect(await shops.hasCustomEvent(b.shopId, 'only_in_a')).toBe(true);
    });

    it('answers NOT_FOUND for an unknown shop or an absent code', async () => {
      const unknown = 'b'.repeat(30);
      expect((await appErrorOf(shops.createCustomEvent(unknown, { code: 'x' }))).code).toBe('NOT_FOUND');
      expect((await appErrorOf(shops.listCustomEvents(unknown))).code).toBe('NOT_FOUND');
      const { shopId } = await createShopFixture(services());
      expect((await appErrorOf(shops.deleteCustomEvent(shopId, 'never_created'))).code).toBe('NOT_FOUND');
    });
  });
});
