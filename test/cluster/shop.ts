import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { admin } from './client.js';

/**
 * The shop the cluster test works on, set up through the admin API as an operator would:
 * a product feed fetched from a local HTTP server (a scheduled fetch), email through a
 * local SMTP peer, a transactional mailing, a chain started by a custom event, the
 * loyalty programme with members holding bonuses, a single-use promo code and one gift
 * certificate, and an empty segment for the audience import and the bulk mailing.
 */

export const PRODUCTS = [
  { id: 'espresso', name: 'Espresso beans', price: 450, category_id: 'coffee' },
  { id: 'mug', name: 'Mug', price: 300, category_id: 'kitchen' },
];

/** The promo code of the checkout race: one use in all. */
export const ONCE_CODE = 'CLUSTER-ONCE';
/** The certificate of the checkout race, in roubles: less than the race's orders ask of it. */
export const GIFT_CODE = 'CLUSTER-GIFT';
export const GIFT_AMOUNT = 2000;
export const MEMBER_BONUSES = 1000;

export interface Shop {
  readonly id: string;
  readonly secret: string;
  readonly segmentId: number;
  readonly phones: readonly string[];
}

/** A local HTTP server answering the feed, counting its fetches. */
export interface FeedServer {
  readonly url: string;
  fetches: number;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const feed = JSON.stringify({
    categories: [
      { id: 'coffee', name: 'Coffee' },
      { id: 'kitchen', name: 'Kitchen' },
    ],
    offers: PRODUCTS.map((p) => ({ ...p, url: `https://cluster.invalid/${p.id}` })),
  });
  const state = { fetches: 0 };
  const server = http.createServer((request, response) => {
    state.fetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(feed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/feed.json`,
    get fetches() {
      return state.fetches;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function setUpShop(baseUrl: string, token: string, smtpPort: number, feedUrl: string, members: number): Promise<Shop> {
  const call = (method: string, url: string, body?: unknown) => admin(baseUrl, token, method, url, body);
  const shop = await call('POST', '/shops', { name: 'Cluster shop', currency: 'RUB', timezone: 'Europe/Moscow' });
  const id = String(shop.shop_id);
  const base = `/shops/${id}`;
  await call('PUT', `${base}/channels/email`, {
    smtp_url: `smtp://127.0.0.1:${smtpPort}`,
    from: 'Cluster shop <shop@cluster.example>',
    rate_per_second: 100_000,
  });
  await call('PUT', `${base}/mailings/transactional/order_placed`, {
    name: 'Order placed',
    email: { subject: 'Order {{ order }}', html: '<p>Order {{ order }}</p>', text: 'Order {{ order }}' },
  });
  await call('POST', `${base}/custom-events`, { code: 'signed_up' });
  await call('PUT', `${base}/chains/welcome`, {
    status: 'active',
    trigger: { event: 'signed_up' },
    reentry: 'always',
    steps: [{ send: { email: { subject: 'Welcome', html: '<p>Welcome</p>' } } }],
  });
  await call('PATCH', `${base}/feed`, { feed_url: feedUrl });
  await call('PUT', `${base}/loyalty`, {
    reward_percent: 5,
    max_bonus_share_percent: 50,
    bonus_value: 1,
    bonus_lifetime_days: 365,
    reward_pending_days: 0,
  });
  const byCode = await call('POST', `${base}/promotions`, {
    name: 'Once',
    status: 'active',
    by_promo_code: true,
    discount: { type: 'percent', value: 10 },
  });
  await call('POST', `${base}/promo-codes`, { code: ONCE_CODE, promotion_id: byCode.id, usage_limit: 1 });
  await call('POST', `${base}/certificates`, { code: GIFT_CODE, amount: GIFT_AMOUNT });
  const phones: string[] = [];
  for (let i = 0; i < members; i += 1) {
    const phone = `7911${String(i).padStart(7, '0')}`;
    await call('POST', `${base}/loyalty/members`, { phone });
    await call('POST', `${base}/loyalty/members/${phone}/bonuses`, { amount: MEMBER_BONUSES });
    phones.push(phone);
  }
  const segment = await call('POST', `${base}/segments`, { name: 'Imported' });
  return { id, secret: String(shop.shop_secret), segmentId: Number(segment.id), phones };
}

/** Waits until the shop serves its feed's products (the scheduled fetch landed). */
export async function waitForCatalog(baseUrl: string, token: string, shopId: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const feed = await admin(baseUrl, token, 'GET', `/shops/${shopId}/feed`);
    if (feed.generation !== null && feed.generation !== undefined && Number(feed.generation) > 0) return;
    if (Date.now() > deadline) throw new Error(`The feed did not land within ${timeoutMs} ms: ${JSON.stringify(feed)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
