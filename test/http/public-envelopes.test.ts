import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicApiPlugin } from '../../src/public-api/plugin.js';
import type { TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { createPublicTestApp, expectStatusError, expectSuccessError } from './public-test-app.js';
import { testRoutes } from './test-routes.js';

describe('public envelopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createPublicTestApp([testRoutes]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a status-family success as {"status":"success", …} in JSON UTF-8', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/echo?x=1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ status: 'success', payload: { input: { x: '1' } } });
  });

  it('answers a status-family failure as {"status":"error","payload":{"message"}} with the code’s status', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/fail-status' });
    expectStatusError(response, 404, 'Loyalty program member is not found');
  });

  it('answers a success-family success as {"success":true, …}', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/test/echo-success', payload: { a: 1 } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ success: true, payload: { input: { a: 1 } } });
  });

  it('answers a success-family failure as {"success":false,"payload":{"message"}}', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/fail-success' });
    expectSuccessError(response, 404, 'Loyalty program member is not found');
  });

  it('answers a bare route with the data itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/bare' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('answers a bare route’s failure in the status envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/fail-bare' });
    expectStatusError(response, 404, 'Loyalty program member is not found');
  });

  it('turns an unexpected Error into 500 with a generic message and no stack', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/boom' });
    expectStatusError(response, 500, 'Internal server error.');
    expect(response.body).not.toContain('secret.db');
    expect(response.body).not.toMatch(/stack|\.ts:\d+/);
  });

  it('turns an unexpected Error on a success-family route into its 500 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/boom-success' });
    expectSuccessError(response, 500, 'Internal server error.');
    expect(response.body).not.toContain('Cannot read properties');
  });

  it('refuses to send a success body with a top-level message key (clients read it as failure)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/with-message' });
    expectStatusError(response, 500, 'Internal server error.');
  });

  it('refuses to send a success body in another family than the route declares', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/wrong-family' });
    expectSuccessError(response, 500, 'Internal server error.');
  });

  it('maps a TypeBox body-schema failure to 422 naming the parameter, after the credential check', async () => {
    const url = '/test/schema';
    const noShop = await t.app.inject({ method: 'POST', url, payload: { event: 'nope' } });
    expectStatusError(noShop, 401, 'Parameter `shop_id` is required.');

    const { shopId } = await createShopFixture(t.app.services);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ shop_id: shopId, items: [{ id: '1' }] }, 'Parameter `event` is required.'],
      [{ shop_id: shopId, event: 'cart', items: [] }, 'Parameter `items` must not be empty.'],
      [{ shop_id: shopId, event: 'cart', items: [{ id: 'toolong' }] }, 'Parameter `items[0][id]` must be at most 5 characters.'],
      [{ shop_id: shopId, event: 'cart', items: [{ id: 7 }] }, 'Parameter `items[0][id]` must be a string.'],
      [{ shop_id: shopId, event: 'cart', stream: '', items: [{ id: '1' }] }, 'Parameter `stream` must be a non-empty string.'],
    ];
    for (const [payload, message] of cases) {
      expectStatusError(await t.app.inject({ method: 'POST', url, payload }), 422, message);
    }
    const ok = await t.app.inject({ method: 'POST', url, payload: { shop_id: shopId, event: 'cart', items: [{ id: '1' }] } });
    expect(ok.json()).toEqual({ status: 'success', payload: { items: 1 } });
    // The schema sees the merged input: shop_id from the query string satisfies it.
    const mixed = await t.app.inject({ method: 'POST', url: `${url}?shop_id=${shopId}`, payload: { event: 'wish', items: [{ id: '2' }] } });
    expect(mixed.json()).toEqual({ status: 'success', payload: { items: 1 } });
  });

  it('validates a querystring schema against the merged input, body included', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/test/schema-query?page=x' });
    expectSuccessError(bad, 422, 'Parameter `page` has an invalid format.');
    const missing = await t.app.inject({ method: 'GET', url: '/test/schema-query' });
    expectSuccessError(missing, 422, 'Parameter `page` is required.');
    const ok = await t.app.inject({ method: 'GET', url: '/test/schema-query?page=2' });
    expect(ok.json()).toEqual({ success: true, payload: { page: '2' } });
  });
});

describe('public route registration', () => {
  it('fails at start-up when a public route does not declare its envelope and credentials', async () => {
    const app = Fastify();
    await expect(
      app.register(publicApiPlugin, {
        routes: [
          (scope) => {
            scope.get('/undeclared', () => ({}));
          },
        ],
      }),
    ).rejects.toThrow(/must declare config\.envelope/);
    await app.close();
  });
});
