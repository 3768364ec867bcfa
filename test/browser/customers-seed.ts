import { BASE_URL } from './admin-api.js';

/**
 * Seeding for the customers spec: the admin API with the admin token, and the public API
 * as an SDK (POST /push/custom, interface.md §1) or a shop's backend (POST /import/audience,
 * §11) calls it.
 */
async function adminCall(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${BASE_URL}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${process.env.PATRON_BROWSER_ADMIN_TOKEN ?? ''}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function expectStatus(call: Promise<{ status: number; body: unknown }>, status: number, what: string): Promise<unknown> {
  const res = await call;
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createEventCode(shopId: string, code: string): Promise<void> {
  await expectStatus(adminCall('POST', `/shops/${shopId}/custom-events`, { code }), 201, 'POST custom-events');
}

export async function createCustomProperty(shopId: string, code: string): Promise<void> {
  await expectStatus(adminCall('POST', `/shops/${shopId}/custom-properties`, { code, type: 'string' }), 201, 'POST custom-properties');
}

export async function createSegment(shopId: string, name: string): Promise<number> {
  const body = (await expectStatus(adminCall('POST', `/shops/${shopId}/segments`, { name }), 201, 'POST segments')) as { id: number };
  return body.id;
}

/**
 * What the JavaScript SDK does for a signed-in visitor: GET /init issues the device and
 * session ids, then POST /push/custom (interface.md §1) sends the event with both and the
 * visitor's email, which ties the device to the customer. Answers the device id.
 */
export async function sdkCustomEvent(shopId: string, fields: { readonly email: string; readonly event: string }): Promise<string> {
  const init = await fetch(`${BASE_URL}/init?${new URLSearchParams({ shop_id: shopId }).toString()}`);
  const ids = (await init.json()) as { did?: string; sid?: string };
  if (!ids.did || !ids.sid) throw new Error(`GET /init answered ${init.status}: ${JSON.stringify(ids)}`);
  const res = await fetch(`${BASE_URL}/push/custom`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shopId, did: ids.did, sid: ids.sid, email: fields.email, event: fields.event }),
  });
  const body = (await res.json()) as { status?: string };
  if (body.status !== 'success') throw new Error(`POST /push/custom answered ${res.status}: ${JSON.stringify(body)}`);
  return ids.did;
}

/** POST /import/audience with the shop secret, then waits until the worker has imported it. */
export async function importAudience(shop: { shop_id: string; shop_secret: string }, audience: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(`${BASE_URL}/import/audience`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shop.shop_id, shop_secret: shop.shop_secret, audience }),
  });
  const body = (await res.json()) as { status?: string };
  if (body.status !== 'success') throw new Error(`POST /import/audience answered ${res.status}: ${JSON.stringify(body)}`);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const log = (await expectStatus(adminCall('GET', `/shops/${shop.shop_id}/imports`), 200, 'GET imports')) as {
      imports: { status: string }[];
    };
    if (log.imports.every((entry) => entry.status === 'done' || entry.status === 'failed')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The audience import did not finish in 10 s');
}
