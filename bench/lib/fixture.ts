import { pushBody, type BenchDevice, type PushLoadEvent } from './load.js';

/**
 * What the push load needs on a running server: a shop and its custom event code (admin
 * API) and devices with a session each (GET /init), made over HTTP as a client would.
 */

async function expectJson(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function createShop(baseUrl: string, adminToken: string, name: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/v1/shops`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, currency: 'RUB', timezone: 'Europe/Moscow' }),
  });
  const body = await expectJson(response, 'POST /admin/v1/shops');
  if (typeof body.shop_id !== 'string') throw new Error('POST /admin/v1/shops gave no shop_id');
  return body.shop_id;
}

/** A custom event code of the shop, so that POST /push/custom accepts it. */
export async function createCustomEventCode(baseUrl: string, adminToken: string, shopId: string, code: string): Promise<void> {
  const response = await fetch(`${baseUrl}/admin/v1/shops/${shopId}/custom-events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  await expectJson(response, 'POST /admin/v1/shops/{shop_id}/custom-events');
}

/** `count` new devices with their sessions, `concurrency` requests at a time. */
export async function createDevices(baseUrl: string, shopId: string, count: number, concurrency = 8): Promise<BenchDevice[]> {
  const devices: BenchDevice[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      const response = await fetch(`${baseUrl}/init?shop_id=${shopId}&v=3`);
      const body = await expectJson(response, 'GET /init');
      if (typeof body.did !== 'string' || typeof body.sid !== 'string')
        throw new Error(`GET /init gave no did and sid: ${JSON.stringify(body)}`);
      devices.push({ did: body.did, sid: body.sid });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return devices;
}

/** True once the load's endpoint answers 200 {"status":"success"} for a device from GET /init. */
export async function pushWorks(baseUrl: string, shopId: string, device: BenchDevice, event: PushLoadEvent): Promise<boolean> {
  const path = event.kind === 'custom' ? '/push/custom' : '/push';
  const body = pushBody(shopId, device, event, 'probe', 'probe', 0);
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return response.status === 200 && text === '{"status":"success"}';
}
