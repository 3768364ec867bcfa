import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';

/**
 * A chain's `segment_entry` trigger names a segment of the shop, or the chain is refused
 * as a bulk mailing to that segment is: 422 `Segment N does not exist.` (a chain on a
 * segment the shop lacks would never start). Both databases: the check reads the table.
 */
describe.each(TEST_DIALECTS)('a chain on entry to a segment, through the admin API, on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let own: number;
  let foreign: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
    const other = await createShopFixture(t.app.services);
    own = (await t.app.services.segments.createSegment(shopId, { name: 'VIP' })).id;
    // Segment ids count per shop: the other shop's third is an id this shop lacks.
    for (const name of ['A', 'B']) await t.app.services.segments.createSegment(other.shopId, { name });
    foreign = (await t.app.services.segments.createSegment(other.shopId, { name: 'Theirs' })).id;
    expect(foreign).not.toBe(own);
  });
  afterAll(async () => {
    await t.close();
  });

  const admin = (method: 'GET' | 'PUT' | 'POST', path: string, payload?: object) =>
    t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });
  const chain = (segmentId: number) => ({
    status: 'active',
    trigger: { segment_entry: { segment_id: segmentId } },
    reentry: 'once',
    steps: [{ send: { email: { subject: 'Welcome to VIP', html: '<p>Hi</p>' } } }],
  });
  const mailing = (segmentId: number) => ({ name: 'x', segment_ids: [segmentId], email: { subject: 's', html: '<p>x</p>' } });

  it.each([
    ['a segment id no shop has', () => 987_654],
    ["another shop's segment", () => foreign],
  ])('refuses %s in the same words and status as a bulk mailing, and stores nothing', async (_name, id) => {
    const bulk = await admin('POST', '/mailings/bulk', mailing(id()));
    const refused = await admin('PUT', '/chains/vip-welcome', chain(id()));
    expect(refused.statusCode, refused.body).toBe(422);
    expect(bulk.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: `Segment ${id()} does not exist.` } });
    expect(refused.json()).toEqual(bulk.json());
    expect((await admin('GET', '/chains/vip-welcome')).statusCode).toBe(404);
  });

  it("accepts the shop's own segment", async () => {
    const saved = await admin('PUT', '/chains/vip-welcome', chain(own));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ trigger: { segment_entry: { segment_id: own } }, version: 1 });
  });
});
