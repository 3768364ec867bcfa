import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

type Body = Record<string, unknown>;

const RULES = [
  { if: { has_item: true }, then: [{ recommender: 'also_bought' }, { recommender: 'similar' }], else: [{ recommender: 'interesting' }] },
  { recommender: 'popular' },
];

describe.each(TEST_DIALECTS)('admin recommendation block routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as Body }) });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/recommendation-blocks`;

  it('creates a block with PUT, answers it with its integer id and the default limit, and GET answers the same', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const created = await inject('PUT', `${base(shopId)}/product_page`, { title: 'You may also like', rules: RULES });
    expect(created.statusCode, created.body).toBe(200);
    const block = created.json<Body>();
    expect(block).toEqual({
      id: expect.any(Number),
      code: 'product_page',
      name: null,
      title: 'You may also like',
      limit: 10,
      rules: RULES,
      created_at: new Date(NOW).toISOString(),
      updated_at: new Date(NOW).toISOString(),
    });
    expect(Number.isInteger(block.id)).toBe(true);
    const read = await inject('GET', `${base(shopId)}/product_page`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(block);
  });

  it('replaces a block whole on a second PUT, keeping its id and first creation time', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const first = (
      await inject('PUT', `${base(shopId)}/cart`, { title: 'First', limit: 5, rules: [{ recommender: 'popular' }] })
    ).json<Body>();
    t.clock.advance(60_000);
    const second = await inject('PUT', `${base(shopId)}/cart`, {
      name: 'Cart page',
      title: 'Second',
      rules: [{ recommender: 'buying_now' }],
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({
      id: first.id,
      name: 'Cart page',
      title: 'Second',
      limit: 10,
      rules: [{ recommender: 'buying_now' }],
      created_at: first.created_at,
      updated_at: new Date(t.clock.now()).toISOString(),
    });
  });

  it('gives each new block of a shop its own id, lists them by code, and keeps shops apart', async () => {
    const a = await createShopFixture(t.app.services);
    const b = await createShopFixture(t.app.services);
    const ids = [];
    for (const code of ['zeta', 'alpha', 'mid']) {
      ids.push((await inject('PUT', `${base(a.shopId)}/${code}`, { title: code, rules: [{ recommender: 'popular' }] })).json<Body>().id);
    }
    expect(new Set(ids).size).toBe(3);
    await inject('PUT', `${base(b.shopId)}/other`, { title: 'Other', rules: [{ recommender: 'trending' }] });
    const list = await inject('GET', base(a.shopId));
    expect(list.statusCode).toBe(200);
    expect(list.json<{ blocks: Body[] }>().blocks.map((block) => block.code)).toEqual(['alpha', 'mid', 'zeta']);
    expectAdminError(await inject('GET', `${base(a.shopId)}/other`), 404, 'NOT_FOUND');
  });

  it('deletes a block: 204, then 404 for GET and for a second DELETE', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    await inject('PUT', `${base(shopId)}/gone`, { title: 'Gone', rules: [{ recommender: 'popular' }] });
    const deleted = await inject('DELETE', `${base(shopId)}/gone`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(expectAdminError(await inject('GET', `${base(shopId)}/gone`), 404, 'NOT_FOUND')).toBe(
      'Recommendation block `gone` does not exist.',
    );
    expectAdminError(await inject('DELETE', `${base(shopId)}/gone`), 404, 'NOT_FOUND');
  });

  it.each([
    ['an unknown recommender', [{ recommender: 'bestsellers' }], 'rules[0].recommender'],
    ['an unknown condition', [{ if: { has_wish: true }, then: [{ recommender: 'popular' }] }], 'rules[0].if'],
    ['a condition flag that is not true', [{ if: { has_cart: false }, then: [{ recommender: 'popular' }] }], 'rules[0].if.has_cart'],
    ['an if without then', [{ if: { has_item: true } }], 'rules[0].then'],
    [
      'a nested unknown recommender',
      [{ if: { has_item: true }, then: [{ recommender: 'popular' }, { recommender: 'x' }] }],
      'rules[0].then[1].recommender',
    ],
    ['no rules at all', [], 'rules'],
  ])('refuses %s with 422 naming its path', async (_name, rules, path) => {
    const { shopId } = await createShopFixture(t.app.services);
    const message = expectAdminError(await inject('PUT', `${base(shopId)}/bad`, { title: 'Bad', rules }), 422, 'VALIDATION_FAILED');
    expect(message).toContain(`\`${path}\``);
    expectAdminError(await inject('GET', `${base(shopId)}/bad`), 404, 'NOT_FOUND');
  });

  it('refuses rules nested deeper than five levels, an empty title, a limit of 101 and a bad code', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    let deep: unknown = [{ recommender: 'popular' }];
    for (let level = 0; level < 6; level++) deep = [{ if: { has_item: true }, then: deep }];
    expect(expectAdminError(await inject('PUT', `${base(shopId)}/deep`, { title: 'Deep', rules: deep }), 422, 'VALIDATION_FAILED')).toMatch(
      /deep/,
    );
    expect(expectAdminError(await inject('PUT', `${base(shopId)}/t`, { title: '  ', rules: RULES }), 422, 'VALIDATION_FAILED')).toContain(
      '`title`',
    );
    expectAdminError(await inject('PUT', `${base(shopId)}/l`, { title: 'L', limit: 101, rules: RULES }), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('PUT', `${base(shopId)}/Not-Lower`, { title: 'C', rules: RULES }), 422, 'VALIDATION_FAILED');
  });

  it('answers 404 for a shop that does not exist', async () => {
    expectAdminError(await inject('PUT', `${base(UNKNOWN_SHOP)}/x`, { title: 'X', rules: RULES }), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', base(UNKNOWN_SHOP)), 404, 'NOT_FOUND');
  });

  it('gives one block to 20 concurrent first PUTs of one code, each answered with its id', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inject('PUT', `${base(shopId)}/raced`, { title: `Title ${i}`, rules: [{ recommender: 'popular' }] }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const ids = new Set(answers.map((a) => a.json<Body>().id));
    expect(ids.size).toBe(1);
    expect((await inject('GET', base(shopId))).json<{ blocks: Body[] }>().blocks).toHaveLength(1);
  });
});
