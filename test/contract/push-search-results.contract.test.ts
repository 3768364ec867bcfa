import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';

/**
 * The `results` of a `search` event of POST /push (issue 12 part 5): the SDKs' track
 * ('search', {query, results}) sends the offer ids the shop's search showed, comma-joined,
 * in its JSON body. They are stored with the event, bounded like every id list, and the
 * admin events read shows them under `params.results`. Both databases.
 */
describe.each(TEST_DIALECTS)('search event results on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let did: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
    ({ did } = await t.app.services.identity.createDevice(shopId));
  });
  afterAll(async () => {
    await t.close();
  });

  /** The SDK's POST /push: a JSON body with the device and session beside the event. */
  const pushSearch = (extra: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/push',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        shop_id: shopId,
        did,
        seance: 'Z9y8X7w6V5',
        sid: 'Z9y8X7w6V5',
        event: 'search',
        search_query: 'кроссовки',
        ...extra,
      }),
    });
  const lastSearchParams = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shopId}/events?did=${did}&limit=1`,
      headers: t.adminHeaders,
    });
    expect(response.statusCode).toBe(200);
    const [event] = response.json<{ events: Array<{ event: string; params: Record<string, unknown> }> }>().events;
    expect(event!.event).toBe('search');
    return event!.params;
  };

  it('stores the comma-joined results as the SDK sends them and shows them under params', async () => {
    const response = await pushSearch({ results: 'run-1,run-2,bag-1' });
    expect(response.json()).toEqual({ status: 'success' });
    expect(await lastSearchParams()).toMatchObject({ search_query: 'кроссовки', results: ['run-1', 'run-2', 'bag-1'] });
  });

  it('reads results sent as an array, numbers as their text', async () => {
    expect((await pushSearch({ results: ['a-1', 42] })).statusCode).toBe(200);
    expect((await lastSearchParams()).results).toEqual(['a-1', '42']);
  });

  it('leaves results out when the event has none or they are empty', async () => {
    expect((await pushSearch({ results: '' })).statusCode).toBe(200);
    expect(await lastSearchParams()).not.toHaveProperty('results');
  });

  it.each([
    ['an object', { results: { a: 1 } }, 'Parameter `results` must be a comma-separated list of ids.'],
    ['1001 ids', { results: Array.from({ length: 1001 }, (_, i) => `p${i}`).join(',') }, 'Parameter `results` must have at most 1000 ids.'],
    ['an id of 256 characters', { results: 'x'.repeat(256) }, 'Parameter `results` must hold ids of at most 255 characters.'],
  ])('refuses results as %s with 422 naming the field', async (_name, extra, message) => {
    const response = await pushSearch(extra);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ status: 'error', payload: { message } });
  });
});
