import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, EventsTable, OrdersTable } from '../../src/db/types.js';
import { columnCount, parameterChunks } from '../../src/db/statement-slices.js';
import type { Services } from '../../src/services.js';

/**
 * A shop with a known structure for the recommendation evaluation and bench
 * (docs/recommendations.md "Evaluation"), the same for the same seed:
 * - products in leaf categories under a few departments, prices around a per-category
 *   level, params (brand, colour); within a category a Zipf popularity;
 * - bundles: some products have 1 to 3 complements in other categories (a phone, its case,
 *   its charger); a purchase of one adds each complement with some chance, never all
 *   for sure, and a basket may carry an unrelated popular product as well;
 * - customers with 1 to 3 favourite categories (most of their sessions browse those),
 *   an activity rate spread over two orders of magnitude, a propensity to buy, a first
 *   day and a last day (some leave, some arrive late);
 * - sessions of 1 to 8 product views in one category, walking to a complement now and
 *   then; a cart before each purchase;
 * - seasonality: weekends busier, and half the categories rising through the period
 *   while the others fall.
 * It writes the catalog through the feed import and the profiles, devices, events and
 * orders as batched inserts shaped as tracking writes them (ids from the shop's
 * tracking_sequences), streaming day by day, so that 10 million events fit in memory.
 */

export interface ShopSpec {
  readonly seed: number;
  readonly products: number;
  readonly customers: number;
  readonly days: number;
  /** Mean sessions per customer and day, before each customer's own rate and the season. */
  readonly sessionRate: number;
  /** The last day ends here (epoch ms). */
  readonly end: number;
}

export const SMALL_SHOP: Omit<ShopSpec, 'end'> = { seed: 37, products: 500, customers: 2500, days: 120, sessionRate: 0.08 };
/** 100,000 products and about 10 million events. */
export const LARGE_SHOP: Omit<ShopSpec, 'end'> = { seed: 37, products: 100_000, customers: 200_000, days: 180, sessionRate: 0.05 };

export interface GeneratedShop {
  readonly shopId: string;
  readonly secret: string;
  readonly events: number;
  readonly orders: number;
  readonly profiles: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const BRANDS = ['Acme', 'Borealis', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Helix'];
const COLOURS = ['black', 'white', 'red', 'blue', 'green', 'grey'];
const FLUSH_ROWS = 20_000;

interface Product {
  readonly id: string;
  readonly category: number;
  readonly price: number;
  readonly complements: number[];
}

interface Customer {
  readonly profileId: number;
  readonly did: string;
  readonly favourites: number[];
  readonly rate: number;
  readonly propensity: number;
  readonly firstDay: number;
  readonly lastDay: number;
}

export async function generateShop(
  services: Pick<Services, 'shops' | 'catalog'>,
  db: Kysely<Database>,
  spec: ShopSpec,
): Promise<GeneratedShop> {
  const random = mulberry32(spec.seed);
  const { shop, secret } = await services.shops.createShop({ name: `Generated shop ${spec.seed}` });
  const shopId = shop.shopId;

  const categories = Math.max(4, Math.round(Math.sqrt(spec.products) / 1.5));
  const departments = Math.max(2, Math.round(categories / 6));
  const categoryPrice = Array.from({ length: categories }, () => 500 + Math.floor(random() * 20_000));
  const products: Product[] = [];
  const byCategory: number[][] = Array.from({ length: categories }, () => []);
  for (let i = 0; i < spec.products; i++) {
    const category = i % categories;
    const price = Math.max(100, Math.round((categoryPrice[category] as number) * Math.exp((random() - 0.5) * 0.8)));
    products.push({ id: `P${i}`, category, price, complements: [] });
    (byCategory[category] as number[]).push(i);
  }
  // A third of the products get complements in other categories.
  for (const product of products) {
    if (random() > 0.35) continue;
    const count = 1 + Math.floor(random() * 3);
    for (let k = 0; k < count; k++) {
      const other = (product.category + 1 + Math.floor(random() * (categories - 1))) % categories;
      const pool = byCategory[other] as number[];
      product.complements.push(pool[Math.floor(random() * pool.length)] as number);
    }
  }
  await services.catalog.importFeed({
    shopId,
    format: 'yml',
    source: 'cli',
    body: Readable.from(feedChunks(products, categories, departments, random)),
  });

  // Popularity within a category: Zipf over a shuffled order, so ids say nothing.
  const categoryPick = byCategory.map((pool) => zipfPicker(shuffle(pool, random), random));
  const customers: Customer[] = [];
  for (let i = 0; i < spec.customers; i++) {
    const favourites = Array.from({ length: 1 + Math.floor(random() * 3) }, () => Math.floor(random() * categories));
    const firstDay = random() < 0.7 ? 0 : Math.floor(random() * spec.days);
    const lastDay = random() < 0.6 ? spec.days : firstDay + Math.floor(random() * (spec.days - firstDay));
    customers.push({
      profileId: 1_000_000_000 + i,
      did: `gen${String(i).padStart(9, '0')}`,
      favourites,
      rate: spec.sessionRate * Math.exp((random() - 0.5) * 4.5),
      propensity: 0.08 + random() * 0.4,
      firstDay,
      lastDay,
    });
  }
  const start = spec.end - spec.days * DAY_MS;
  const writer = new BatchWriter(db, shopId);
  await writer.people(customers, start);

  let sessionCount = 0;
  for (let day = 0; day < spec.days; day++) {
    const weekday = new Date(start + day * DAY_MS).getUTCDay();
    const weekly = weekday === 0 || weekday === 6 ? 1.3 : 0.9;
    for (const customer of customers) {
      if (day < customer.firstDay || day > customer.lastDay) continue;
      let sessions = poisson(customer.rate * weekly, random);
      while (sessions-- > 0) {
        sessionCount++;
        const sid = sessionCount.toString(36).padStart(10, '0');
        let at = start + day * DAY_MS + Math.floor(random() * (DAY_MS - 3_600_000));
        const category = pickCategory(customer, categories, day / spec.days, random);
        const views: number[] = [];
        const length = 1 + Math.floor(random() * 8);
        let current = (categoryPick[category] as () => number)();
        for (let v = 0; v < length; v++) {
          views.push(current);
          writer.event(customer, sid, 'view', at, [products[current] as Product]);
          at += 20_000 + Math.floor(random() * 100_000);
          const complements = (products[current] as Product).complements;
          current =
            complements.length > 0 && random() < 0.3
              ? (complements[Math.floor(random() * complements.length)] as number)
              : (categoryPick[category] as () => number)();
        }
        if (random() >= customer.propensity * 0.35) continue;
        const main = products[views[Math.floor(random() * views.length)] as number] as Product;
        const basket = [main];
        for (const complement of main.complements) if (random() < 0.55) basket.push(products[complement] as Product);
        if (random() < 0.2) basket.push(products[(categoryPick[Math.floor(random() * categories)] as () => number)()] as Product);
        writer.event(customer, sid, 'cart', at, [main]);
        writer.purchase(customer, sid, at + 60_000, basket);
      }
    }
    if (writer.pending() >= FLUSH_ROWS) await writer.flush();
  }
  await writer.flush();
  await writer.finish();
  return { shopId, secret, events: writer.events, orders: writer.orders, profiles: customers.length };
}

/** Most sessions browse a favourite; the rest anywhere, rising categories more so as the period goes on. */
function pickCategory(customer: Customer, categories: number, progress: number, random: () => number): number {
  if (random() < 0.75) return customer.favourites[Math.floor(random() * customer.favourites.length)] as number;
  for (;;) {
    const category = Math.floor(random() * categories);
    const season = category % 2 === 0 ? 0.4 + progress : 1.4 - progress;
    if (random() < season / 1.4) return category;
  }
}

class BatchWriter {
  events = 0;
  orders = 0;
  private eventRows: EventsTable[] = [];
  private orderRows: OrdersTable[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly shopId: string,
  ) {}

  pending(): number {
    return this.eventRows.length + this.orderRows.length;
  }

  async people(customers: readonly Customer[], at: number): Promise<void> {
    const profiles = customers.map((c) => ({
      shop_id: this.shopId,
      id: c.profileId,
      email: null,
      phone: null,
      external_id: null,
      loyalty_id: null,
      telegram_id: null,
      properties: '{}',
      merged_into: null,
      created_at: at,
      updated_at: at,
    }));
    const devices = customers.map((c) => ({ shop_id: this.shopId, did: c.did, profile_id: c.profileId, created_at: at, last_seen_at: at }));
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of parameterChunks(profiles, columnCount(profiles))) await trx.insertInto('profiles').values(chunk).execute();
      for (const chunk of parameterChunks(devices, columnCount(devices))) await trx.insertInto('devices').values(chunk).execute();
    });
  }

  event(customer: Customer, sid: string, event: string, at: number, items: readonly Product[]): number {
    const id = ++this.events;
    this.eventRows.push({
      shop_id: this.shopId,
      id,
      profile_id: customer.profileId,
      did: customer.did,
      sid,
      event,
      custom: 0,
      time: at,
      items: JSON.stringify(items.map((p) => ({ id: p.id, amount: 1, price: p.price / 100 }))),
      params: '{}',
      stream: 'android',
      segment: null,
      recommended_by: null,
      recommended_code: null,
      created_at: at,
    });
    return id;
  }

  purchase(customer: Customer, sid: string, at: number, basket: readonly Product[]): void {
    const eventId = this.event(customer, sid, 'purchase', at, basket);
    const id = ++this.orders;
    this.orderRows.push({
      shop_id: this.shopId,
      id,
      order_id: `G${id}`,
      event_id: eventId,
      profile_id: customer.profileId,
      did: customer.did,
      items: JSON.stringify(basket.map((p) => ({ id: p.id, amount: 1, price: p.price / 100 }))),
      delivery_type: null,
      payment_type: null,
      promocode: null,
      items_total: basket.reduce((sum, p) => sum + p.price, 0),
      order_price: null,
      created_at: at,
      order_cash: null,
      order_bonuses: null,
      order_delivery: null,
      order_discount: null,
      channel: null,
      tax_free: null,
      gift_package: null,
      delivery_address: null,
      custom: null,
      stream: 'android',
    });
  }

  async flush(): Promise<void> {
    const events = this.eventRows;
    const orders = this.orderRows;
    this.eventRows = [];
    this.orderRows = [];
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of parameterChunks(events, columnCount(events))) await trx.insertInto('events').values(chunk).execute();
      for (const chunk of parameterChunks(orders, columnCount(orders))) await trx.insertInto('orders').values(chunk).execute();
    });
  }

  /** Moves the shop's id sequences past the generated rows, so that tracking's next ids follow them. */
  async finish(): Promise<void> {
    for (const [name, last] of [
      ['events', this.events],
      ['orders', this.orders],
    ] as const) {
      await this.db
        .insertInto('tracking_sequences')
        .values({ shop_id: this.shopId, name, last_id: last })
        .onConflict((oc) => oc.columns(['shop_id', 'name']).doUpdateSet({ last_id: last }))
        .execute();
    }
  }
}

function* feedChunks(products: readonly Product[], categories: number, departments: number, random: () => number): Generator<string> {
  let text = '<?xml version="1.0" encoding="UTF-8"?>\n<yml_catalog date="2026-01-01 00:00"><shop><name>Generated</name>';
  text += '<currencies><currency id="RUB" rate="1"/></currencies><categories>';
  for (let d = 0; d < departments; d++) text += `<category id="D${d}">Department ${d}</category>`;
  for (let c = 0; c < categories; c++) text += `<category id="C${c}" parentId="D${c % departments}">Category ${c}</category>`;
  text += '</categories><offers>';
  for (const product of products) {
    const brand = BRANDS[Math.floor(random() * BRANDS.length)] as string;
    const colour = COLOURS[Math.floor(random() * COLOURS.length)] as string;
    text +=
      `<offer id="${product.id}" available="true"><url>https://shop.example/p/${product.id}</url>` +
      `<price>${(product.price / 100).toFixed(2)}</price><currencyId>RUB</currencyId><categoryId>C${product.category}</categoryId>` +
      `<name>Product ${product.id}</name><vendor>${brand}</vendor><param name="Brand">${brand}</param><param name="Colour">${colour}</param></offer>`;
    if (text.length > 65_536) {
      yield text;
      text = '';
    }
  }
  yield `${text}</offers></shop></yml_catalog>`;
}

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Picks from `items` with weight 1/(rank+1): a few products take most of a category's views. */
function zipfPicker(items: readonly number[], random: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 0; k < items.length; k++) cumulative.push((total += 1 / (k + 1)));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = items.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] as number) < target) low = mid + 1;
      else high = mid;
    }
    return items[low] as number;
  };
}

function poisson(mean: number, random: () => number): number {
  const limit = Math.exp(-mean);
  let count = 0;
  for (let p = random(); p > limit; p *= random()) count++;
  return count;
}
