import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';
const DAY_MS = 86_400_000;
// 22:30 UTC is 01:30 the next day in Moscow: the review counts on 2026-12-08.
const START = Date.UTC(2026, 11, 7, 22, 30);

type Body = Record<string, unknown>;

describe('admin NPS routes', () => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(START);
    ({ shopId } = await createShopFixture(t.app.services, { timezone: 'Europe/Moscow' }));
  });
  afterAll(async () => t?.close());

  const inject = (method: 'GET' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/admin/v1/shops/${shopId}/nps${path}`,
      headers: t.adminHeaders,
      ...(payload === undefined ? {} : { payload: payload as Body }),
    });
  const review = (email: string, channel: string, category: string, rate: number, extra: { orderId?: string; comment?: string } = {}) =>
    t.app.services.npsReviews.createReview(
      { shopId, timezone: 'Europe/Moscow' },
      { identifiers: { email } },
      { channel, category, rate, ...extra },
    );

  it('creates, renames, lists and deletes channels, keeping the first creation time', async () => {
    const created = await inject('PUT', '/channels/android_app', { name: 'Android app' });
    expect(created.statusCode, created.body).toBe(200);
    t.clock.advance(1000);
    const renamed = await inject('PUT', '/channels/android_app', { name: '  Android  ' });
    expect(renamed.json()).toEqual({
      code: 'android_app',
      name: 'Android',
      created_at: new Date(START).toISOString(),
      updated_at: new Date(START + 1000).toISOString(),
    });
    await inject('PUT', '/channels/email', { name: 'Email' });
    await inject('PUT', '/channels/gone', { name: 'Gone' });
    expect((await inject('DELETE', '/channels/gone')).statusCode).toBe(204);
    expectAdminError(await inject('DELETE', '/channels/gone'), 404, 'NOT_FOUND');
    const list = (await inject('GET', '/channels')).json<{ channels: Body[] }>();
    expect(list.channels.map((c) => c.code)).toEqual(['android_app', 'email']);
  });

  it('refuses a malformed code, a blank name and an unknown shop', async () => {
    expectAdminError(await inject('PUT', '/channels/bad%20code', { name: 'x' }), 422, 'VALIDATION_FAILED');
    expect(expectAdminError(await inject('PUT', '/channels/web', { name: '   ' }), 422, 'VALIDATION_FAILED')).toContain('`name`');
    const unknown = await t.app.inject({ method: 'GET', url: `/admin/v1/shops/${UNKNOWN_SHOP}/nps/channels`, headers: t.adminHeaders });
    expectAdminError(unknown, 404, 'NOT_FOUND');
  });

  it('replaces a category whole, a blank or missing text stored as none', async () => {
    await inject('PUT', '/categories/delivery', {
      name: 'Delivery',
      detractor_question: 'What went wrong?',
      promoter_success: 'Thank you!',
    });
    const replaced = await inject('PUT', '/categories/delivery', {
      name: 'Delivery',
      detractor_question: '  ',
      passive_question: 'What was missing?',
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      code: 'delivery',
      name: 'Delivery',
      detractor_question: null,
      passive_question: 'What was missing?',
      promoter_question: null,
      promoter_success: null,
    });
    await inject('PUT', '/categories/checkout', { name: 'Checkout' });
    expect((await inject('GET', '/categories')).json<{ categories: Body[] }>().categories.map((c) => c.code)).toEqual([
      'checkout',
      'delivery',
    ]);
  });

  describe('reviews', () => {
    const DAY1 = '2026-12-08';
    const DAY2 = '2026-12-09';
    beforeAll(async () => {
      // Day 1: 10, 9, 8, 3 → 2 promoters, 1 passive, 1 detractor: NPS 25.
      await review('a@example.com', 'android_app', 'delivery', 10, { orderId: 'O-1', comment: '=SUM(A1)' });
      await review('b@example.com', 'android_app', 'delivery', 9);
      await review('c@example.com', 'email', 'checkout', 8);
      await review('d@example.com', 'email', 'delivery', 3, { comment: 'Late, again' });
      // Day 2: 0 and 6 → NPS −100.
      t.clock.set(START + DAY_MS);
      await review('a@example.com', 'android_app', 'checkout', 0);
      await review('b@example.com', 'email', 'checkout', 6);
    });

    const list = async (query: string) => {
      const response = await inject('GET', `/reviews?date_from=${DAY1}&date_to=${DAY2}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ reviews: Body[]; next_cursor: string | null }>();
    };

    it('lists reviews newest first with the contract’s fields, filtered by channel, category and rate', async () => {
      const all = await list('');
      expect(all.reviews.map((r) => r.rate)).toEqual([6, 0, 3, 8, 9, 10]);
      expect(all.reviews[5]).toMatchObject({
        channel: 'android_app',
        category: 'delivery',
        rate: 10,
        comment: '=SUM(A1)',
        order_id: 'O-1',
        order_found: false,
      });
      expect(Object.keys(all.reviews[0] as Body).sort()).toEqual(
        ['category', 'channel', 'comment', 'created_at', 'id', 'order_found', 'order_id', 'profile_id', 'rate', 'updated_at'].sort(),
      );
      expect((await list('&channel=email')).reviews.map((r) => r.rate)).toEqual([6, 3, 8]);
      expect((await list('&category=delivery&rate_min=4')).reviews.map((r) => r.rate)).toEqual([9, 10]);
      expect((await list('&rate_max=6')).reviews.map((r) => r.rate)).toEqual([6, 0, 3]);
      expect((await inject('GET', `/reviews?date_from=${DAY2}&date_to=${DAY2}`)).json<{ reviews: Body[] }>().reviews).toHaveLength(2);
    });

    it('pages by next_cursor, each review once', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page = await list(`&limit=4${cursor === '' ? '' : `&cursor=${cursor}`}`);
        seen.push(...page.reviews.map((r) => r.id));
        cursor = page.next_cursor;
      }
      expect(seen).toHaveLength(6);
      expect(new Set(seen).size).toBe(6);
      expectAdminError(await inject('GET', `/reviews?date_from=${DAY1}&date_to=${DAY2}&cursor=nope`), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('GET', `/reviews?date_from=${DAY2}&date_to=${DAY1}`), 422, 'VALIDATION_FAILED');
      expectAdminError(await inject('GET', `/reviews?date_from=${DAY1}&date_to=${DAY2}&rate_min=11`), 422, 'VALIDATION_FAILED');
    });

    it('exports the filtered reviews as CSV, a formula-like comment defused', async () => {
      const response = await inject('GET', `/reviews.csv?date_from=${DAY1}&date_to=${DAY1}&channel=android_app`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="nps-reviews-${DAY1}-${DAY1}.csv"`);
      const lines = response.body.split('\r\n');
      expect(lines[0]).toBe('id,created_at,updated_at,channel,category,rate,comment,order_id,order_found,profile_id');
      expect(lines).toHaveLength(4);
      expect(lines[2]).toMatch(
        /^\d+,2026-12-07T22:30:01\.000Z,2026-12-07T22:30:01\.000Z,android_app,delivery,10,'=SUM\(A1\),O-1,false,\d+$/,
      );
    });

    it('answers the score per day with its counts, totals and the period per channel and category', async () => {
      const response = await inject('GET', `/score?date_from=${DAY1}&date_to=2026-12-10`);
      expect(response.statusCode, response.body).toBe(200);
      const score = response.json<Body>();
      expect(score.points).toEqual([
        { date: DAY1, answered: 4, promoters: 2, passives: 1, detractors: 1, nps: 25 },
        { date: DAY2, answered: 2, promoters: 0, passives: 0, detractors: 2, nps: -100 },
        { date: '2026-12-10', answered: 0, promoters: 0, passives: 0, detractors: 0, nps: null },
      ]);
      expect(score).toMatchObject({
        timezone: 'Europe/Moscow',
        interval: 'day',
        totals: { answered: 6, promoters: 2, passives: 1, detractors: 3, nps: -17 },
        channels: [
          { channel: 'android_app', answered: 3, nps: 33 },
          { channel: 'email', answered: 3, nps: -67 },
        ],
        categories: [
          { category: 'checkout', answered: 3, nps: -67 },
          { category: 'delivery', answered: 3, nps: 33 },
        ],
      });
      const csv = await inject('GET', `/score.csv?date_from=${DAY1}&date_to=2026-12-10`);
      expect(csv.headers['content-disposition']).toBe(`attachment; filename="nps-score-${DAY1}-2026-12-10.csv"`);
      expect(csv.body).toBe(
        'date,answered,promoters,passives,detractors,nps\r\n2026-12-08,4,2,1,1,25\r\n2026-12-09,2,0,0,2,-100\r\n' +
          '2026-12-10,0,0,0,0,\r\ntotal,6,2,1,3,-17\r\n',
      );
      const weekly = (await inject('GET', `/score?date_from=2026-12-06&date_to=${DAY2}&interval=week&category=delivery`)).json<Body>();
      // 2026-12-06 is a Sunday: its week is the first point, Monday the 7th starts the next.
      expect(weekly.points).toEqual([
        { date: '2026-12-06', answered: 0, promoters: 0, passives: 0, detractors: 0, nps: null },
        { date: '2026-12-07', answered: 3, promoters: 2, passives: 0, detractors: 1, nps: 33 },
      ]);
    });

    it('deletes a review, which leaves the list and the score', async () => {
      const newest = String((await list('')).reviews[0]?.id);
      expect((await inject('DELETE', `/reviews/${newest}`)).statusCode).toBe(204);
      expectAdminError(await inject('DELETE', `/reviews/${newest}`), 404, 'NOT_FOUND');
      expect((await list('')).reviews).toHaveLength(5);
    });
  });
});
