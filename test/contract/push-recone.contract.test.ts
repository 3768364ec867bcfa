import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { reconeRequest, type SdkState } from './rn-sdk-requests.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * recone_view and recone_click on POST /push (contract-notes "Beyond interface.md"), as
 * the React Native SDK's track() sends them (rn-sdk-requests.ts reconeRequest): stored as
 * events with `campaign`, `inventory` and `position`, no items, and counted for the block
 * the campaign names; the same fields as a form or in the query string; bad input 422
 * naming the field, storing nothing. Both databases.
 */
describe.each(TEST_DIALECTS)('recone events on POST /push on %s', (dialect) => {
  let t: TestApp;
  let state: SdkState;
  let blockId: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const { shopId } = await createShopFixture(t.app.services, { timezone: 'UTC' });
    state = { shopId, ...(await initDevice(t, shopId)) };
    const block = await t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/recommendation-blocks/home`,
      headers: t.adminHeaders,
      payload: { title: 'For you', rules: [{ recommender: 'popular' }] },
    });
    blockId = block.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t.close();
  });

  const lastEvent = async () => {
    const [event] = await t.app.services.tracking.listEvents(state.shopId, state.did, 1);
    return event!;
  };
  const eventCount = async () => (await t.app.services.tracking.listEvents(state.shopId, state.did, 1000)).length;
  const impressionsAndClicks = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${state.shopId}/recommendation-blocks/home/stats?date_from=2026-01-15&date_to=2026-01-15`,
      headers: t.adminHeaders,
    });
    const { impressions, clicks } = response.json<{ totals: { impressions: number; clicks: number } }>().totals;
    return { impressions, clicks };
  };

  it('stores the SDK’s recone_view of a block by its id, with what was shown and where, and counts an impression', async () => {
    const response = await t.app.inject(
      reconeRequest(state, 'recone_view', { id: blockId, inventory: ['sku-1', 'sku-2', 77], position: 0 }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'success' });
    const event = await lastEvent();
    expect(event).toMatchObject({ event: 'recone_view', custom: false, items: [] });
    expect(event.params).toEqual({ campaign: String(blockId), inventory: ['sku-1', 'sku-2', '77'], position: 0 });
    expect(await impressionsAndClicks()).toEqual({ impressions: 1, clicks: 0 });
  });

  it('stores the SDK’s recone_click with recommended_by and a comma-joined inventory, and counts a click', async () => {
    const response = await t.app.inject(
      reconeRequest(state, 'recone_click', { id: 'home', inventory: 'sku-2', position: '3', recommended_by: 'dynamic' }),
    );
    expect(response.json()).toEqual({ status: 'success' });
    expect((await lastEvent()).params).toMatchObject({ recommended_by: 'dynamic', campaign: 'home', inventory: ['sku-2'], position: 3 });
    expect(await impressionsAndClicks()).toEqual({ impressions: 1, clicks: 1 });
  });

  it('takes an event whose app gave only an inventory (the SDK leaves campaign and position out), counting for no block', async () => {
    const response = await t.app.inject(reconeRequest(state, 'recone_view', { inventory: 'banner-5' }));
    expect(response.json()).toEqual({ status: 'success' });
    expect((await lastEvent()).params).toEqual({ inventory: ['banner-5'] });
    expect(await impressionsAndClicks()).toEqual({ impressions: 1, clicks: 1 });
  });

  it('reads the same fields from a form and from the query string, and ignores items', async () => {
    const form = await t.app.inject({
      method: 'POST',
      url: '/push',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `shop_id=${state.shopId}&did=${state.did}&event=recone_view&campaign=${blockId}&inventory[]=a&inventory[]=b&position=2&items[0][id]=x`,
    });
    expect(form.json(), form.body).toEqual({ status: 'success' });
    expect(await lastEvent()).toMatchObject({ items: [], params: { campaign: String(blockId), inventory: ['a', 'b'], position: 2 } });
    const query = await t.app.inject({
      method: 'POST',
      url: `/push?shop_id=${state.shopId}&did=${state.did}&event=recone_click&campaign=home&inventory=a,b`,
    });
    expect(query.json(), query.body).toEqual({ status: 'success' });
    expect(await impressionsAndClicks()).toEqual({ impressions: 2, clicks: 2 });
  });

  it.each([
    ['neither campaign nor inventory', { position: 1 }, 'Parameter `campaign` is required.'],
    ['campaign as an object', { id: { code: 'home' }, inventory: 'a' }, 'Parameter `campaign` must be a non-empty string or a number.'],
    ['campaign of 256 characters', { id: 'c'.repeat(256) }, 'Parameter `campaign` must be at most 255 characters.'],
    [
      'inventory of 1001 ids',
      { id: 1, inventory: Array.from({ length: 1001 }, (_, i) => `p${i}`) },
      'Parameter `inventory` must have at most 1000 ids.',
    ],
    ['inventory as an object', { id: 1, inventory: { a: 1 } }, 'Parameter `inventory` must be a comma-separated list of ids.'],
    ['a negative position', { id: 1, position: -1 }, 'Parameter `position` must be a whole number from 0 to 10000.'],
    ['a fractional position', { id: 1, position: 1.5 }, 'Parameter `position` must be a whole number from 0 to 10000.'],
    ['a position past 10000', { id: 1, position: 10_001 }, 'Parameter `position` must be a whole number from 0 to 10000.'],
    [
      'recommended_by not allowed',
      { id: 1, recommended_by: 'banner' },
      expect.stringMatching(/^Parameter `recommended_by` must be one of /),
    ],
  ])('refuses %s with 422 naming the field and stores nothing', async (_name, data, message) => {
    const before = await eventCount();
    const response = await t.app.inject(reconeRequest(state, 'recone_view', data));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ status: 'error', payload: { message } });
    expect(await eventCount()).toBe(before);
  });
});
