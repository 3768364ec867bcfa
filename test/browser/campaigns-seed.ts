import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp-peer.js';
import { BASE_URL, call, createShop, type SeededShop } from './admin-api.js';
import { createSegment } from './customers-seed.js';
import { SMTP_CATCHER_HOST } from './global-setup.js';

/**
 * Seeding for the campaigns spec, as a shop would set itself up: an email channel pointed
 * at a real local SMTP server (on 127.0.0.2, the one private address the tests' Patron may
 * reach), a segment of customers loaded by an audience import (POST /import/audience with
 * `segment_id`, docs/audience.md), and an empty segment for the refusal.
 */

const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => call<T>(method, `/admin/v1${path}`, body);

export interface SeededCampaignShop {
  readonly shop: SeededShop;
  readonly smtp: SmtpPeer;
  readonly segment: { readonly id: number; readonly name: string; readonly size: number };
  readonly emptySegment: { readonly id: number; readonly name: string };
}

/** A shop with an email channel to a local SMTP peer and a segment of `size` customers with emails. */
export async function seedCampaignShop(size: number): Promise<SeededCampaignShop> {
  const shop = await createShop(`Campaigns ${Date.now()}`);
  const smtp = await startSmtpPeer({ host: SMTP_CATCHER_HOST });
  const path = `/shops/${shop.shop_id}`;
  await admin('PUT', `${path}/channels/email`, {
    smtp_url: `smtp://${SMTP_CATCHER_HOST}:${smtp.port}`,
    from: 'shop@example.org',
    pool: { max_connections: 5 },
    rate_per_second: 2000,
  });
  const segment = { id: await createSegment(shop.shop_id, 'Newsletter'), name: 'Newsletter', size };
  const emptySegment = { id: await createSegment(shop.shop_id, 'Nobody yet'), name: 'Nobody yet' };
  const audience = Array.from({ length: size }, (_, i) => ({ email: `reader-${i}@example.org`, first_name: `Reader ${i}` }));
  const res = await fetch(`${BASE_URL}/import/audience`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shop.shop_id, shop_secret: shop.shop_secret, audience, segment_id: segment.id }),
  });
  const answer = (await res.json()) as { status?: string };
  if (answer.status !== 'success') throw new Error(`POST /import/audience answered ${res.status}: ${JSON.stringify(answer)}`);
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const found = await admin<{ size: number }>('GET', `${path}/segments/${segment.id}`);
    if (found.size === size) return { shop, smtp, segment, emptySegment };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The segment did not reach ${size} members in 30 s`);
}
