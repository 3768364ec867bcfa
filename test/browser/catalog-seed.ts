import { BASE_URL } from './admin-api.js';

/** Seeding for the catalog spec: feeds and sliders through the admin API with the admin token. */
const ADMIN_TOKEN = process.env.PATRON_BROWSER_ADMIN_TOKEN ?? '';

/** The server's feed size limit, as the global setup configured it. */
export const FEED_MAX_BYTES = Number(process.env.PATRON_BROWSER_FEED_MAX_BYTES ?? '0');

export interface Offer {
  readonly id?: string;
  readonly name: string;
  readonly price?: string;
  readonly category?: string;
  readonly picture?: string;
  readonly available?: boolean;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A YML feed: categories as [id, name, parentId?], and offers. */
export function ymlFeed(categories: readonly (readonly [string, string, string?])[], offers: readonly Offer[]): string {
  const cats = categories
    .map(([id, name, parent]) => `<category id="${id}"${parent ? ` parentId="${parent}"` : ''}>${escapeXml(name)}</category>`)
    .join('');
  const items = offers
    .map((o) => {
      const attrs = `${o.id === undefined ? '' : ` id="${escapeXml(o.id)}"`} available="${o.available === false ? 'false' : 'true'}"`;
      const parts = [
        `<url>https://shop.example/p/${encodeURIComponent(o.id ?? 'none')}</url>`,
        o.price === undefined ? '' : `<price>${o.price}</price>`,
        '<currencyId>RUB</currencyId>',
        o.category === undefined ? '' : `<categoryId>${o.category}</categoryId>`,
        o.picture === undefined ? '' : `<picture>${escapeXml(o.picture)}</picture>`,
        `<name>${escapeXml(o.name)}</name>`,
      ];
      return `<offer${attrs}>${parts.join('')}</offer>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><yml_catalog date="2026-01-01 00:00"><shop><name>Test</name><categories>${cats}</categories><offers>${items}</offers></shop></yml_catalog>`;
}

export async function putSlider(shopId: string, code: string, body: unknown): Promise<void> {
  const res = await fetch(`${BASE_URL}/admin/v1/shops/${shopId}/sliders/${code}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`PUT slider answered ${res.status}: ${await res.text()}`);
}

/** Replaces the shop's catalog with a YML feed (PUT …/feed answers once the new catalog is served). */
export async function putFeed(shopId: string, yml: string): Promise<void> {
  const res = await fetch(`${BASE_URL}/admin/v1/shops/${shopId}/feed`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/xml' },
    body: yml,
  });
  if (res.status !== 200) throw new Error(`PUT feed answered ${res.status}: ${await res.text()}`);
}
