/**
 * What the audience bench needs on a running server, over HTTP as a client and an
 * operator would: a shop with its secret and a segment (admin API), generated request
 * bodies for POST /import/audience, and the import log.
 */

async function expectJson(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export interface BenchShop {
  readonly shopId: string;
  readonly secret: string;
  readonly segmentId: number;
}

export async function createShopWithSegment(baseUrl: string, adminToken: string, name: string): Promise<BenchShop> {
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const shop = await expectJson(
    await fetch(`${baseUrl}/admin/v1/shops`, { method: 'POST', headers, body: JSON.stringify({ name }) }),
    'POST /admin/v1/shops',
  );
  const shopId = shop.shop_id as string;
  const segment = await expectJson(
    await fetch(`${baseUrl}/admin/v1/shops/${shopId}/segments`, { method: 'POST', headers, body: JSON.stringify({ name: 'Everyone' }) }),
    'POST …/segments',
  );
  return { shopId, secret: shop.shop_secret as string, segmentId: segment.id as number };
}

const FIRST = ['Anna', 'Boris', 'Vera', 'Gleb', 'Daria', 'Egor', 'Zoya', 'Ivan', 'Kira', 'Lev'];
const LAST = ['Ivanova', 'Petrov', 'Sidorova', 'Smirnov', 'Kuznetsova', 'Popov', 'Volkova', 'Sokolov'];

/**
 * One request body of `count` records, numbered from `from`: the usual fields of a shop's
 * customer base (about 300 bytes a record). One record in a hundred repeats a customer of
 * the previous request with a new name, as real re-exports do: it must update, not
 * duplicate.
 */
export function audienceBody(shop: BenchShop, from: number, count: number): string {
  const records: string[] = new Array<string>(count);
  for (let i = 0; i < count; i += 1) {
    const n = i % 100 === 99 && from > 0 ? from - count + i - 1 : from + i;
    const gender = n % 2 === 0 ? 'f' : 'm';
    const record: Record<string, unknown> = {
      email: `customer${n}@example.org`,
      phone: `79${String(n).padStart(9, '0')}`,
      external_id: `crm-${n}`,
      first_name: FIRST[n % FIRST.length],
      last_name: LAST[(n >> 3) % LAST.length],
      gender,
      birthday: `19${50 + (n % 50)}-0${1 + (n % 9)}-1${n % 10}`,
      location: `city-${n % 300}`,
      bought_something: n % 3 === 0,
      email_bulk: n % 5 !== 0,
      sms_transactional: true,
      loyalty_bonuses: n % 10_000,
    };
    if (n % 7 === 0) record.kids = [{ gender: 'm', birthday: '2015-06-01' }];
    if (n % 11 === 0) {
      record.mobile_token = `token-${n}`;
      record.mobile_token_platform = n % 2 === 0 ? 'ios' : 'android';
    }
    records[i] = JSON.stringify(record);
  }
  return `{"shop_id":"${shop.shopId}","shop_secret":"${shop.secret}","segment_id":${shop.segmentId},"audience":[${records.join(',')}]}`;
}

export interface ImportEntry {
  readonly id: number;
  readonly status: string;
  readonly received: number;
  readonly imported: number;
  readonly skipped: number;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly errors: unknown[];
}

export async function listImports(baseUrl: string, adminToken: string, shopId: string): Promise<ImportEntry[]> {
  const body = await expectJson(
    await fetch(`${baseUrl}/admin/v1/shops/${shopId}/imports`, { headers: { authorization: `Bearer ${adminToken}` } }),
    'GET …/imports',
  );
  return body.imports as ImportEntry[];
}

export async function segmentSize(baseUrl: string, adminToken: string, shop: BenchShop): Promise<number> {
  const body = await expectJson(
    await fetch(`${baseUrl}/admin/v1/shops/${shop.shopId}/segments/${shop.segmentId}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    }),
    'GET …/segments/{id}',
  );
  return body.size as number;
}
