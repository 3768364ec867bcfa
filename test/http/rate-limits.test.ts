import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { createShopFixture, type ShopFixture } from '../helpers/factories.js';

/**
 * The abuse limits (http/limits/, docs/limits.md) over real sockets: fetch to the app
 * listening on 127.0.0.1. The app trusts 127.0.0.1 as a proxy, so each test speaks from
 * its own client address through X-Forwarded-For; the limiter's clock is the test's
 * ManualClock, so buckets refill and windows pass only when a test moves it.
 */
const LIMITS = {
  PATRON_RATE_LIMIT: 'on',
  PATRON_RATE_LIMIT_ADDRESS: '8',
  PATRON_RATE_LIMIT_SHOP: '6',
  PATRON_RATE_LIMIT_DEVICES: '3',
  PATRON_RATE_LIMIT_AUTH_FAILURES: '3',
  PATRON_RATE_LIMIT_AUTH_WINDOW_SECONDS: '120',
};

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe.each(TEST_DIALECTS)('rate limits over real sockets on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let shop: ShopFixture;

  beforeAll(async () => {
    // A range and an IPv6 address too, as an operator would list them.
    t = await createTestApp({ dialect, env: { ...LIMITS, PATRON_TRUST_PROXY: '127.0.0.0/8, ::1' } });
    base = await listen(t);
    shop = await createShopFixture(t.app.services);
  });
  afterAll(async () => {
    await t.close();
  });

  const from = (address: string, headers: Record<string, string> = {}) => ({
    headers: { 'x-forwarded-for': address, ...headers },
  });
  const admin = (address: string, token = TEST_ADMIN_TOKEN) =>
    fetch(`${base}/admin/v1/shops`, from(address, { authorization: `Bearer ${token}` }));

  it('answers 429 with Retry-After in the status envelope once an address spends its requests on a public route', async () => {
    const other = await createShopFixture(t.app.services);
    const url = (s: ShopFixture) => `${base}/slider?shop_id=${s.shopId}&slider_code=none`;
    // Two shops, so that the shop limit (6) is not what refuses: the address limit is 8.
    for (let i = 0; i < 8; i += 1) {
      const response = await fetch(url(i % 2 === 0 ? shop : other), from('198.51.100.1'));
      expect(response.status).not.toBe(429);
    }
    const refused = await fetch(url(shop), from('198.51.100.1'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(await refused.json()).toEqual({
      status: 'error',
      payload: { message: 'Too many requests from this address; retry after 1 second.' },
    });
    // Another address is untouched; a second later the bucket has refilled.
    expect((await fetch(url(shop), from('198.51.100.2'))).status).not.toBe(429);
    t.clock.advance(1000);
    expect((await fetch(url(other), from('198.51.100.1'))).status).not.toBe(429);
  });

  it('applies the address limit to the email links, the messaging webhooks and the wallet web service', async () => {
    const calls: [string, () => Promise<Response>][] = [
      ['198.51.100.31', () => fetch(`${base}/m/ABC123/o?s=x`, from('198.51.100.31'))],
      ['198.51.100.32', () => fetch(`${base}/webhooks/messaging/${shop.shopId}/bounce`, { method: 'POST', ...from('198.51.100.32') })],
      ['198.51.100.33', () => fetch(`${base}/wallet/${shop.shopId}/v1/log`, { method: 'POST', ...from('198.51.100.33') })],
    ];
    for (const [address, call] of calls) {
      for (let i = 0; i < 8; i += 1) expect((await call()).status, address).not.toBe(429);
      expect((await call()).status, address).toBe(429);
    }
  });

  it('refuses wrong admin tokens past the limit with 429 in the admin envelope, a right token included, until the window passes', async () => {
    const address = '198.51.100.10';
    for (let i = 0; i < 3; i += 1) expect((await admin(address, 'wrong-token-0123456789')).status).toBe(401);
    const refused = await admin(address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('120');
    expect(await refused.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: 'Too many wrong admin tokens from this address; retry after 120 seconds.' },
    });
    expect((await admin('198.51.100.11')).status).toBe(200);
    t.clock.advance(60_000);
    expect((await admin(address)).headers.get('retry-after')).toBe('60');
    t.clock.advance(60_000);
    expect((await admin(address)).status).toBe(200);
  });

  it('refuses wrong shop secrets past the limit on secret routes only, a right secret included', async () => {
    const address = '198.51.100.20';
    const hidden = (secret: string) => fetch(`${base}/products/not_widgetable?shop_id=${shop.shopId}&shop_secret=${secret}`, from(address));
    for (let i = 0; i < 3; i += 1) expect((await hidden('f'.repeat(32))).status).toBe(401);
    const refused = await hidden(shop.secret);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('120');
    expect(await refused.json()).toEqual({
      status: 'error',
      payload: { message: 'Too many wrong shop secrets from this address; retry after 120 seconds.' },
    });
    // The SDK's routes (shop_id only) from the same address, and the right secret elsewhere, still work.
    expect((await fetch(`${base}/slider?shop_id=${shop.shopId}&slider_code=none`, from(address))).status).not.toBe(429);
    const elsewhere = await fetch(
      `${base}/products/not_widgetable?shop_id=${shop.shopId}&shop_secret=${shop.secret}`,
      from('198.51.100.21'),
    );
    expect(elsewhere.status).toBe(200);
  });

  it('counts wrong secrets given to a route where the secret is optional, and refuses one given there once they are spent', async () => {
    const address = '198.51.100.22';
    const profile = (secret: string) =>
      fetch(`${base}/profile?shop_id=${shop.shopId}&shop_secret=${secret}&email=nobody%40example.com`, from(address));
    for (let i = 0; i < 3; i += 1) expect((await profile('f'.repeat(32))).status).toBe(401);
    const hidden = await fetch(`${base}/products/not_widgetable?shop_id=${shop.shopId}&shop_secret=${shop.secret}`, from(address));
    expect(hidden.status).toBe(429);
    expect(await hidden.json()).toMatchObject({ payload: { message: expect.stringMatching(/^Too many wrong shop secrets/) } });
    const right = await profile(shop.secret);
    expect(right.status).toBe(429);
    expect(await right.json()).toMatchObject({ payload: { message: expect.stringMatching(/^Too many wrong shop secrets/) } });
  });

  it('limits the devices /init creates for one address, and never a device that exists', async () => {
    const owner = await createShopFixture(t.app.services);
    const address = '198.51.100.30';
    const init = (query = '') => fetch(`${base}/init?shop_id=${owner.shopId}&v=3${query}`, from(address));
    const dids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await init();
      expect(response.status).toBe(200);
      dids.push(((await response.json()) as { did: string }).did);
    }
    const refused = await init();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(20);
    expect(await refused.json()).toEqual({
      status: 'error',
      payload: { message: 'Too many new devices from this address; retry after 20 seconds.' },
    });
    const known = await init(`&did=${dids[0]}`);
    expect(known.status).toBe(200);
    expect(((await known.json()) as { did: string }).did).toBe(dids[0]);
  });

  it('limits the public requests of one shop across addresses, and not another shop', async () => {
    const busy = await createShopFixture(t.app.services);
    const quiet = await createShopFixture(t.app.services);
    const slider = (s: ShopFixture, i: number) => fetch(`${base}/slider?shop_id=${s.shopId}&slider_code=none`, from(`203.0.113.${i}`));
    for (let i = 0; i < 6; i += 1) expect((await slider(busy, i)).status).not.toBe(429);
    const refused = await slider(busy, 100);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { payload: { message: string } }).payload.message).toBe(
      'Too many requests for this shop; retry after 1 second.',
    );
    expect((await slider(quiet, 101)).status).not.toBe(429);
  });

  it('counts what it refused in /metrics, by limit', async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/^patron_rate_limited_total\{limit="admin_token"\} [1-9]/m);
    expect(text).toMatch(/^patron_rate_limited_total\{limit="shop_secret"\} [1-9]/m);
    expect(text).toMatch(/^patron_rate_limited_total\{limit="devices"\} [1-9]/m);
    expect(text).toMatch(/^patron_rate_limited_total\{limit="address"\} [1-9]/m);
    expect(text).toMatch(/^patron_rate_limited_total\{limit="shop"\} [1-9]/m);
    expect(text).toMatch(/^patron_rate_limit_tracked_keys\{limit="address"\} [1-9]/m);
  });
});

describe('rate limits without a trusted proxy', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
    base = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('keys by the socket address and ignores X-Forwarded-For', async () => {
    const attempt = (i: number) =>
      fetch(`${base}/admin/v1/shops`, {
        headers: { authorization: 'Bearer wrong-token-0123456789', 'x-forwarded-for': `192.0.2.${i}` },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt(i)).status).toBe(401);
    expect((await attempt(3)).status).toBe(429);
  });
});

describe('PATRON_RATE_LIMIT=off', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { ...LIMITS, PATRON_RATE_LIMIT: 'off' } });
    base = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets every request through, wrong credentials and new devices past every limit included', async () => {
    const shop = await createShopFixture(t.app.services);
    for (let i = 0; i < 12; i += 1) {
      const wrong = await fetch(`${base}/admin/v1/shops`, { headers: { authorization: 'Bearer wrong-token-0123456789' } });
      expect(wrong.status).toBe(401);
      expect((await fetch(`${base}/init?shop_id=${shop.shopId}&v=3`)).status).toBe(200);
    }
    expect((await fetch(`${base}/admin/v1/shops`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(200);
  });
});

describe.each(TEST_DIALECTS)('wrong credentials sent all at once on %s', (dialect) => {
  // The count must hold when every attempt is in flight before the first is answered:
  // reading the stored secret takes a trip to the database, and no attempt may slip
  // through the window while another one's trip is under way.
  const CONCURRENT = 120;
  const LIMIT = 5;
  let t: TestApp;
  let base: string;
  let shop: ShopFixture;
  let storedToken: TestApp;
  let storedTokenBase: string;
  const limits = {
    ...LIMITS,
    PATRON_RATE_LIMIT_ADDRESS: '100000',
    PATRON_RATE_LIMIT_SHOP: '100000',
    PATRON_RATE_LIMIT_AUTH_FAILURES: String(LIMIT),
    PATRON_TRUST_PROXY: '127.0.0.1',
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: limits });
    base = await listen(t);
    shop = await createShopFixture(t.app.services);
    // Without PATRON_ADMIN_TOKEN the token's hash is read from the database on each attempt.
    storedToken = await createTestApp({ dialect, env: { ...limits, PATRON_ADMIN_TOKEN: '' } });
    storedTokenBase = await listen(storedToken);
  });
  afterAll(async () => {
    await t.close();
    await storedToken.close();
  });

  const statuses = async (send: () => Promise<Response>): Promise<number[]> =>
    Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const response = await send();
        await response.arrayBuffer();
        return response.status;
      }),
    );

  it(`compares at most ${LIMIT} of ${CONCURRENT} concurrent wrong shop secrets from one address and refuses the rest with 429`, async () => {
    const compare = vi.spyOn(t.app.services.shops, 'verifySecret');
    const answered = await statuses(() =>
      fetch(`${base}/products/not_widgetable?shop_id=${shop.shopId}&shop_secret=${'f'.repeat(32)}`, {
        headers: { 'x-forwarded-for': '198.51.100.70' },
      }),
    );
    expect(compare.mock.calls.length).toBeLessThanOrEqual(LIMIT);
    expect(answered.filter((status) => status === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(answered.filter((status) => status === 429).length).toBeGreaterThanOrEqual(CONCURRENT - LIMIT);
    expect(answered.every((status) => status === 401 || status === 429)).toBe(true);
    compare.mockRestore();
  });

  it(`checks at most ${LIMIT} of ${CONCURRENT} concurrent wrong secrets given where the secret is optional`, async () => {
    const answered = await statuses(() =>
      fetch(`${base}/profile?shop_id=${shop.shopId}&shop_secret=${'f'.repeat(32)}&email=nobody%40example.com`, {
        headers: { 'x-forwarded-for': '198.51.100.71' },
      }),
    );
    expect(answered.filter((status) => status !== 429).length).toBeLessThanOrEqual(LIMIT);
  });

  it(`checks at most ${LIMIT} of ${CONCURRENT} concurrent wrong admin tokens from one address`, async () => {
    const answered = await statuses(() =>
      fetch(`${storedTokenBase}/admin/v1/shops`, {
        headers: { 'x-forwarded-for': '198.51.100.72', authorization: 'Bearer wrong-token-0123456789' },
      }),
    );
    expect(answered.filter((status) => status === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(answered.filter((status) => status === 429).length).toBeGreaterThanOrEqual(CONCURRENT - LIMIT);
  });
});
