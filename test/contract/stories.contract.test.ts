import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { importTestFeed, type FeedOfferSpec } from '../helpers/feed-builder.js';
import { trackRequest } from './rn-sdk-requests.js';
import { SDK_GET_HEADERS, SDK_USER_AGENT, sdkGetQuery, sdkParamPairs } from './sdk-wire.js';
import { initDevice } from './tracking-fixtures.js';

/**
 * GET /stories/{code} and POST /track/stories as each platform SDK calls them and reads
 * them (docs/stories.md "What the app sees"), on both databases:
 * - React Native (MainSDK.js getStories, trackStoryView, trackStoryClick): a GET of shop_id
 *   and did through its encoder, then seance and sid; the tracks are JSON with shop_id, did,
 *   seance, sid, segment, story_id and slide_id as numbers, code, event. It reads the raw
 *   JSON and turns `font_size`, `text_line_spacing`, `y_offset` from strings into numbers;
 * - iOS (Stories model, TrackEventServiceImpl): decodes every key of settings, story and
 *   slide with its type (a missing key fails the whole answer), a carousel product's
 *   price_full and oldprice_full as Int, a promo product's as String and its `deeplinkIos`;
 *   tracks with story_id and slide_id as strings;
 * - Android (StoriesManager, models/): reads `stories[]` with optInt/optString, the
 *   element types it knows, the products element's labels at the element's own level; it
 *   tracks story_id as a number and slide_id as a string.
 */

const offer = (id: string, price: number, extra: Partial<FeedOfferSpec> = {}): FeedOfferSpec => ({
  id,
  url: `https://shop.example/p/${id}`,
  price,
  categoryIds: ['1'],
  name: `Product ${id}`,
  pictures: [`https://img.shop.example/${id}.jpg`],
  ...extra,
});

const FEED = {
  categories: [{ id: '1', name: 'Shoes' }],
  offers: [offer('101', 1000, { oldprice: 1250 }), offer('102', 1100), offer('103', 1200, { available: false })],
};

const SET = {
  name: 'Home',
  settings: { close_color: '#ff0000' },
  stories: [
    {
      name: 'Sale',
      avatar: 'https://img.shop.example/a.jpg',
      pinned: true,
      slides: [
        {
          background: 'https://img.shop.example/s1.jpg',
          duration: 7,
          elements: [
            { type: 'button', title: 'Buy', link: 'https://shop.example/sale', deeplink_ios: 'shop://sale' },
            { type: 'text_block', text_input: 'Up to 50%', font_size: 18, y_offset: 40 },
          ],
        },
        {
          type: 'video',
          background: 'https://img.shop.example/s2.mp4',
          preview: 'https://img.shop.example/s2.jpg',
          elements: [
            { type: 'products', item_ids: ['101', '103', '404', '102'] },
            { type: 'product', item_id: '101', promocode: 'SALE10', promocode_discount_percent: 10 },
            { type: 'product', item_id: '103', promocode: 'GONE' },
          ],
        },
      ],
    },
    { name: 'News', avatar: 'https://img.shop.example/b.jpg', slides: [{ background: 'https://img.shop.example/n1.jpg' }] },
  ],
};

type Json = Record<string, unknown>;

/** What the iOS SDK's decoders demand of each key: a missing one or another type fails the whole answer. */
function expectIosDecodes(answer: Json): void {
  const is = (value: unknown, type: 'string' | 'int' | 'bool', where: string) => {
    const ok = type === 'int' ? Number.isInteger(value) : typeof value === (type === 'bool' ? 'boolean' : 'string');
    expect(ok, `${where} must be ${type}: ${JSON.stringify(value)}`).toBe(true);
  };
  is(answer.id, 'int', 'id');
  const settings = answer.settings as Json;
  for (const key of ['color', 'close_color', 'border_viewed', 'background_pin', 'border_not_viewed', 'background_progress', 'pin_symbol']) {
    is(settings[key], 'string', `settings.${key}`);
  }
  is(settings.font_size, 'int', 'settings.font_size');
  is(settings.avatar_size, 'int', 'settings.avatar_size');
  for (const story of answer.stories as Json[]) {
    is(story.id, 'int', 'story.id');
    for (const key of ['avatar', 'name']) is(story[key], 'string', `story.${key}`);
    is(story.viewed, 'bool', 'story.viewed');
    is(story.pinned, 'bool', 'story.pinned');
    is(story.start_position, 'int', 'story.start_position');
    for (const slide of story.slides as Json[]) {
      is(slide.id, 'int', 'slide.id');
      is(slide.duration, 'int', 'slide.duration');
      for (const key of ['background', 'background_color', 'type', 'preview']) is(slide[key], 'string', `slide.${key}`);
      for (const element of slide.elements as Json[]) {
        for (const key of ['font_size', 'text_line_spacing', 'y_offset']) {
          if (element[key] !== undefined) is(element[key], 'string', `element.${key}`);
        }
        for (const product of (element.products as Json[] | undefined) ?? []) {
          for (const key of [
            'name',
            'currency',
            'price_formatted',
            'price_full_formatted',
            'oldprice_formatted',
            'oldprice_full_formatted',
          ]) {
            is(product[key], 'string', `products[].${key}`);
          }
          for (const key of ['picture', 'url', 'deeplink_ios']) is(product[key], 'string', `products[].${key}`);
          for (const key of ['price', 'price_full', 'oldprice_full']) is(product[key], 'int', `products[].${key}`);
          const category = product.category as Json;
          is(category.name, 'string', 'category.name');
          is(category.url, 'string', 'category.url');
        }
        if (element.labels !== undefined) {
          is((element.labels as Json).hide_carousel, 'string', 'labels.hide_carousel');
          is((element.labels as Json).show_carousel, 'string', 'labels.show_carousel');
        }
        const item = element.item as Json | undefined;
        if (item !== undefined) {
          for (const key of ['id', 'name', 'brand', 'price_full', 'price_formatted', 'price_full_formatted', 'image_url', 'picture']) {
            is(item[key], 'string', `item.${key}`);
          }
          for (const key of ['currency', 'url', 'deeplinkIos', 'oldprice_full', 'oldprice_formatted', 'oldprice_full_formatted']) {
            is(item[key], 'string', `item.${key}`);
          }
          for (const key of ['price_with_promocode_formatted', 'promocode']) is(item[key], 'string', `item.${key}`);
          for (const key of ['price', 'oldprice', 'discount_percent']) is(item[key], 'int', `item.${key}`);
        }
      }
    }
  }
}

describe.each(TEST_DIALECTS)('stories as the SDKs call them on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let device: { did: string; sid: string };
  let ids: { set: number; stories: number[]; slides: number[][] };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
    await importTestFeed(t.app.services, shopId, FEED);
    const set = await t.app.services.storySets.putSet(shopId, 'home', SET);
    ids = { set: set.id, stories: set.stories.map((s) => s.id), slides: set.stories.map((s) => s.slides.map((sl) => sl.id)) };
    device = await initDevice(t, shopId);
  });
  afterAll(async () => {
    await t.close();
  });

  const ok = async (request: InjectOptions) => {
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Json>();
  };
  const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': SDK_USER_AGENT };
  const rnGetStories = (): InjectOptions => {
    const pairs = sdkParamPairs({ shop_id: shopId, did: device.did, seance: device.sid, sid: device.sid });
    return { method: 'GET', url: `/stories/home?${sdkGetQuery(pairs)}`, headers: { ...SDK_GET_HEADERS } };
  };
  const rnTrack = (event: 'view' | 'click', storyId: unknown, slideId: unknown): InjectOptions => ({
    method: 'POST',
    url: '/track/stories',
    headers: JSON_HEADERS,
    payload: JSON.stringify({
      shop_id: shopId,
      did: device.did,
      seance: device.sid,
      sid: device.sid,
      segment: 'A',
      story_id: storyId,
      slide_id: slideId,
      code: 'home',
      event,
    }),
  });
  const figures = async () => t.app.services.storySets.figures(shopId, 'home');

  it('React Native: getStories answers the set in order, products from the feed, unavailable ones left out', async () => {
    const answer = await ok(rnGetStories());
    expect(answer.id).toBe(ids.set);
    const [sale, news] = answer.stories as Json[];
    expect(sale).toMatchObject({ id: ids.stories[0], name: 'Sale', viewed: false, start_position: 0, pinned: true });
    expect(news).toMatchObject({ id: ids.stories[1], pinned: false });
    const [first, second] = sale!.slides as Json[];
    expect(first).toMatchObject({ duration: 7, type: 'image', background_color: '#000000', preview: 'https://img.shop.example/s1.jpg' });
    expect((first!.elements as Json[])[1]).toMatchObject({ type: 'text_block', font_size: '18', y_offset: '40', text_line_spacing: '1.5' });
    expect(second).toMatchObject({ type: 'video', duration: 10, preview: 'https://img.shop.example/s2.jpg' });
    const elements = second!.elements as Json[];
    // 103 is not available and 404 is not in the feed: the carousel shows 101 and 102; the promo of 103 is left out.
    expect(elements.map((e) => e.type)).toEqual(['products', 'product']);
    expect((elements[0]!.products as Json[]).map((p) => p.id)).toEqual(['101', '102']);
    expect(elements[1]!.item).toMatchObject({ id: '101', promocode: 'SALE10', price: 1000, price_with_promocode_formatted: '900 ₽' });
    expect((answer.settings as Json).close_color).toBe('#ff0000');
  });

  it('iOS: every key its decoders demand is present with its type', async () => {
    const query = new URLSearchParams({ shop_id: shopId, did: device.did, seance: device.sid, sid: device.sid, stream: 'ios' });
    expectIosDecodes(await ok({ method: 'GET', url: `/stories/home?${query.toString()}` }));
  });

  it('Android: ids it reads with optInt, element types it knows, the carousel labels at the element level', async () => {
    const answer = await ok({ method: 'GET', url: `/stories/home?shop_id=${shopId}&did=${device.did}&stream=android` });
    const stories = answer.stories as Json[];
    expect(stories.every((s) => Number.isInteger(s.id))).toBe(true);
    const elements = stories.flatMap((s) => (s.slides as Json[]).flatMap((sl) => sl.elements as Json[]));
    expect(elements.every((e) => ['button', 'products', 'product', 'text_block', 'header'].includes(e.type as string))).toBe(true);
    expect(elements.find((e) => e.type === 'products')).toMatchObject({ hide_carousel: 'Hide products', show_carousel: 'Show products' });
  });

  it('React Native: trackStoryView with number ids marks the slide viewed once; a repeat counts nothing twice', async () => {
    const [storyId] = ids.stories;
    const [slideA] = ids.slides[0]!;
    expect(await ok(rnTrack('view', storyId, slideA))).toEqual({ status: 'success' });
    expect(await ok(rnTrack('view', storyId, slideA))).toEqual({ status: 'success' });
    const sale = ((await ok(rnGetStories())).stories as Json[])[0]!;
    expect(sale).toMatchObject({ viewed: false, start_position: 1 });
    const story = (await figures()).stories[0]!;
    expect(story.views).toBe(1);
    expect(story.slides[0]).toEqual({ id: slideA, views: 1, clicks: 0 });
  });

  it('iOS: a view with ids as strings; every slide viewed makes the story viewed, starting again at 0', async () => {
    const body = {
      shop_id: shopId,
      did: device.did,
      seance: device.sid,
      sid: device.sid,
      segment: 'A',
      story_id: String(ids.stories[0]),
      slide_id: String(ids.slides[0]![1]),
      code: 'home',
      event: 'view',
    };
    expect(await ok({ method: 'POST', url: '/track/stories', headers: JSON_HEADERS, payload: JSON.stringify(body) })).toEqual({
      status: 'success',
    });
    const sale = ((await ok(rnGetStories())).stories as Json[])[0]!;
    expect(sale).toMatchObject({ viewed: true, start_position: 0 });
  });

  it('Android: a click (story_id a number, slide_id a string) makes the next product view recommended_by stories, once', async () => {
    const body = { event: 'click', story_id: ids.stories[1], slide_id: String(ids.slides[1]![0]), code: 'home' };
    const identity = { shop_id: shopId, did: device.did, seance: device.sid, sid: device.sid, segment: 'B', stream: 'android' };
    expect(
      await ok({ method: 'POST', url: '/track/stories', headers: JSON_HEADERS, payload: JSON.stringify({ ...identity, ...body }) }),
    ).toEqual({ status: 'success' });
    const state = { shopId, ...device };
    await ok(trackRequest(state, { event: 'view', items: [{ id: '101' }] }));
    await ok(trackRequest(state, { event: 'view', items: [{ id: '102' }] }));
    const rows = await t.db.db
      .selectFrom('events')
      .select(['recommended_by', 'recommended_code'])
      .where('shop_id', '=', shopId)
      .where('did', '=', device.did)
      .where('event', '=', 'view')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { recommended_by: 'stories', recommended_code: 'home' },
      { recommended_by: null, recommended_code: null },
    ]);
    expect((await figures()).stories[1]).toMatchObject({ clicks: 1, slides: [{ id: ids.slides[1]![0], views: 0, clicks: 1 }] });
  });

  it('React Native and iOS: trackStoryClick in their forms counts a device’s click once, however often it taps', async () => {
    const [storyId] = ids.stories;
    const slideId = ids.slides[0]![0]!;
    const other = await initDevice(t, shopId);
    expect(await ok(rnTrack('click', storyId, slideId))).toEqual({ status: 'success' });
    const ios = {
      shop_id: shopId,
      did: other.did,
      seance: other.sid,
      sid: other.sid,
      segment: 'B',
      story_id: String(storyId),
      slide_id: String(slideId),
      code: 'home',
      event: 'click',
    };
    for (let i = 0; i < 2; i++) {
      expect(await ok({ method: 'POST', url: '/track/stories', headers: JSON_HEADERS, payload: JSON.stringify(ios) })).toEqual({
        status: 'success',
      });
    }
    expect((await figures()).stories[0]!.slides[0]).toMatchObject({ id: slideId, clicks: 2 });
  });

  it('every SDK: a story or slide not in the set is 422 in the status envelope and counts nothing', async () => {
    const before = await figures();
    for (const [storyId, slideId] of [
      [999_999, ids.slides[0]![0]],
      [ids.stories[1], ids.slides[0]![0]],
    ]) {
      const response = await t.app.inject(rnTrack('view', storyId, slideId));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        status: 'error',
        payload: { message: 'No slide `slide_id` of story `story_id` is in the story set `code`.' },
      });
    }
    const bad = await t.app.inject(rnTrack('view', 'abc', ids.slides[0]![0]));
    expect(bad.statusCode).toBe(422);
    expect(await figures()).toEqual(before);
  });

  it('every SDK: an unknown set is 404 in the status envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/stories/nope?shop_id=${shopId}&did=${device.did}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'error', payload: { message: 'Story set `nope` does not exist.' } });
  });
});
