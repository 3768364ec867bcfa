import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { expectAdminError } from './admin-assertions.js';

type Body = Record<string, unknown>;
type SetBody = { id: number; stories: { id: number; name: string; slides: { id: number }[] }[] };

const slide = (n: number, extra: Body = {}) => ({ background: `https://img.shop.example/${n}.jpg`, ...extra });
const story = (name: string, slides: Body[], extra: Body = {}) => ({ name, avatar: 'https://img.shop.example/a.jpg', slides, ...extra });

describe('admin story set routes', () => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ shopId } = await createShopFixture(t.app.services));
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: t.adminHeaders, ...(payload === undefined ? {} : { payload: payload as Body }) });
  const url = (code = '') => `/admin/v1/shops/${shopId}/stories${code ? `/${code}` : ''}`;
  const put = async (code: string, body: Body) => {
    const response = await inject('PUT', url(code), body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SetBody>();
  };

  it('gives every story and slide an integer id; GET answers what PUT did; the list counts its stories', async () => {
    const created = await put('home', { name: 'Home', stories: [story('A', [slide(1), slide(2)]), story('B', [slide(3)])] });
    const storyIds = created.stories.map((s) => s.id);
    const slideIds = created.stories.flatMap((s) => s.slides.map((sl) => sl.id));
    expect([...storyIds, ...slideIds].every(Number.isInteger)).toBe(true);
    expect(new Set(storyIds).size).toBe(2);
    expect(new Set(slideIds).size).toBe(3);
    expect((await inject('GET', url('home'))).json()).toEqual(created);
    expect((await inject('GET', url())).json()).toEqual({
      story_sets: [{ id: created.id, code: 'home', name: 'Home', stories: 2, updated_at: expect.any(String) }],
    });
  });

  it('keeps ids across a re-PUT: at their place without ids, wherever they go with them; views survive the edit', async () => {
    const first = await put('keep', { stories: [story('A', [slide(1), slide(2)]), story('B', [slide(3)])] });
    const [a, b] = first.stories as [SetBody['stories'][0], SetBody['stories'][0]];
    const device = await t.app.services.identity.createDevice(shopId);
    await t.app.services.stories.track(shopId, { event: 'view', code: 'keep', storyId: b.id, slideId: b.slides[0]!.id, did: device.did });
    // The same body again: every id stays at its place.
    expect(await put('keep', { stories: [story('A', [slide(1), slide(2)]), story('B', [slide(3)])] })).toMatchObject({
      stories: [
        { id: a.id, slides: [{ id: a.slides[0]!.id }, { id: a.slides[1]!.id }] },
        { id: b.id, slides: [{ id: b.slides[0]!.id }] },
      ],
    });
    // B moves first, passing its ids; A's second slide is replaced by one without an id; a new story C.
    const edited = await put('keep', {
      stories: [
        story('B', [slide(3, { id: b.slides[0]!.id })], { id: b.id }),
        story('A', [slide(1, { id: a.slides[0]!.id }), slide(9)], { id: a.id }),
        story('C', [slide(4)]),
      ],
    });
    expect(edited.stories.map((s) => s.id).slice(0, 2)).toEqual([b.id, a.id]);
    expect(edited.stories[1]!.slides[0]!.id).toBe(a.slides[0]!.id);
    expect([b.id, a.id]).not.toContain(edited.stories[2]!.id);
    // A slide without an id keeps the id at its place when no one passed it (A's second slide's).
    expect(edited.stories[1]!.slides[1]!.id).toBe(a.slides[1]!.id);
    expect([...a.slides, ...b.slides].map((sl) => sl.id)).not.toContain(edited.stories[2]!.slides[0]!.id);
    const figures = (await inject('GET', `${url('keep')}/figures`)).json<{ stories: { id: number; views: number }[] }>();
    expect(figures.stories.find((s) => s.id === b.id)?.views).toBe(1);
  });

  it.each([
    ['a javascript: link', { type: 'button', title: 'Go', link: 'javascript:alert(1)' }, 'link'],
    ['a javascript:// link in capitals', { type: 'button', title: 'Go', link_ios: 'JavaScript://%0aalert(1)' }, 'link_ios'],
    ['a data: link', { type: 'header', title: 'Hi', link: 'data:text/html,<b>x</b>' }, 'link'],
    ['a header icon that is not http(s)', { type: 'header', title: 'Hi', icon: 'myapp://icon.png' }, 'icon'],
    ['a products element without products', { type: 'products' }, 'item_ids'],
  ])('refuses %s with 422 naming its path', async (_name, element, field) => {
    const response = await inject('PUT', url('bad'), { stories: [story('A', [slide(1, { elements: [element] })])] });
    const message = expectAdminError(response, 422, 'VALIDATION_FAILED');
    expect(message).toContain(`stories[0].slides[0].elements[0].${field}`);
  });

  it('accepts an app deep link and refuses a picture that is not http(s)', async () => {
    await put('links', { stories: [story('A', [slide(1, { elements: [{ type: 'button', title: 'Open', link: 'myapp://product/7' }] })])] });
    const response = await inject('PUT', url('links'), { stories: [story('A', [slide(1, { background: 'data:image/png;base64,AAAA' })])] });
    expect(expectAdminError(response, 422, 'VALIDATION_FAILED')).toContain('stories[0].slides[0].background');
  });

  it('deletes a set with its figures; then GET is 404', async () => {
    await put('gone', { stories: [story('A', [slide(1)])] });
    expect((await inject('DELETE', url('gone'))).statusCode).toBe(204);
    expectAdminError(await inject('GET', url('gone')), 404, 'NOT_FOUND');
    expectAdminError(await inject('DELETE', url('gone')), 404, 'NOT_FOUND');
  });
});
