import { send, stream, pool, type Outcome, type Tally } from './client.js';
import { GIFT_CODE, ONCE_CODE, PRODUCTS, type Shop } from './shop.js';

/**
 * The cluster test's workload, sent through HAProxy unless a part says otherwise. Every
 * request is recorded with its outcome under a key that the invariants find again in the
 * database or at the SMTP peer: each /push view names an item of its own, each
 * /push/custom and /transact mails an address of its own.
 */

export interface Device {
  readonly did: string;
  readonly sid: string;
}

export interface Records {
  /** `did item` of each /push view. */
  readonly views: Map<string, Outcome>;
  /** The address each /push/custom signed_up event's chain mails. */
  readonly signups: Map<string, Outcome>;
  /** The address each /transact mails. */
  readonly transacts: Map<string, Outcome>;
}

export function newRecords(): Records {
  return { views: new Map(), signups: new Map(), transacts: new Map() };
}

export async function makeDevices(baseUrl: string, shopId: string, count: number): Promise<Device[]> {
  const devices: Device[] = [];
  await pool(count, 8, async () => {
    // As an app does: a device whose /init was lost (a node killed under it) asks again.
    for (let attempt = 1; ; attempt += 1) {
      const answer = await send(baseUrl, 'GET', `/init?shop_id=${shopId}&v=3`, 'status');
      const body = answer.body ?? {};
      if (typeof body.did === 'string' && typeof body.sid === 'string') {
        devices.push({ did: body.did, sid: body.sid });
        return;
      }
      if (attempt === 5) throw new Error(`GET /init gave no did and sid 5 times: ${answer.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  return devices;
}

export interface Streams {
  /** Stops the streams and resolves when their last requests were answered. */
  stop(): Promise<void>;
}

/**
 * The steady load of a phase: product views from the devices, signed_up custom events
 * (each starting a chain that mails), and /transact mails, each from its own lanes, every
 * request counted in `tally` and recorded in `records` under `tag` (unique per phase).
 */
export function startStreams(
  baseUrl: string,
  shop: Shop,
  devices: readonly Device[],
  records: Records,
  tally: Tally,
  tag: string,
): Streams {
  let stopped = false;
  const until = () => stopped;
  const running = Promise.all([
    stream(4, until, async (i) => {
      const device = devices[i % devices.length]!;
      const item = `${tag}-v${i}`;
      const answer = await send(
        baseUrl,
        'POST',
        '/push',
        'status',
        { shop_id: shop.id, did: device.did, sid: device.sid, event: 'view', items: [{ id: item }] },
        tally,
      );
      records.views.set(`${device.did} ${item}`, answer.outcome);
    }),
    stream(2, until, async (i) => {
      const email = `${tag}-c${i}@cluster.example`;
      const answer = await send(baseUrl, 'POST', '/push/custom', 'status', { shop_id: shop.id, email, event: 'signed_up' }, tally);
      records.signups.set(email, answer.outcome);
    }),
    stream(2, until, async (i) => {
      const email = `${tag}-t${i}@cluster.example`;
      const answer = await send(
        baseUrl,
        'POST',
        '/transact',
        'success',
        { shop_id: shop.id, shop_secret: shop.secret, code: 'order_placed', email, variables: { order: `${tag}-${i}` } },
        tally,
      );
      records.transacts.set(email, answer.outcome);
    }),
  ]);
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/**
 * 400 devices made through the balancer, each then linked to one email by /profile/set
 * sent straight to one node, in turn, all at once: the identity race across nodes.
 */
export async function linkDevices(
  baseUrl: string,
  nodeUrls: readonly string[],
  shopId: string,
  email: string,
  count: number,
): Promise<{ dids: string[]; outcomes: Outcome[] }> {
  const devices = await makeDevices(baseUrl, shopId, count);
  const outcomes: Outcome[] = [];
  await pool(devices.length, 50, async (i) => {
    const device = devices[i]!;
    const answer = await send(nodeUrls[i % nodeUrls.length]!, 'POST', '/profile/set', 'status', {
      shop_id: shopId,
      did: device.did,
      sid: device.sid,
      email,
    });
    outcomes[i] = answer.outcome;
  });
  return { dids: devices.map((d) => d.did), outcomes };
}

export interface RaceResult {
  /** Orders whose apply was answered, and what it gave them of the code and the certificate. */
  readonly applied: { orderId: string; code: boolean; certificate: number }[];
  /** Orders whose confirm was acknowledged. */
  readonly confirmed: string[];
  readonly other: string[];
}

/**
 * Checkouts of `orders` members, each applying the single-use code and the certificate
 * at once through the balancer, then each confirmed: one order may take the code, and the
 * certificate pays no more than its amount.
 */
export async function checkoutRace(baseUrl: string, shop: Shop, orders: number): Promise<RaceResult> {
  const applied: RaceResult['applied'] = [];
  const other: string[] = [];
  await pool(orders, orders, async (i) => {
    const orderId = `race-${i}`;
    const answer = await send(baseUrl, 'POST', '/loyalty/checkout/apply', 'status', {
      shop_id: shop.id,
      shop_secret: shop.secret,
      order_id: orderId,
      identifier: shop.phones[i % shop.phones.length],
      payment_type: 'card',
      promo_codes: [ONCE_CODE],
      certificates: [GIFT_CODE],
      charge_bonuses: true,
      bonuses_amount: 100,
      cart_items: PRODUCTS.map((p) => ({ product_id: p.id, price: p.price, quantity: 1 })),
    });
    if (answer.outcome !== 'ack') {
      other.push(`apply ${orderId}: ${answer.status} ${answer.text.slice(0, 200)}`);
      return;
    }
    const payload = (answer.body?.payload ?? {}) as Record<string, unknown>;
    const codes = (payload.promo_codes ?? []) as unknown[];
    applied.push({
      orderId,
      code: codes.some((c) => JSON.stringify(c).includes(ONCE_CODE)),
      certificate: Number(payload.saved_by_certificates ?? 0),
    });
  });
  const confirmed: string[] = [];
  await pool(applied.length, applied.length, async (i) => {
    const { orderId } = applied[i]!;
    const answer = await send(baseUrl, 'POST', '/loyalty/checkout/confirm', 'status', {
      shop_id: shop.id,
      shop_secret: shop.secret,
      order_id: orderId,
    });
    if (answer.outcome === 'ack') confirmed.push(orderId);
    else other.push(`confirm ${orderId}: ${answer.status} ${answer.text.slice(0, 200)}`);
  });
  return { applied, confirmed, other };
}

/** The audience import: `count` addresses into the shop's segment, in chunks, through the balancer. */
export async function importAudience(baseUrl: string, shop: Shop, count: number, chunk = 500): Promise<void> {
  for (let from = 0; from < count; from += chunk) {
    const audience = Array.from({ length: Math.min(chunk, count - from) }, (_, i) => ({ email: memberEmail(from + i), first_name: 'Ann' }));
    // A chunk without a clear answer is sent again, as an integration would: an import of the
    // same members is idempotent (profiles by email, segment membership by member).
    for (let attempt = 1; ; attempt += 1) {
      const answer = await send(baseUrl, 'POST', '/import/audience', 'status', {
        shop_id: shop.id,
        shop_secret: shop.secret,
        segment_id: shop.segmentId,
        audience,
      });
      if (answer.outcome === 'ack') break;
      if (attempt === 5) throw new Error(`POST /import/audience answered ${answer.status} 5 times: ${answer.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export function memberEmail(n: number): string {
  return `member${n}@cluster.example`;
}
