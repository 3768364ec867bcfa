import { zipfSampler } from './zipf.js';

/**
 * A shop's history for bench:recommend, generated as rows of tracking's `events` and
 * `orders` (src/db/tables/tracking.ts) in the form tracking.batch.ts writes them: sessions
 * of product views, carts of what was viewed, purchases (an event and its order) of the
 * cart, with a Zipf popularity over the catalog, browsing that stays in a category half the
 * time, and products bought together (each product has two companions in its category).
 * Seeded, so two runs write the same shop. Rows come out in time order, session by session.
 *
 * Per session: 1–30 views (about 5.5 on average), a cart 40 % of the time (a second one
 * 10 %), a purchase 12 %: about 6 events a session, 90 % of them views, 2 % purchases.
 */

export interface Visitor {
  readonly profileId: number;
  readonly did: string;
}

export interface GeneratedEvent {
  readonly id: number;
  readonly profileId: number;
  readonly did: string;
  readonly sid: string;
  readonly event: 'view' | 'cart' | 'purchase';
  readonly time: number;
  readonly items: string;
  readonly params: string;
}

export interface GeneratedOrder {
  readonly id: number;
  readonly orderId: string;
  readonly eventId: number;
  readonly profileId: number;
  readonly did: string;
  readonly items: string;
  readonly itemsTotal: number;
  readonly createdAt: number;
}

export interface HistoryOptions {
  readonly products: number;
  readonly events: number;
  readonly now: number;
  /** Days the history spans, ending an hour before `now`. */
  readonly days: number;
  /** Visitors whose did the bench will send (devices from GET /init): each gets `recentSessions` in the last week. */
  readonly known: readonly Visitor[];
  readonly recentSessions: number;
  readonly firstEventId: number;
  readonly firstOrderId: number;
  readonly offerId: (i: number) => string;
  /** The feed's price of product i (bench/lib/feed-gen.ts). */
  readonly priceOf: (i: number) => number;
  /** Products i and i ± stride share a leaf category in the generated feed. */
  readonly categoryStride: number;
  readonly seed?: number;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Popularity rank k is product (k · step) mod n: the best-sellers spread over the catalog and its categories. */
export function rankToProduct(products: number): (rank: number) => number {
  let step = 7919;
  while (gcd(step, products) !== 1) step += 2;
  return (rank) => (rank * step) % products;
}

/** Yields the history in chunks of rows: events and the orders of the purchases among them. */
export function* generateHistory(
  options: HistoryOptions,
  chunkEvents = 20_000,
): Generator<{ events: GeneratedEvent[]; orders: GeneratedOrder[] }> {
  const { products, now, offerId, priceOf, categoryStride } = options;
  const random = prng(options.seed ?? 42);
  const zipf = zipfSampler(products, 1, (options.seed ?? 42) ^ 0x5bd1e995);
  const rank = rankToProduct(products);
  const popular = (): number => rank(zipf());
  const sameCategory = (i: number): number => {
    const hops = 1 + Math.floor(random() * 4);
    return (i + (random() < 0.5 ? hops : products - hops) * categoryStride) % products;
  };
  const companion = (i: number): number => (i + (i % 2 === 0 ? 3 : 7) * categoryStride) % products;

  const from = now - options.days * DAY_MS;
  const span = options.days * DAY_MS - HOUR_MS;
  const synthetic = Math.max(1000, Math.round(options.events / 18));
  let nextEvent = options.firstEventId;
  let nextOrder = options.firstOrderId;
  let written = 0;
  let sessionNo = 0;
  let events: GeneratedEvent[] = [];
  let orders: GeneratedOrder[] = [];
  const knownSessions = options.known.length * options.recentSessions;

  while (written < options.events) {
    sessionNo += 1;
    const isKnown = sessionNo <= knownSessions;
    const visitor: Visitor = isKnown
      ? options.known[(sessionNo - 1) % options.known.length]!
      : (() => {
          const n = Math.floor(random() * synthetic);
          return { profileId: 1_000_000_000 + n, did: `gen-d${n}` };
        })();
    const sid = `gen-s${sessionNo}`;
    // Sessions in roughly time order: the known visitors' first (the last week), then the rest over the span.
    let time = isKnown
      ? now - 7 * DAY_MS + Math.floor(random() * (7 * DAY_MS - HOUR_MS))
      : from + Math.floor(Math.min(1, (sessionNo - knownSessions) / (options.events / 6)) * span);
    const push = (event: GeneratedEvent['event'], items: string, params = '{}'): number => {
      const id = nextEvent++;
      events.push({ id, profileId: visitor.profileId, did: visitor.did, sid, event, time, items, params });
      written += 1;
      time += 20_000 + Math.floor(random() * 60_000);
      return id;
    };

    let views = 1;
    while (views < 30 && random() < 0.82) views += 1;
    const viewed: number[] = [];
    let current = popular();
    for (let v = 0; v < views; v++) {
      viewed.push(current);
      push('view', `[{"id":"${offerId(current)}","amount":1}]`);
      current = random() < 0.5 ? sameCategory(current) : popular();
    }
    const cart: number[] = [];
    if (random() < 0.4) cart.push(viewed[Math.floor(random() * viewed.length)]!);
    if (cart.length > 0 && random() < 0.25) cart.push(companion(cart[0]!));
    for (const item of cart) push('cart', `[{"id":"${offerId(item)}","amount":1,"price":${priceOf(item)}}]`);
    if (cart.length > 0 && random() < 0.3) {
      const bought = [...cart];
      if (random() < 0.5) bought.push(companion(bought[0]!));
      const unique = [...new Set(bought)];
      const items = `[${unique.map((i) => `{"id":"${offerId(i)}","amount":1,"price":${priceOf(i)}}`).join(',')}]`;
      const orderId = `gen-o${nextOrder}`;
      const createdAt = time;
      const eventId = push('purchase', items, `{"order_id":"${orderId}"}`);
      orders.push({
        id: nextOrder++,
        orderId,
        eventId,
        profileId: visitor.profileId,
        did: visitor.did,
        items,
        itemsTotal: unique.reduce((sum, i) => sum + Math.round(priceOf(i) * 100), 0),
        createdAt,
      });
    }
    if (events.length >= chunkEvents) {
      yield { events, orders };
      events = [];
      orders = [];
    }
  }
  if (events.length > 0) yield { events, orders };
}
