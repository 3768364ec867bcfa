/**
 * What the push load needs on a running server: a shop (admin API) and devices
 * (GET /init), made over HTTP as a client would.
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

/** `count` new devices, `concurrency` requests at a time. */
export async function createDevices(baseUrl: string, shopId: string, count: number, concurrency = 8): Promise<string[]> {
  const dids: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next += 1;
      const response = await fetch(`${baseUrl}/init?shop_id=${shopId}&v=3`);
      const body = await expectJson(response, 'GET /init');
      if (typeof body.did !== 'string') throw new Error(`GET /init gave no did: ${JSON.stringify(body)}`);
      dids.push(body.did);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return dids;
}

/** True once POST /push answers 200 {"status":"success"} for a device from GET /init. */
export async function pushWorks(baseUrl: string, shopId: string, did: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shopId, did, event: 'cart', items: [{ id: 'probe', amount: 1, price: 1 }] }),
  });
  const text = await response.text();
  return response.status === 200 && text === '{"status":"success"}';
}
