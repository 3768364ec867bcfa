import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';

type Body = Record<string, unknown>;
const SALE = { name: 'Winter sale', status: 'active', discount: { type: 'percent', value: 10 } };

describe('admin promotion routes', () => {
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
  const base = async () => `/admin/v1/shops/${(await createShopFixture(t.app.services)).shopId}/promotions`;

  it('creates a promotion (201 with an integer id) and reads every field back in currency units', async () => {
    const url = await base();
    const body = {
      name: 'Night sale',
      status: 'scheduled',
      starts_at: '2026-02-01T00:00:00.000Z',
      ends_at: '2026-03-01T00:00:00.000Z',
      discount: { type: 'fixed', value: 150.5 },
      product_ids: ['p1', 'p2'],
      category_ids: ['c1'],
      min_order_total: 1000,
      streams: ['ios'],
      payment_types: ['card'],
      by_promo_code: true,
      bonus_reward_percent: 2.5,
      priority: 3,
      locations: ['msk'],
      time_of_day: { from: '22:00', to: '06:00' },
      member_levels: ['gold'],
      first_order_only: true,
      special_prices: { p1: 99.99 },
    };
    const created = await inject('POST', url, body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ id: 1 });
    const read = await inject('GET', `${url}/1`);
    expect(read.statusCode).toBe(200);
    const at = new Date(NOW).toISOString();
    expect(read.json()).toEqual({ id: 1, ...body, created_at: at, updated_at: at });
    const minimal = await inject('POST', url, SALE);
    expect((await inject('GET', `${url}/${minimal.json<Body>().id as number}`)).json()).toMatchObject({
      ...SALE,
      starts_at: null,
      ends_at: null,
      priority: 0,
      product_ids: [],
      min_order_total: null,
      by_promo_code: false,
      bonus_reward_percent: 0,
      time_of_day: null,
      special_prices: {},
    });
  });

  it('refuses every invalid field with 422 naming it, and creates nothing', async () => {
    const url = await base();
    const cases: [Body, string][] = [
      [{ ...SALE, name: undefined }, '`name`'],
      [{ ...SALE, name: 'x'.repeat(256) }, '`name`'],
      [{ ...SALE, status: 'paused' }, '`status`'],
      [{ ...SALE, discount: { type: 'percent', value: 101 } }, '`discount.value`'],
      [{ ...SALE, discount: { type: 'fixed', value: 0 } }, '`discount.value`'],
      [{ ...SALE, discount: { type: 'fixed', value: 1.234 } }, '`discount.value`'],
      [{ ...SALE, discount: { type: 'bogo', value: 1 } }, '`discount.type`'],
      [{ ...SALE, status: 'scheduled' }, '`starts_at`'],
      [{ ...SALE, starts_at: '2026-02-01T00:00:00Z', ends_at: '2026-01-01T00:00:00Z' }, '`ends_at`'],
      [{ ...SALE, starts_at: 'tomorrow' }, '`starts_at`'],
      [{ ...SALE, product_ids: Array.from({ length: 10_001 }, (_, i) => `p${i}`) }, '`product_ids`'],
      [{ ...SALE, category_ids: [''] }, '`category_ids[0]`'],
      [{ ...SALE, min_order_total: -1 }, '`min_order_total`'],
      [{ ...SALE, bonus_reward_percent: 100.5 }, '`bonus_reward_percent`'],
      [{ ...SALE, priority: 1.5 }, '`priority`'],
      [{ ...SALE, time_of_day: { from: '25:99', to: '06:00' } }, '`time_of_day.from`'],
      [{ ...SALE, special_prices: { p1: 0 } }, '`special_prices.p1`'],
      [{ ...SALE, streams: ['x'.repeat(65)] }, '`streams[0]`'],
      [{ ...SALE, colour: 'red' }, '`colour`'],
    ];
    for (const [body, field] of cases) {
      const message = expectAdminError(await inject('POST', url, body), 422, 'VALIDATION_FAILED');
      expect(message, JSON.stringify(body).slice(0, 120)).toContain(field);
    }
    expect((await inject('GET', url)).json()).toEqual({ promotions: [], next_after: null });
  });

  it('answers 404 for an unknown shop, an unknown promotion and an id that is not one', async () => {
    const url = await base();
    expectAdminError(await inject('POST', `/admin/v1/shops/${UNKNOWN_SHOP}/promotions`, SALE), 404, 'NOT_FOUND');
    expect(expectAdminError(await inject('GET', `${url}/7`), 404, 'NOT_FOUND')).toBe('Promotion not found.');
    expectAdminError(await inject('GET', `${url}/abc`), 404, 'NOT_FOUND');
    expectAdminError(await inject('PATCH', `${url}/0`, { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('patches fields, clears optional ones with null, validates the result whole, and archives for good', async () => {
    const url = await base();
    await inject('POST', url, { ...SALE, starts_at: '2026-01-01T00:00:00Z', ends_at: '2026-02-01T00:00:00Z' });
    const patched = await inject('PATCH', `${url}/1`, { name: 'Renamed', discount: { type: 'fixed', value: 5 }, ends_at: null });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      name: 'Renamed',
      discount: { type: 'fixed', value: 5 },
      ends_at: null,
      starts_at: '2026-01-01T00:00:00.000Z',
    });
    expect(expectAdminError(await inject('PATCH', `${url}/1`, { ends_at: '2025-12-31T00:00:00Z' }), 422, 'VALIDATION_FAILED')).toContain(
      '`ends_at`',
    );
    expect(expectAdminError(await inject('PATCH', `${url}/1`, { status: 'draft' }), 409, 'CONFLICT')).toContain('`active`');
    expect((await inject('PATCH', `${url}/1`, { status: 'archived' })).json()).toMatchObject({ status: 'archived' });
    expectAdminError(await inject('PATCH', `${url}/1`, { status: 'active' }), 409, 'CONFLICT');
    expectAdminError(await inject('PATCH', `${url}/1`, { name: 'Back' }), 409, 'CONFLICT');
  });

  it('lists with status, active_at and q filters and keyset pages', async () => {
    const url = await base();
    for (const name of ['Alpha', 'Beta', 'Gamma']) await inject('POST', url, { ...SALE, name });
    await inject('POST', url, { ...SALE, name: 'Later', status: 'scheduled', starts_at: '2026-06-01T00:00:00Z' });
    const names = async (query: string) =>
      (await inject('GET', `${url}?${query}`)).json<{ promotions: Body[] }>().promotions.map((p) => p.name);
    expect(await names('status=scheduled')).toEqual(['Later']);
    expect(await names('active_at=2026-01-15T12:00:00Z')).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await names('active_at=2026-06-01T00:00:00Z')).toEqual(['Alpha', 'Beta', 'Gamma', 'Later']);
    expect(await names('q=AMM')).toEqual(['Gamma']);
    const first = (await inject('GET', `${url}?limit=2`)).json<{ promotions: Body[]; next_after: number }>();
    expect(first.promotions.map((p) => p.name)).toEqual(['Alpha', 'Beta']);
    expect(await names(`limit=2&after=${first.next_after}`)).toEqual(['Gamma', 'Later']);
    expect(expectAdminError(await inject('GET', `${url}?limit=abc`), 422, 'VALIDATION_FAILED')).toContain('`limit`');
    expect(expectAdminError(await inject('GET', `${url}?limit=501`), 422, 'VALIDATION_FAILED')).toContain('`limit`');
    expect(expectAdminError(await inject('GET', `${url}?active_at=soon`), 422, 'VALIDATION_FAILED')).toContain('`active_at`');
    expect(expectAdminError(await inject('GET', `${url}?status=gone`), 422, 'VALIDATION_FAILED')).toContain('`status`');
  });
});
