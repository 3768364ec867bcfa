import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SliderInput } from '../../src/modules/sliders/sliders.service.js';
import { MAX_REQUEST_TAGS } from '../../src/public-api/sliders/slider.params.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';
import { FORM_TYPE, send, type ContractRequest, type Json, type Vars } from './harness.js';

/**
 * GET /slider (interface.md endpoint 10; contract-notes "Secrets and errors" for the
 * statuses) as data, on both databases. Placeholders: {shop} (slider `main`: a slide
 * tagged men+sale, an untagged one, one tagged women with hostile text), {other_shop}
 * (slider `foreign`), {inactive_shop} (slider `main`), {unknown_shop}.
 */

const MEN = {
  image_url: 'https://cdn.example.org/men.jpg',
  url: 'https://shop.example.org/men',
  deeplink_ios: 'myshop://men',
  deeplink_android: 'intent://men#Intent;scheme=myshop;end',
  content_type: 'promo',
  content: 'Men',
  html: '<a href="https://shop.example.org/men"><img src="https://cdn.example.org/men.jpg" width="800" height="300" alt="Men"></a>',
};
const ALL = {
  image_url: 'https://cdn.example.org/all.jpg',
  url: 'https://shop.example.org/all',
  deeplink_ios: '',
  deeplink_android: '',
  content_type: '',
  content: '',
  html: '<a href="https://shop.example.org/all"><img src="https://cdn.example.org/all.jpg" width="800" height="300" alt=""></a>',
};
const WOMEN = {
  image_url: 'https://cdn.example.org/women.jpg?v="1"',
  url: 'https://shop.example.org/women?a=1&b="2"><script>alert(1)</script>',
  deeplink_ios: '',
  deeplink_android: '',
  content_type: 'text',
  content: `"Женщинам" <b>&</b> 'sale' <script>alert(1)</script>`,
  html:
    '<a href="https://shop.example.org/women?a=1&amp;b=&quot;2&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">' +
    '<img src="https://cdn.example.org/women.jpg?v=&quot;1&quot;" width="800" height="300"' +
    ' alt="&quot;Женщинам&quot; &lt;b&gt;&amp;&lt;/b&gt; &#39;sale&#39; &lt;script&gt;alert(1)&lt;/script&gt;"></a>',
};

const MAIN: SliderInput = {
  width: 800,
  height: 300,
  slides: [
    {
      imageUrl: MEN.image_url,
      url: MEN.url,
      deeplinkIos: MEN.deeplink_ios,
      deeplinkAndroid: MEN.deeplink_android,
      contentType: MEN.content_type,
      content: MEN.content,
      tags: ['men', 'sale'],
    },
    { imageUrl: ALL.image_url, url: ALL.url },
    { imageUrl: WOMEN.image_url, url: WOMEN.url, contentType: WOMEN.content_type, content: WOMEN.content, tags: ['women'] },
  ],
};

type Slide = typeof MEN;
const success = (slides: readonly Slide[], code = 'main'): Json => ({
  status: 'success',
  payload: { properties: { code, width: 800, height: 300 }, slides: [...slides] },
});

interface SliderCase {
  readonly name: string;
  readonly request: ContractRequest;
  readonly status: number;
  /** The exact body for 200; for errors the message of the status envelope. */
  readonly body?: Json;
  readonly message?: string;
}

const get = (query: string): ContractRequest => ({ method: 'GET', url: '/slider', query });
const BY_DID = 'shop_id={shop}&code=main&did=a1B2c3D4e5';

const CASES: readonly SliderCase[] = [
  // identifiers: at least one of did, email, phone, external_id
  { name: 'did → 200 with every slide', request: get(BY_DID), status: 200, body: success([MEN, ALL, WOMEN]) },
  {
    name: 'an email only → 200',
    request: get('shop_id={shop}&code=main&email=Kate@Example.org'),
    status: 200,
    body: success([MEN, ALL, WOMEN]),
  },
  {
    name: 'a phone only → 200',
    request: get('shop_id={shop}&code=main&phone=%2B7%20(901)%20000-00-01'),
    status: 200,
    body: success([MEN, ALL, WOMEN]),
  },
  {
    name: 'an external_id only → 200',
    request: get('shop_id={shop}&code=main&external_id=crm-17'),
    status: 200,
    body: success([MEN, ALL, WOMEN]),
  },
  { name: 'no identifier → 422', request: get('shop_id={shop}&code=main'), status: 422, message: 'Identifier is not valid' },
  {
    name: 'only empty identifiers → 422',
    request: get('shop_id={shop}&code=main&did=&email=&phone=&external_id='),
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'the literal null counts as absent → 422',
    request: get('shop_id={shop}&code=main&did=null'),
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'loyalty_id is not of the group → 422',
    request: get('shop_id={shop}&code=main&loyalty_id=L-1'),
    status: 422,
    message: 'Identifier is not valid',
  },
  {
    name: 'a malformed did → 422',
    request: get('shop_id={shop}&code=main&did=INVALID_ID'),
    status: 422,
    message: 'Device ID is not valid',
  },
  {
    name: 'a malformed email → 422 naming it',
    request: get('shop_id={shop}&code=main&email=kate-at-example'),
    status: 422,
    message: 'Parameter `email` is not valid.',
  },
  {
    name: 'a phone of letters → 422 naming it',
    request: get('shop_id={shop}&code=main&phone=abc'),
    status: 422,
    message: 'Parameter `phone` is not valid.',
  },
  {
    name: 'an external_id of 256 characters → 422',
    request: get(`shop_id={shop}&code=main&external_id=${'x'.repeat(256)}`),
    status: 422,
    message: 'Parameter `external_id` is not valid.',
  },
  {
    name: 'a malformed did beside a valid email → 422',
    request: get('shop_id={shop}&code=main&email=kate@example.org&did=bad'),
    status: 422,
    message: 'Device ID is not valid',
  },
  // code
  { name: 'code absent → 422', request: get('shop_id={shop}&did=a1B2c3D4e5'), status: 422, message: 'Parameter `code` is required.' },
  { name: 'code empty → 422', request: get('shop_id={shop}&code=&did=a1B2c3D4e5'), status: 422, message: 'Parameter `code` is required.' },
  {
    name: 'code malformed → 422',
    request: get('shop_id={shop}&code=main%20banner&did=a1B2c3D4e5'),
    status: 422,
    message: 'Parameter `code` is not valid.',
  },
  {
    name: 'code of 65 characters → 422',
    request: get(`shop_id={shop}&code=${'c'.repeat(65)}&did=a1B2c3D4e5`),
    status: 422,
    message: 'Parameter `code` is not valid.',
  },
  {
    name: 'code as a list → 422',
    request: get('shop_id={shop}&code[]=main&did=a1B2c3D4e5'),
    status: 422,
    message: 'Parameter `code` is not valid.',
  },
  { name: 'an unknown code → 404', request: get('shop_id={shop}&code=nope&did=a1B2c3D4e5'), status: 404, message: 'Invalid slider code' },
  {
    name: 'codes are case-sensitive → 404',
    request: get('shop_id={shop}&code=MAIN&did=a1B2c3D4e5'),
    status: 404,
    message: 'Invalid slider code',
  },
  {
    name: 'another shop’s code → 404',
    request: get('shop_id={shop}&code=foreign&did=a1B2c3D4e5'),
    status: 404,
    message: 'Invalid slider code',
  },
  {
    name: 'the other shop reads its own slider',
    request: get('shop_id={other_shop}&code=foreign&did=a1B2c3D4e5'),
    status: 200,
    body: success([ALL], 'foreign'),
  },
  // credentials
  { name: 'shop_id absent → 401', request: get('code=main&did=a1B2c3D4e5'), status: 401, message: 'Parameter `shop_id` is required.' },
  {
    name: 'shop_id malformed → 422',
    request: get('shop_id=abc&code=main&did=a1B2c3D4e5'),
    status: 422,
    message: 'Parameter `shop_id` must be 30 hexadecimal characters.',
  },
  {
    name: 'shop_id of no shop → 404',
    request: get('shop_id={unknown_shop}&code=main&did=a1B2c3D4e5'),
    status: 404,
    message: 'Shop not found',
  },
  {
    name: 'a shop that is not active → 403',
    request: get('shop_id={inactive_shop}&code=main&did=a1B2c3D4e5'),
    status: 403,
    message: 'Shop is not active.',
  },
  {
    name: 'POST → 405',
    request: { method: 'POST', url: '/slider', body: { shop_id: '{shop}', code: 'main', did: 'a1B2c3D4e5' } },
    status: 405,
    message: 'Method POST is not allowed for this endpoint.',
  },
  // tags
  { name: 'tags=men → the men slide only', request: get(`${BY_DID}&tags=men`), status: 200, body: success([MEN]) },
  {
    name: 'tags=women,sale → both tagged slides, in slider order',
    request: get(`${BY_DID}&tags=women,sale`),
    status: 200,
    body: success([MEN, WOMEN]),
  },
  {
    name: 'tags with spaces around commas are trimmed',
    request: get(`${BY_DID}&tags=%20women%20,%20men`),
    status: 200,
    body: success([MEN, WOMEN]),
  },
  { name: 'tags as a list', request: get(`${BY_DID}&tags[]=women&tags[]=sale`), status: 200, body: success([MEN, WOMEN]) },
  { name: 'a tag no slide has → no slides', request: get(`${BY_DID}&tags=kids`), status: 200, body: success([]) },
  { name: 'tags match exactly', request: get(`${BY_DID}&tags=Men`), status: 200, body: success([]) },
  { name: 'tags empty → every slide', request: get(`${BY_DID}&tags=`), status: 200, body: success([MEN, ALL, WOMEN]) },
  { name: 'tags of commas only → every slide', request: get(`${BY_DID}&tags=,%20,`), status: 200, body: success([MEN, ALL, WOMEN]) },
  {
    name: `more than ${MAX_REQUEST_TAGS} tags → 422`,
    request: get(`${BY_DID}&tags=${Array.from({ length: MAX_REQUEST_TAGS + 1 }, (_, i) => `t${i}`).join(',')}`),
    status: 422,
    message: `Parameter \`tags\` must hold at most ${MAX_REQUEST_TAGS} tags.`,
  },
  {
    name: 'a tag of 65 characters → 422',
    request: get(`${BY_DID}&tags=${'t'.repeat(65)}`),
    status: 422,
    message: 'Parameter `tags` must hold tags of at most 64 characters.',
  },
  {
    name: 'tags as an object → 422',
    request: get(`${BY_DID}&tags[a]=men`),
    status: 422,
    message: 'Parameter `tags` must be a comma-separated list of tags.',
  },
  // wire format
  {
    name: 'an empty form body on GET does not fail',
    request: { ...get(BY_DID), contentType: FORM_TYPE },
    status: 200,
    body: success([MEN, ALL, WOMEN]),
  },
];

describe.each(TEST_DIALECTS)('GET /slider contract on %s', (dialect) => {
  let t: TestApp;
  let vars: Vars;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const { shops, sliders } = t.app.services;
    const shop = await createShopFixture(t.app.services);
    const other = await createShopFixture(t.app.services);
    const inactive = await createShopFixture(t.app.services);
    await sliders.putSlider(shop.shopId, 'main', MAIN);
    await sliders.putSlider(other.shopId, 'foreign', { width: 800, height: 300, slides: [MAIN.slides[1]!] });
    await sliders.putSlider(inactive.shopId, 'main', MAIN);
    await shops.updateShop(inactive.shopId, { active: false });
    vars = { shop: shop.shopId, other_shop: other.shopId, inactive_shop: inactive.shopId, unknown_shop: '0'.repeat(30) };
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(CASES)('$name', async (row) => {
    const response = await send(t, row.request, vars);
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: row.status });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    if (row.status === 200) expect(response.json()).toEqual(row.body);
    else expect(response.json()).toEqual({ status: 'error', payload: { message: row.message } });
  });

  it('records nothing about the visitor: no profile, device, session or event', async () => {
    const counts = async () => {
      const db = t.db.db;
      const count = async (table: 'profiles' | 'devices' | 'sessions' | 'events') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('shop_id', '=', vars.shop!)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return [await count('profiles'), await count('devices'), await count('sessions'), await count('events')];
    };
    const before = await counts();
    for (const query of ['did=Zz9Yy8Xx7W', 'email=new.visitor@example.org', 'phone=89015550000', 'external_id=crm-new']) {
      expect((await send(t, get(`shop_id={shop}&code=main&${query}`), vars)).statusCode).toBe(200);
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 404 once the slider is deleted, and the new slides once it is replaced', async () => {
    const { sliders } = t.app.services;
    const shop = await createShopFixture(t.app.services);
    const request = get(`shop_id=${shop.shopId}&code=temp&did=a1B2c3D4e5`);
    await sliders.putSlider(shop.shopId, 'temp', MAIN);
    expect((await send(t, request, vars)).json()).toEqual(success([MEN, ALL, WOMEN], 'temp'));
    await sliders.putSlider(shop.shopId, 'temp', { width: 800, height: 300, slides: [MAIN.slides[1]!] });
    expect((await send(t, request, vars)).json()).toEqual(success([ALL], 'temp'));
    await sliders.deleteSlider(shop.shopId, 'temp');
    const gone = await send(t, request, vars);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ status: 'error', payload: { message: 'Invalid slider code' } });
  });
});
