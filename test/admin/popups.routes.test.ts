import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createShopFixture } from '../helpers/factories.js';
import { ACTIVE_POPUPS_TTL_MS } from '../../src/modules/popups/offers.service.js';
import { insertPopup } from '../../src/modules/popups/popups.repo.js';
import { expectAdminError } from './admin-assertions.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
type Body = Record<string, unknown>;

const FULL = {
  name: 'Spring sale',
  status: 'active',
  position: 'slide_right',
  delay: 5,
  streams: ['ios', 'android'],
  screens: ['home', 'cart'],
  channels: ['mobile_push'],
  html: '<div class="popup-title">Spring</div><img src="https://cdn.example/s.png" srcset="https://cdn.example/s2.png 2x">',
  components: { header: 'Spring', text: '−20%', image_enabled: '0' },
  actions: { system_mobile_push_subscribe: { button_text: 'Notify me' }, close: { button_text: 'No' } },
  web_push_system: false,
  segment_id: null,
  starts_at: '2026-01-01T00:00:00.000Z',
  ends_at: '2026-03-01T00:00:00.000Z',
};

describe('admin popup routes', () => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ shopId } = await createShopFixture(t.app.services));
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: Body, shop = shopId) =>
    t.app.inject({ method, url: `/admin/v1/shops/${shop}/popups${path}`, headers: t.adminHeaders, ...(payload ? { payload } : {}) });

  it('creates a popup (201 with its integer id), and GET and the list answer it with its figures', async () => {
    const created = await inject('POST', '', FULL);
    expect(created.statusCode, created.body).toBe(201);
    const popup = created.json<Body>();
    expect(popup).toEqual({
      id: expect.any(Number),
      ...FULL,
      created_at: new Date(NOW).toISOString(),
      updated_at: new Date(NOW).toISOString(),
      shown: 0,
      clicks: 0,
    });
    expect((await inject('GET', `/${String(popup.id)}`)).json()).toEqual(popup);
    expect((await inject('GET', '')).json<{ popups: Body[] }>().popups).toContainEqual(popup);
  });

  it.each([
    ['a script element', { html: '<p>Hi</p><SCRIPT>alert(1)</SCRIPT>' }, 'html'],
    ['an event handler', { html: '<img src="https://cdn.example/a.png" onerror="alert(1)">' }, 'html'],
    ['an event handler after a slash', { html: '<svg/onload=alert(1)>' }, 'html'],
    ['a javascript: link', { html: '<a href="javascript:alert(1)">x</a>' }, 'html'],
    ['an entity-encoded javascript: link', { html: '<a href="jav&#x61;script&colon;alert(1)">x</a>' }, 'html'],
    ['a data: image', { html: '<img src="data:image/svg+xml;base64,PHN2Zz4=">' }, 'html'],
    ['an iframe', { html: '<iframe src="https://evil.example"></iframe>' }, 'html'],
    ['a CSS url() that is not http(s)', { html: '<div style="background:url(javascript:alert(1))">x</div>' }, 'html'],
    ['a javascript: action link', { actions: { link: { button_text: 'Go', link_ios: 'javascript:alert(1)' } } }, 'actions.link.link_ios'],
    ['a relative action link', { actions: { link: { button_text: 'Go', link_web: '/sale' } } }, 'actions.link.link_web'],
    ['an unknown action', { actions: { vibrate: {} } }, 'actions'],
    ['a component that is not text', { components: { header_enabled: true } }, 'components/header_enabled'],
    ['an image component that is not http(s)', { components: { image: 'data:image/png;base64,AAAA' } }, 'components.image'],
    ['neither html nor components', { html: '', components: {} }, 'html'],
    ['an end before the start', { starts_at: '2026-02-01T00:00:00Z', ends_at: '2026-01-01T00:00:00Z' }, 'ends_at'],
    ['an unknown segment', { segment_id: 424242 }, 'segment_id'],
    ['HTML of more than 64 KiB', { html: `<p>${'x'.repeat(65_536)}</p>` }, 'html'],
  ])('refuses %s with 422 naming the field', async (_name, change, field) => {
    const response = await inject('POST', '', { ...FULL, ...change });
    const message = expectAdminError(response, 422, 'VALIDATION_FAILED');
    expect(message).toContain(field.split(/[./]/)[0]);
  });

  it('keeps app deep links, http(s) links and the HTML exactly as written', async () => {
    const html = '<a href="myshop://catalog/7?x=1">Open</a> <a href="HTTPS://shop.example/a?b=c&amp;d=e">Web</a> <b>{{name}}</b>';
    const created = await inject('POST', '', {
      ...FULL,
      html,
      actions: { link: { link_android: 'myshop://catalog/7', link_web: 'https://shop.example' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Body>().html).toBe(html);
  });

  it('PATCH changes only the fields given; an unknown popup, another shop’s popup or a bad id is 404; DELETE removes it', async () => {
    const { id } = (await inject('POST', '', FULL)).json<{ id: number }>();
    const changed = await inject('PATCH', `/${id}`, { status: 'inactive', screens: [] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ ...FULL, status: 'inactive', screens: [] });
    const other = await createShopFixture(t.app.services);
    expectAdminError(await inject('GET', `/${id}`, undefined, other.shopId), 404, 'NOT_FOUND');
    expectAdminError(await inject('GET', '/0x1'), 404, 'NOT_FOUND');
    expectAdminError(await inject('PATCH', '/999999', { delay: 1 }), 404, 'NOT_FOUND');
    expect((await inject('DELETE', `/${id}`)).statusCode).toBe(204);
    expectAdminError(await inject('GET', `/${id}`), 404, 'NOT_FOUND');
  });

  it('an admin change reaches the next answer at once: a popup made inactive is no longer offered', async () => {
    const { id } = (await inject('POST', '', { name: 'Now', status: 'active', position: 'top', html: '<p>Now</p>' })).json<{
      id: number;
    }>();
    const init = async () =>
      (await t.app.inject({ method: 'GET', url: `/init?shop_id=${shopId}&stream=web` })).json<{ popup?: { id: number } }>();
    t.clock.set(Date.UTC(2026, 1, 1));
    expect((await init()).popup?.id).toBe(id);
    expect((await inject('PATCH', `/${id}`, { status: 'inactive' })).statusCode).toBe(200);
    expect((await init()).popup).toBeUndefined();
  });

  it('keeps each shop’s active popups in memory: a row written behind the admin API’s back is offered only after 1 s', async () => {
    const { shopId: quiet } = await createShopFixture(t.app.services);
    const init = async () => (await t.app.inject({ method: 'GET', url: `/init?shop_id=${quiet}` })).json<{ popup?: { id: number } }>();
    expect((await init()).popup).toBeUndefined(); // the shop's (empty) list is now cached
    const now = t.clock.now();
    await insertPopup(t.db.db, {
      shop_id: quiet,
      id: 1,
      name: 'Direct',
      status: 'active',
      position: 'top',
      delay: 0,
      streams: '[]',
      screens: '[]',
      channels: '[]',
      html: '<p>Direct</p>',
      components: '{}',
      actions: '{}',
      web_push_system: 0,
      segment_id: null,
      starts_at: null,
      ends_at: null,
      created_at: now,
      updated_at: now,
    });
    expect((await init()).popup).toBeUndefined();
    t.clock.advance(ACTIVE_POPUPS_TTL_MS);
    expect((await init()).popup?.id).toBe(1);
  });
});
