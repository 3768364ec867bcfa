import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_CONTENT_LENGTH,
  MAX_CONTENT_TYPE_LENGTH,
  MAX_DIMENSION,
  MAX_LINK_LENGTH,
  MAX_SLIDES,
  MAX_TAG_LENGTH,
  MAX_TAGS_PER_SLIDE,
} from '../../src/modules/sliders/domain/slider.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

const UNKNOWN_SHOP = 'abcdef0123456789abcdef01234567';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

type Body = Record<string, unknown>;

const SLIDE = { image_url: 'https://cdn.example.org/b1.jpg', url: 'https://shop.example.org/sale' };
const SLIDER: Body = { width: 800, height: 300, slides: [SLIDE] };

function withSlide(overrides: Body): Body {
  return { ...SLIDER, slides: [{ ...SLIDE, ...overrides }] };
}

describe.each(TEST_DIALECTS)('admin slider routes on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: Body) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload }) });
  const base = (shopId: string) => `/admin/v1/shops/${shopId}/sliders`;

  it('creates a slider with PUT and answers it as GET does, every slide with its html', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const body = {
      width: 800,
      height: 300,
      slides: [
        {
          ...SLIDE,
          deeplink_ios: 'myshop://sale',
          deeplink_android: 'intent://sale#Intent;scheme=myshop;end',
          content_type: 'promo',
          content: 'Spring sale',
          tags: ['men', 'sale'],
        },
        { image_url: 'https://cdn.example.org/b2.jpg', url: 'https://shop.example.org/new' },
      ],
    };
    const created = await inject('PUT', `${base(shopId)}/main_banner`, body);
    expect(created.statusCode, created.body).toBe(200);
    const expected = {
      code: 'main_banner',
      width: 800,
      height: 300,
      slides: [
        {
          ...body.slides[0],
          html: '<a href="https://shop.example.org/sale"><img src="https://cdn.example.org/b1.jpg" width="800" height="300" alt="Spring sale"></a>',
        },
        {
          image_url: 'https://cdn.example.org/b2.jpg',
          url: 'https://shop.example.org/new',
          deeplink_ios: null,
          deeplink_android: null,
          content_type: null,
          content: null,
          tags: [],
          html: '<a href="https://shop.example.org/new"><img src="https://cdn.example.org/b2.jpg" width="800" height="300" alt=""></a>',
        },
      ],
      created_at: new Date(NOW).toISOString(),
      updated_at: new Date(NOW).toISOString(),
    };
    expect(created.json()).toEqual(expected);

    const read = await inject('GET', `${base(shopId)}/main_banner`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(expected);
  });

  it('replaces the whole slider on a second PUT, keeping its creation time', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `${base(shopId)}/home`;
    const first = { width: 800, height: 300, slides: [SLIDE, { ...SLIDE, url: 'https://shop.example.org/2' }] };
    expect((await inject('PUT', url, first)).statusCode).toBe(200);

    t.clock.advance(60_000);
    const second = { width: 1200, height: 400, slides: [{ ...SLIDE, url: 'https://shop.example.org/3', tags: ['kids'] }] };
    const replaced = await inject('PUT', url, second);
    expect(replaced.statusCode, replaced.body).toBe(200);
    const body = replaced.json<{ width: number; slides: Array<{ url: string; tags: string[]; html: string }> }>();
    expect(body).toMatchObject({
      width: 1200,
      height: 400,
      created_at: new Date(t.clock.now() - 60_000).toISOString(),
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    expect(body.slides.map((s) => [s.url, s.tags])).toEqual([['https://shop.example.org/3', ['kids']]]);
    expect(body.slides[0]!.html).toContain('width="1200" height="400"');
    expect((await inject('GET', url)).json()).toEqual(body);
  });

  it('lists the sliders of the shop by code, without their slides', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expect((await inject('GET', base(shopId))).json()).toEqual({ sliders: [] });
    await inject('PUT', `${base(shopId)}/zeta`, SLIDER);
    await inject('PUT', `${base(shopId)}/alpha`, { width: 320, height: 100, slides: [SLIDE, SLIDE, SLIDE] });
    const at = new Date(t.clock.now()).toISOString();
    const list = await inject('GET', base(shopId));
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      sliders: [
        { code: 'alpha', width: 320, height: 100, slide_count: 3, created_at: at, updated_at: at },
        { code: 'zeta', width: 800, height: 300, slide_count: 1, created_at: at, updated_at: at },
      ],
    });
  });

  it('deletes a slider with 204; it is gone afterwards', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `${base(shopId)}/gone`;
    await inject('PUT', url, SLIDER);
    const deleted = await inject('DELETE', url);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectAdminError(await inject('GET', url), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', url), 404, 'NOT_FOUND');
    expect((await inject('GET', base(shopId))).json()).toEqual({ sliders: [] });
  });

  it('accepts a slider without slides, stores empty optional fields as null and repeated tags once', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const empty = await inject('PUT', `${base(shopId)}/empty`, { width: 1, height: MAX_DIMENSION, slides: [] });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ slides: [] });

    const response = await inject(
      'PUT',
      `${base(shopId)}/forms`,
      withSlide({ deeplink_ios: '', deeplink_android: null, content_type: '', content: '', tags: ['a', 'b', 'a'] }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ slides: unknown[] }>().slides[0]).toMatchObject({
      deeplink_ios: null,
      deeplink_android: null,
      content_type: null,
      content: null,
      tags: ['a', 'b'],
    });
  });

  it('answers 404 NOT_FOUND for a slider the shop does not have', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const message = expectAdminError(await inject('GET', `${base(shopId)}/never_made`), 404, 'NOT_FOUND');
    expect(message).toContain('never_made');
  });

  it('answers 404 NOT_FOUND for an unknown shop on every route', async () => {
    expectAdminError(await inject('PUT', `${base(UNKNOWN_SHOP)}/main`, SLIDER), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', base(UNKNOWN_SHOP)), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', `${base(UNKNOWN_SHOP)}/main`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${base(UNKNOWN_SHOP)}/main`), 404, 'NOT_FOUND');
  });

  it('keeps a slider to its shop: another shop neither sees, reads nor deletes it, and may use the code', async () => {
    const a = await createShopFixture(t.app.services);
    const b = await createShopFixture(t.app.services);
    await inject('PUT', `${base(a.shopId)}/shared_code`, SLIDER);

    expect((await inject('GET', base(b.shopId))).json()).toEqual({ sliders: [] });
    expectAdminError(await inject('GET', `${base(b.shopId)}/shared_code`), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', `${base(b.shopId)}/shared_code`), 404, 'NOT_FOUND');

    const own = await inject('PUT', `${base(b.shopId)}/shared_code`, { ...SLIDER, width: 640 });
    expect(own.statusCode).toBe(200);
    expect((await inject('GET', `${base(a.shopId)}/shared_code`)).json()).toMatchObject({ width: 800 });
    expect((await inject('GET', `${base(b.shopId)}/shared_code`)).json()).toMatchObject({ width: 640 });
  });

  it.each(['PUT', 'GET', 'DELETE'] as const)('answers 401 to %s without the admin token, and stores nothing', async (method) => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `${base(shopId)}/main`;
    const anonymous = await t.app.inject({ method, url, ...(method === 'PUT' ? { payload: SLIDER } : {}) });
    expectAdminError(anonymous, 401, 'UNAUTHORIZED');
    const wrong = await t.app.inject({
      method,
      url,
      headers: { authorization: 'Bearer not-the-admin-token-at-all' },
      ...(method === 'PUT' ? { payload: SLIDER } : {}),
    });
    expectAdminError(wrong, 401, 'UNAUTHORIZED');
    expect(await t.app.services.sliders.listSliders(shopId)).toEqual([]);
  });

  const tooManySlides = { ...SLIDER, slides: Array.from({ length: MAX_SLIDES + 1 }, () => SLIDE) };
  const tooManyTags = withSlide({ tags: Array.from({ length: MAX_TAGS_PER_SLIDE + 1 }, (_, i) => `t${i}`) });
  const longLink = `https://shop.example.org/${'a'.repeat(MAX_LINK_LENGTH)}`;

  it.each([
    ['a code of 65 characters', 'c'.repeat(65), SLIDER, 'Path parameter `code`', /at most 64 characters/],
    ['a code with a space', 'main%20banner', SLIDER, 'Path parameter `code`', /must match the pattern/],
    ['a code with a dot', 'main.banner', SLIDER, 'Path parameter `code`', /must match the pattern/],
    ['width 0', 'main', { ...SLIDER, width: 0 }, 'Field `width`', /at least 1/],
    ['width above the maximum', 'main', { ...SLIDER, width: MAX_DIMENSION + 1 }, 'Field `width`', /at most 10000/],
    ['a fractional height', 'main', { ...SLIDER, height: 300.5 }, 'Field `height`', /an integer/],
    ['a width as a string', 'main', { ...SLIDER, width: '800' }, 'Field `width`', /an integer/],
    ['no height', 'main', { width: 800, slides: [] }, 'Field `height`', /is required/],
    ['no slides', 'main', { width: 800, height: 300 }, 'Field `slides`', /is required/],
    ['slides not an array', 'main', { ...SLIDER, slides: SLIDE }, 'Field `slides`', /an array/],
    [`${MAX_SLIDES + 1} slides`, 'main', tooManySlides, 'Field `slides`', /at most 50 items/],
    ['a slide without url', 'main', { ...SLIDER, slides: [{ image_url: SLIDE.image_url }] }, 'Field `slides[0].url`', /is required/],
    ['a javascript: url', 'main', withSlide({ url: 'javascript:alert(1)' }), 'Field `slides[0].url`', /http or https URL/],
    ['a data: picture', 'main', withSlide({ image_url: 'data:image/png;base64,AAAA' }), 'Field `slides[0].image_url`', /http or https URL/],
    ['a relative url', 'main', withSlide({ url: '/sale' }), 'Field `slides[0].url`', /http or https URL/],
    ['an empty picture link', 'main', withSlide({ image_url: '' }), 'Field `slides[0].image_url`', /not be empty/],
    ['a url over the length limit', 'main', withSlide({ url: longLink }), 'Field `slides[0].url`', /at most 2048 characters/],
    [
      'a javascript deeplink',
      'main',
      withSlide({ deeplink_ios: 'javascript://%0aalert(1)' }),
      'Field `slides[0].deeplink_ios`',
      /app link/,
    ],
    ['a deeplink without a scheme', 'main', withSlide({ deeplink_android: 'product/1' }), 'Field `slides[0].deeplink_android`', /app link/],
    [
      'a long content_type',
      'main',
      withSlide({ content_type: 'x'.repeat(MAX_CONTENT_TYPE_LENGTH + 1) }),
      'Field `slides[0].content_type`',
      /at most 100 characters/,
    ],
    [
      'a long content',
      'main',
      withSlide({ content: 'x'.repeat(MAX_CONTENT_LENGTH + 1) }),
      'Field `slides[0].content`',
      /at most 2000 characters/,
    ],
    [`${MAX_TAGS_PER_SLIDE + 1} tags`, 'main', tooManyTags, 'Field `slides[0].tags`', /at most 20 items/],
    ['a long tag', 'main', withSlide({ tags: ['x'.repeat(MAX_TAG_LENGTH + 1)] }), 'Field `slides[0].tags[0]`', /at most 64 characters/],
    ['an empty tag', 'main', withSlide({ tags: [''] }), 'Field `slides[0].tags[0]`', /not be empty/],
    ['a tag with a comma', 'main', withSlide({ tags: ['ok', 'men,women'] }), 'Field `slides[0].tags[1]`', /without commas/],
    ['a tag with surrounding spaces', 'main', withSlide({ tags: [' men'] }), 'Field `slides[0].tags[0]`', /surrounding spaces/],
    ['tags not an array', 'main', withSlide({ tags: 'men' }), 'Field `slides[0].tags`', /an array/],
    ['an unknown slide field', 'main', withSlide({ html: '<b>x</b>' }), 'Field `slides[0].html`', /is not allowed/],
    ['an unknown slider field', 'main', { ...SLIDER, title: 'x' }, 'Field `title`', /is not allowed/],
  ])('refuses %s with 422 and stores nothing', async (_name, code, payload, subject, wording) => {
    const { shopId } = await createShopFixture(t.app.services);
    const response = await inject('PUT', `${base(shopId)}/${code}`, payload);
    const message = expectAdminError(response, 422, 'VALIDATION_FAILED');
    expect(message).toContain(subject);
    expect(message).toMatch(wording);
    expect(await t.app.services.sliders.listSliders(shopId)).toEqual([]);
  });

  it('refuses a malformed code on GET and DELETE with 422', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    expectAdminError(await inject('GET', `${base(shopId)}/a.b`), 422, 'VALIDATION_FAILED');
    expectAdminError(await inject('DELETE', `${base(shopId)}/a.b`), 422, 'VALIDATION_FAILED');
  });

  it('settles concurrent PUTs of a new code to one whole slider, each answered 200', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `${base(shopId)}/race`;
    const bodies = Array.from({ length: 6 }, (_, i) => ({ ...SLIDER, width: 100 + i, slides: Array.from({ length: i + 1 }, () => SLIDE) }));
    const responses = await Promise.all(bodies.map((body) => inject('PUT', url, body)));
    expect(responses.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));
    const stored = (await inject('GET', url)).json<{ width: number; slides: unknown[] }>();
    // Whichever won, its width and its slides came from the same request.
    expect(stored.slides).toHaveLength(stored.width - 100 + 1);
    expect((await inject('GET', base(shopId))).json<{ sliders: unknown[] }>().sliders).toHaveLength(1);
  });

  it('documents the four routes in the OpenAPI document with the admin token and their errors', async () => {
    await t.app.ready();
    const paths = t.app.swagger().paths as Record<string, Record<string, { security?: unknown; responses?: object }>>;
    const one = paths['/admin/v1/shops/{shop_id}/sliders/{code}'];
    const list = paths['/admin/v1/shops/{shop_id}/sliders'];
    expect(Object.keys(one ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(Object.keys(list ?? {})).toEqual(['get']);
    for (const op of [...Object.values(one ?? {}), ...Object.values(list ?? {})]) {
      expect(op.security).toEqual([{ adminToken: [] }]);
      expect(Object.keys(op.responses ?? {})).toEqual(expect.arrayContaining(['401', '404']));
    }
    expect(Object.keys(one?.put?.responses ?? {})).toContain('422');
  });

  it('keeps the previous slider when a replacement is refused', async () => {
    const { shopId } = await createShopFixture(t.app.services);
    const url = `${base(shopId)}/kept`;
    await inject('PUT', url, SLIDER);
    expectAdminError(await inject('PUT', url, withSlide({ url: 'javascript:alert(1)' })), 422, 'VALIDATION_FAILED');
    expect((await inject('GET', url)).json()).toMatchObject({ slides: [{ url: SLIDE.url }] });
  });
});
