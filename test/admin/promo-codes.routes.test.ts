import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PromoCodeHolds } from '../../src/modules/promotions/promo-code-holds.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { inOrderStep } from '../helpers/order-holds.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const at = new Date(NOW).toISOString();

type Body = Record<string, unknown>;

describe('admin promo code and certificate routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });

  async function shopWithPromotion(): Promise<{ shop: string; shopId: string }> {
    const { shopId } = await createShopFixture(t.app.services);
    const shop = `/admin/v1/shops/${shopId}`;
    const created = await inject('POST', `${shop}/promotions`, {
      name: 'Sale',
      status: 'active',
      discount: { type: 'percent', value: 10 },
    });
    expect(created.json()).toEqual({ id: 1 });
    return { shop, shopId };
  }

  it('creates a code (201 with the core fields), reads it in any case with used and blocked, and refuses it again with 409', async () => {
    const { shop, shopId } = await shopWithPromotion();
    const created = await inject('POST', `${shop}/promo-codes`, { code: 'sale10', promotion_id: 1, usage_limit: 100, per_member_limit: 1 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({
      code: 'SALE10',
      promotion_id: 1,
      usage_limit: 100,
      per_member_limit: 1,
      used: 0,
      blocked: 0,
      ends_at: null,
      created_at: at,
    });
    await inOrderStep(
      t.db,
      t.clock,
      { shopId, orderId: 'o1', profileId: 5 },
      (scope) => new PromoCodeHolds({ db: t.db }).block(scope, 'SALE10'),
      (o) => !o.ok,
    );
    expect((await inject('GET', `${shop}/promo-codes/Sale10`)).json()).toMatchObject({ used: 0, blocked: 1 });
    expect(expectAdminError(await inject('POST', `${shop}/promo-codes`, { code: 'SALE10', promotion_id: 1 }), 409, 'CONFLICT')).toBe(
      'Promo code `SALE10` already exists.',
    );
    const unlimited = await inject('POST', `${shop}/promo-codes`, { code: 'FREE', promotion_id: 1 });
    expect(unlimited.json()).toMatchObject({ usage_limit: null, per_member_limit: null });
  });

  it('refuses bad code bodies with 422 naming the field, and answers 404 for unknown codes and promotions', async () => {
    const { shop } = await shopWithPromotion();
    const cases: [Body, string][] = [
      [{ promotion_id: 1 }, '`code`'],
      [{ code: 'a b', promotion_id: 1 }, '`code`'],
      [{ code: 'x'.repeat(65), promotion_id: 1 }, '`code`'],
      [{ code: 'A', promotion_id: '1' }, '`promotion_id`'],
      [{ code: 'A', promotion_id: 1, usage_limit: 0 }, '`usage_limit`'],
      [{ code: 'A', promotion_id: 1, per_member_limit: -1 }, '`per_member_limit`'],
      [{ code: 'A', promotion_id: 1, ends_at: '2020-01-01T00:00:00Z' }, '`ends_at`'],
      [{ code: 'A', promotion_id: 1, extra: true }, '`extra`'],
    ];
    for (const [body, field] of cases) {
      expect(expectAdminError(await inject('POST', `${shop}/promo-codes`, body), 422, 'VALIDATION_FAILED')).toContain(field);
    }
    expect(expectAdminError(await inject('POST', `${shop}/promo-codes`, { code: 'A', promotion_id: 9 }), 404, 'NOT_FOUND')).toBe(
      'Promotion not found.',
    );
    expect(expectAdminError(await inject('GET', `${shop}/promo-codes/NOPE`), 404, 'NOT_FOUND')).toBe('Promo code not found.');
    expectAdminError(await inject('GET', `${shop}/promo-codes/${'x'.repeat(200)}`), 404, 'NOT_FOUND');
  });

  it('generates codes of a pattern and lists them a page at a time', async () => {
    const { shop } = await shopWithPromotion();
    const made = await inject('POST', `${shop}/promotions/1/promo-codes/generate`, { count: 25, pattern: 'SALE-####-??' });
    expect(made.statusCode, made.body).toBe(201);
    const { codes, count, promotion_id } = made.json<{ codes: string[]; count: number; promotion_id: number }>();
    expect({ count, promotion_id, distinct: new Set(codes).size }).toEqual({ count: 25, promotion_id: 1, distinct: 25 });
    const first = (await inject('GET', `${shop}/promotions/1/promo-codes?limit=20`)).json<{ promo_codes: Body[]; next_after: string }>();
    const rest = (await inject('GET', `${shop}/promotions/1/promo-codes?limit=20&after=${first.next_after}`)).json<{
      promo_codes: Body[];
      next_after: null;
    }>();
    expect(rest.next_after).toBeNull();
    expect([...first.promo_codes, ...rest.promo_codes].map((c) => c.code)).toEqual([...codes].sort());
    expect(first.promo_codes[0]).toMatchObject({ usage_limit: 1, used: 0, blocked: 0 });
  });

  it('refuses a generation too large for its pattern, or malformed, with 422 naming the field', async () => {
    const { shop } = await shopWithPromotion();
    const url = `${shop}/promotions/1/promo-codes/generate`;
    expect(expectAdminError(await inject('POST', url, { count: 10, pattern: 'A#' }), 422, 'VALIDATION_FAILED')).toContain('`pattern`');
    expect(expectAdminError(await inject('POST', url, { count: 1, pattern: 'A B#' }), 422, 'VALIDATION_FAILED')).toContain('`pattern`');
    expect(expectAdminError(await inject('POST', url, { count: 100_001, pattern: '?'.repeat(20) }), 422, 'VALIDATION_FAILED')).toContain(
      '`count`',
    );
    expect(expectAdminError(await inject('POST', url, { count: 0, pattern: '#' }), 422, 'VALIDATION_FAILED')).toContain('`count`');
    expectAdminError(await inject('POST', `${shop}/promotions/2/promo-codes/generate`, { count: 1, pattern: '####' }), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', `${shop}/promotions/2/promo-codes`), 404, 'NOT_FOUND');
  });

  it('creates a certificate (201 with id, code, pool_id, amount, balance) in a pool, and reads it', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const shop = `/admin/v1/shops/${shopId}`;
    const pool = await inject('POST', `${shop}/certificate-pools`, { name: 'Gift cards' });
    expect(pool.statusCode).toBe(201);
    expect(pool.json()).toEqual({ id: 1, name: 'Gift cards' });
    const created = await inject('POST', `${shop}/certificates`, {
      code: 'gift-1',
      amount: 1000.5,
      pool_id: 1,
      expires_at: '2027-01-01T00:00:00Z',
    });
    expect(created.statusCode, created.body).toBe(201);
    const expected = {
      id: 1,
      code: 'GIFT-1',
      pool_id: 1,
      amount: 1000.5,
      balance: 1000.5,
      held: 0,
      expires_at: '2027-01-01T00:00:00.000Z',
      created_at: at,
    };
    expect(created.json()).toEqual(expected);
    expect((await inject('GET', `${shop}/certificates/Gift-1`)).json()).toEqual(expected);
    expect((await inject('POST', `${shop}/certificates`, { code: 'GIFT-2', amount: 5 })).json()).toMatchObject({ pool_id: null });
  });

  it('refuses bad certificates with 422 naming the field, a taken code with 409, an unknown one with 404', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const shop = `/admin/v1/shops/${shopId}`;
    await inject('POST', `${shop}/certificates`, { code: 'G', amount: 10 });
    const cases: [Body, string][] = [
      [{ code: 'A', amount: 0 }, '`amount`'],
      [{ code: 'A', amount: 1.005 }, '`amount`'],
      [{ code: 'A', amount: '10' }, '`amount`'],
      [{ code: 'A', amount: 1, pool_id: 3 }, '`pool_id`'],
      [{ code: 'A', amount: 1, expires_at: '2026-01-01T00:00:00Z' }, '`expires_at`'],
      [{ code: '', amount: 1 }, '`code`'],
    ];
    for (const [body, field] of cases) {
      expect(expectAdminError(await inject('POST', `${shop}/certificates`, body), 422, 'VALIDATION_FAILED')).toContain(field);
    }
    expectAdminError(await inject('POST', `${shop}/certificate-pools`, { name: '' }), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('POST', `${shop}/certificates`, { code: 'g', amount: 1 }), 409, 'CONFLICT');
    expect(expectAdminError(await inject('GET', `${shop}/certificates/NOPE`), 404, 'NOT_FOUND')).toBe('Certificate not found.');
  });
});
