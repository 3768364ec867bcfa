import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_COLLECTION_PRODUCTS } from '../../src/modules/collections/domain/collection.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

type Body = Record<string, unknown>;

describe.each(TEST_DIALECTS)('admin collection routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/collections`;

  it('creates a collection with PUT, each id once in its first place, and answers it as GET does', async () => {
    t.clock.set(NOW);
    const { shopId } = await createShopFixture(t.app.services);
    const created = await inject('PUT', `${base(shopId)}/6`, { name: ' Summer ', product_ids: ['b', 'a', 'b', 'c'] });
    expect(created.statusCode, created.body).toBe(200);
    const expected = {
      id: '6',
      name: 'Summer',
      product_ids: ['b', 'a', 'c'],
      created_at: '2026-01-15T12:00:00.000Z',
      updated_at: '2026-01-15T12:00:00.000Z',
    };
    expect(created.json()).toEqual(expected);
    expect((await inject('GET', `${base(shopId)}/6`)).json()).toEqual(expected);
  });

  it('replaces a collection whole, keeping when it was created', async () => {
    t.clock.set(NOW);
    const { shopId } = await createShopFixture(t.app.services);
    await inject('PUT', `${base(shopId)}/sale`, { name: 'Sale', product_ids: ['a', 'b'] });
    t.clock.set(NOW + 60_000);
    const replaced = await inject('PUT', `${base(shopId)}/sale`, { name: 'Big sale', product_ids: [] });
    expect(replaced.json()).toEqual({
      id: 'sale',
      name: 'Big sale',
      product_ids: [],
      created_at: '2026-01-15T12:00:00.000Z',
      updated_at: '2026-01-15T12:01:00.000Z',
    });
  });

  it('lists the shop’s collections by id with their sizes, and no other shop’s', async () => {
    t.clock.set(NOW);
    const { shopId } = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services);
    await inject('PUT', `${base(shopId)}/b`, { name: 'B', product_ids: ['1', '2'] });
    await inject('PUT', `${base(shopId)}/a`, { name: 'A', product_ids: [] });
    await inject('PUT', `${base(other.shopId)}/c`, { name: 'C', product_ids: ['9'] });
    const list = await inject('GET', base(shopId));
    expect(list.json()).toEqual({
      collections: [
        { id: 'a', name: 'A', product_count: 0, created_at: '2026-01-15T12:00:00.000Z', updated_at: '2026-01-15T12:00:00.000Z' },
        { id: 'b', name: 'B', product_count: 2, created_at: '2026-01-15T12:00:00.000Z', updated_at: '2026-01-15T12:00:00.000Z' },
      ],
    });
    expectAdminError(await inject('GET', `${base(other.shopId)}/a`), 404, 'NOT_FOUND');
  });

  it('deletes a collection; then it is gone for GET, DELETE and the public read', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    await inject('PUT', `${base(shopId)}/x`, { name: 'X', product_ids: ['a'] });
    const deleted = await inject('DELETE', `${base(shopId)}/x`);
    expect({ status: deleted.statusCode, body: deleted.body }).toEqual({ status: 204, body: '' });
    expectAdminError(await inject('GET', `${base(shopId)}/x`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${base(shopId)}/x`), 404, 'NOT_FOUND');
    const publicRead = await t.app.inject({ method: 'GET', url: `/collection/x?shop_id=${shopId}` });
    expect({ status: publicRead.statusCode, body: publicRead.json() }).toEqual({
      status: 404,
      body: { status: 'error', payload: { message: 'Collection not found' } },
    });
  });

  it('answers 404 for an unknown shop on every route', async () => {
    const put = await inject('PUT', `${base(UNKNOWN_SHOP)}/a`, { name: 'A', product_ids: [] });
    expect(expectAdminError(put, 404, 'NOT_FOUND')).toBe('Shop not found.');
    expectAdminError(await inject('GET', base(UNKNOWN_SHOP)), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', `${base(UNKNOWN_SHOP)}/a`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${base(UNKNOWN_SHOP)}/a`), 404, 'NOT_FOUND');
  });

  it.each([
    ['a blank name', 'a', { name: '   ', product_ids: [] }, 'name'],
    ['no name', 'a', { product_ids: [] }, 'name'],
    ['a name over 255 characters', 'a', { name: 'n'.repeat(256), product_ids: [] }, 'name'],
    ['product_ids not an array', 'a', { name: 'A', product_ids: 'a,b' }, 'product_ids'],
    [
      'too many product ids',
      'a',
      { name: 'A', product_ids: Array.from({ length: MAX_COLLECTION_PRODUCTS + 1 }, (_, i) => `p${i}`) },
      'product_ids',
    ],
    ['an empty product id', 'a', { name: 'A', product_ids: ['a', ''] }, 'product_ids'],
    ['a product id of spaces', 'a', { name: 'A', product_ids: ['a', '  '] }, 'product_ids[1]'],
    ['a product id with a control character', 'a', { name: 'A', product_ids: ['a\u0001b'] }, 'product_ids[0]'],
    ['a product id over 255 characters', 'a', { name: 'A', product_ids: ['p'.repeat(256)] }, 'product_ids'],
    ['an unknown field', 'a', { name: 'A', product_ids: [], extra: 1 }, 'extra'],
    ['an id with a dot', 'a.b', { name: 'A', product_ids: [] }, 'id'],
    ['an id over 64 characters', 'i'.repeat(65), { name: 'A', product_ids: [] }, 'id'],
  ])('refuses %s with 422 naming the field', async (_name, id, body, field) => {
    const { shopId } = await createShopFixture(t.app.services);
    const message = expectAdminError(await inject('PUT', `${base(shopId)}/${id}`, body), 422, 'VALIDATION_FAILED');
    expect(message).toContain(field);
    expectAdminError(await inject('GET', `${base(shopId)}/${id.length > 64 || id.includes('.') ? 'a' : id}`), 404, 'NOT_FOUND');
  });

  it('needs the admin token', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const response = await t.app.inject({ method: 'GET', url: base(shopId) });
    expectAdminError(response, 401, 'UNAUTHORIZED');
  });
});
