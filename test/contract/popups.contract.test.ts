import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import {
  recommendRequest,
  searchRequest,
  segmentsRequest,
  setProfileRequest,
  trackEventRequest,
  trackPushRequest,
  trackRequest,
  type SdkState,
} from './rn-sdk-requests.js';
import { SDK_GET_HEADERS, SDK_USER_AGENT, sdkGetQuery } from './sdk-wire.js';

/**
 * Popups as the SDKs receive and report them (contract-notes "Beyond interface.md";
 * docs/popups.md), on both databases. What each SDK reads of `popup`:
 * - React Native (lib/popup.js, MainSDK.js): `id`, `html` or `components` (text or
 *   object, parsed as JSON), `position`, `delay` (seconds), `popup_actions` (JSON text of
 *   `link`, `close`, `system_mobile_push_subscribe`, each with `button_text`); it reports
 *   `POST /popup/showed` as JSON {shop_id, did, sid, seance, popup: <number>} and keeps
 *   a popup it showed for 60 s itself;
 * - iOS (Popup init(json:)): `id` Int, `channels` [String], `position`, `delay` Int, `html`,
 *   `web_push_system` Bool, `popup_actions` and `components` only as String (JSON text,
 *   every component a string); reports JSON {shop_id, did, sid, popup: <Int>};
 * - Android (PopupDtoMapper, mapToSdkInitResponse): optInt id/delay, optBoolean
 *   web_push_system, and `JSONObject(optString(...))` of `components` and `popup_actions`,
 *   which throws on empty text (so both are always an object's text, `{}` when empty);
 *   reports JSON {shop_id, did, sid, popup: "<id>"}.
 * The SDKs send every tracked call as JSON (rn-sdk-requests.ts); /init is a GET.
 */

const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': SDK_USER_AGENT };
const MINUTE = 60_000;

describe.each(TEST_DIALECTS)('popups as the SDKs see them on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let welcome: number;
  let storyView: { story_id: number; slide_id: number };

  const admin = async (method: 'POST' | 'PATCH', path: string, body: object) => {
    const response = await t.app.inject({ method, url: `/admin/v1/shops/${shopId}/popups${path}`, headers: t.adminHeaders, payload: body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<{ id: number; shown: number; clicks: number }>();
  };
  const init = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/init?${query}`, headers: { ...SDK_GET_HEADERS } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ did: string; sid: string; popup?: Record<string, unknown> }>();
  };
  const send = async (request: InjectOptions) => {
    const response = await t.app.inject(request);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ popup?: Record<string, unknown> }>();
  };
  const newDevice = async (): Promise<SdkState> => {
    const { did, sid } = await init(
      sdkGetQuery([
        ['shop_id', shopId],
        ['stream', null],
      ]),
    );
    return { shopId, did, sid };
  };
  const showed = (state: SdkState, popup: unknown, extra: object = {}): InjectOptions => ({
    method: 'POST',
    url: '/popup/showed',
    headers: JSON_HEADERS,
    payload: JSON.stringify({ shop_id: state.shopId, did: state.did, sid: state.sid, ...extra, popup }),
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    ({ shopId } = await createShopFixture(t.app.services));
    await t.app.services.shops.createCustomEvent(shopId, { code: 'app_opened' });
    await t.app.services.recommendationBlocks.putBlock(shopId, 'home', { title: 'For you', rules: [{ recommender: 'popular' }] });
    const stories = await t.app.inject({
      method: 'PUT',
      url: `/admin/v1/shops/${shopId}/stories/home`,
      headers: t.adminHeaders,
      payload: {
        stories: [
          { name: 'Sale', avatar: 'https://cdn.example/a.png', slides: [{ type: 'image', background: 'https://cdn.example/s.png' }] },
        ],
      },
    });
    expect(stories.statusCode, stories.body).toBe(200);
    const story = stories.json<{ stories: { id: number; slides: { id: number }[] }[] }>().stories[0]!;
    storyView = { story_id: story.id, slide_id: story.slides[0]!.id };
    ({ id: welcome } = await admin('POST', '', {
      name: 'Welcome',
      status: 'active',
      position: 'centered',
      delay: 3,
      html: '<div class="popup-title">Hello</div><p class="popup-1__intro">10% off</p><a href="myshop://sale">Go</a>',
      actions: {
        link: { button_text: 'Shop now', link_ios: 'myshop://sale', link_android: 'myshop://sale', link_web: 'https://shop.example/sale' },
        close: { button_text: 'Later' },
        system_mobile_push_subscribe: { button_text: 'Allow notifications' },
      },
    }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /init carries the popup with every field of the type each SDK demands', async () => {
    const { popup } = await init(
      sdkGetQuery([
        ['shop_id', shopId],
        ['stream', null],
      ]),
    );
    expect(popup).toEqual({
      id: welcome,
      channels: [],
      position: 'centered',
      delay: 3,
      html: '<div class="popup-title">Hello</div><p class="popup-1__intro">10% off</p><a href="myshop://sale">Go</a>',
      web_push_system: false,
      components: '{}',
      popup_actions: expect.any(String),
    });
    expect(JSON.parse(popup!.popup_actions as string)).toEqual({
      link: { button_text: 'Shop now', link_ios: 'myshop://sale', link_android: 'myshop://sale', link_web: 'https://shop.example/sale' },
      close: { button_text: 'Later' },
      system_mobile_push_subscribe: { button_text: 'Allow notifications' },
    });
  });

  it('at most one popup a minute, in whichever answer the device gets next, until it reports the popup shown', async () => {
    const state = await newDevice(); // its /init carried the popup: nothing for a minute
    const view = trackRequest(state, { event: 'category', category_id: '1' });
    expect((await send(view)).popup).toBeUndefined();
    const answers = [
      view,
      trackEventRequest(state, 'app_opened'),
      setProfileRequest(state, { first_name: 'Ann' }),
      trackPushRequest(state, 'clicked', { code: 'nothing', type: 'bulk' }),
      recommendRequest(state, 'home', {}),
      recommendRequest(state, 'home', { extended: true }),
      searchRequest(state, { type: 'full_search', search_query: 'shirt' }),
      {
        method: 'POST',
        url: '/track/stories',
        headers: JSON_HEADERS,
        payload: JSON.stringify({
          shop_id: shopId,
          did: state.did,
          seance: state.sid,
          sid: state.sid,
          code: 'home',
          event: 'view',
          ...storyView,
        }),
      } satisfies InjectOptions,
    ];
    for (const request of answers) {
      t.clock.advance(MINUTE);
      expect((await send(request)).popup, request.url as string).toMatchObject({ id: welcome, components: '{}' });
      expect((await send(request)).popup, request.url as string).toBeUndefined();
    }
  });

  it('React Native, iOS and Android report it shown; 1,000 reports count once and it is never offered again', async () => {
    const state = await newDevice();
    const reports = [
      showed(state, welcome, { seance: state.sid }),
      showed(state, welcome),
      showed(state, String(welcome)),
      ...Array.from({ length: 997 }, () => showed(state, welcome)),
    ];
    for (let i = 0; i < reports.length; i += 100) {
      const answers = await Promise.all(reports.slice(i, i + 100).map((r) => t.app.inject(r)));
      for (const answer of answers) expect(answer.json()).toEqual({ status: 'success' });
    }
    const figures = await admin('PATCH', `/${welcome}`, { delay: 3 });
    expect(figures.shown).toBe(1);
    t.clock.advance(10 * MINUTE);
    expect((await send(trackRequest(state, { event: 'category', category_id: '1' }))).popup).toBeUndefined();
    const unknown = await t.app.inject(showed(state, 999_999));
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({
      status: 404,
      body: { status: 'error', payload: { message: 'Popup not found' } },
    });
    const bad = await t.app.inject(showed(state, 'seven'));
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ status: 'error' });
  });

  it('targets streams, screens (target_screen on /init) and a segment; components ride as JSON text of strings', async () => {
    await admin('PATCH', `/${welcome}`, { status: 'inactive' });
    const segmentId = (await t.app.services.segments.createSegment(shopId, { name: 'VIP' })).id;
    const { id: cart } = await admin('POST', '', {
      name: 'Cart reminder',
      status: 'active',
      position: 'fixed_bottom',
      streams: ['ios', 'android'],
      screens: ['cart'],
      segment_id: segmentId,
      web_push_system: true,
      components: { header: 'Still there?', text: 'Your cart waits', image: 'https://cdn.example/cart.png', header_enabled: '1' },
    });
    const state = await newDevice();
    const iosInit = (screen: string) =>
      `shop_id=${shopId}&did=${state.did}&sid=${state.sid}&seance=${state.sid}&stream=ios&target_screen=${screen}`;
    t.clock.advance(MINUTE);
    expect((await init(iosInit('cart'))).popup).toBeUndefined(); // not in the segment yet
    await send(segmentsRequest(state, 'add', { segment_id: String(segmentId) }));
    expect((await init(iosInit('home'))).popup).toBeUndefined();
    expect((await init(`shop_id=${shopId}&did=${state.did}&stream=web&target_screen=cart`)).popup).toBeUndefined();
    const { popup } = await init(iosInit('cart'));
    expect(popup).toMatchObject({ id: cart, position: 'fixed_bottom', html: '', web_push_system: true, popup_actions: '{}' });
    expect(JSON.parse(popup!.components as string)).toEqual({
      header: 'Still there?',
      text: 'Your cart waits',
      image: 'https://cdn.example/cart.png',
      header_enabled: '1',
    });
    // Android reports the id as text.
    expect(await send(showed(state, String(cart)))).toEqual({ status: 'success' });
  });
});
