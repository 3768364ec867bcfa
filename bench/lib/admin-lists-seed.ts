import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { listMigrations } from '../../src/db/migrations/index.js';
import { writeYmlFeed } from './feed-gen.js';
import { openBenchApp } from './admin-lists-app.js';

/**
 * The admin lists bench's shop (bench/admin-lists.bench.ts): one shop on SQLite with N
 * profiles (each with an email, a phone and a device), about ten events each plus one
 * heavy customer with 100,000, an order for every tenth profile, 200,000 searches that
 * found nothing and a generated feed. The shop, the schema and the catalog come through
 * the real app and migrations; profiles, devices, events, orders and searches are written
 * straight into that schema in large transactions of prepared statements, keys ascending
 * so that every index grows at its end. The file is kept under os.tmpdir(), named by the
 * migration count and the sizes, so a rerun skips seeding.
 */

const SEED_VERSION = 1;
export const HEAVY_EVENTS = 100_000;
const FEED_OFFERS = 20_000;
const NO_RESULT_SEARCHES = 200_000;
const BATCH = 50_000;

export interface SeededShop {
  readonly file: string;
  readonly shopId: string;
  readonly profiles: number;
  readonly events: number;
  /** 0 when the file came from the cache. */
  readonly seedSeconds: number;
}

export const benchProfileId = (i: number): number => 1_000_000_000 + i;
export const benchEmail = (i: number): string => `u${String(i).padStart(8, '0')}@bench.example`;
export const benchPhone = (i: number): string => `7900${String(i).padStart(7, '0')}`;
export const benchDid = (i: number): string => `dev-${String(i).padStart(10, '0')}`;
/** Profile i was created at BASE_TIME + i seconds (so the newest is the last). */
export const BASE_TIME = Date.parse('2025-01-01T00:00:00Z');

export async function seededShop(profiles: number, eventsPerProfile: number): Promise<SeededShop> {
  const migrations = Object.keys(listMigrations('sqlite')).length;
  const file = path.join(os.tmpdir(), `patron-admin-lists-v${SEED_VERSION}-m${migrations}-p${profiles}-e${eventsPerProfile}.sqlite`);
  const marker = `${file}.shop`;
  const events = profiles * eventsPerProfile + HEAVY_EVENTS;
  if (fs.existsSync(file) && fs.existsSync(marker)) {
    return { file, shopId: fs.readFileSync(marker, 'utf8'), profiles, events, seedSeconds: 0 };
  }
  for (const suffix of ['', '-wal', '-shm', '.shop']) fs.rmSync(`${file}${suffix}`, { force: true });
  const started = performance.now();

  const bench = await openBenchApp(file);
  let shopId: string;
  try {
    const created = await bench.app.inject({
      method: 'POST',
      url: '/admin/v1/shops',
      headers: bench.headers,
      payload: { name: 'Admin lists bench', currency: 'RUB', timezone: 'Europe/Moscow' },
    });
    shopId = created.json<{ shop_id: string }>().shop_id;
    const feedFile = `${file}.feed.xml`;
    await writeYmlFeed(feedFile, FEED_OFFERS);
    await bench.app.services.catalog.importFeed({ shopId, format: 'yml', body: fs.readFileSync(feedFile, 'utf8'), source: 'admin' });
    fs.rmSync(feedFile, { force: true });
  } finally {
    await bench.close();
  }

  const raw = new SqliteDatabase(file);
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -1000000');
  raw.pragma('temp_store = MEMORY');
  const profile = raw.prepare(
    "insert into profiles (shop_id, id, email, phone, properties, created_at, updated_at) values (?, ?, ?, ?, '{}', ?, ?)",
  );
  const device = raw.prepare('insert into devices (shop_id, did, profile_id, created_at, last_seen_at) values (?, ?, ?, ?, ?)');
  const event = raw.prepare(
    "insert into events (shop_id, id, profile_id, did, event, custom, time, items, params, created_at) values (?, ?, ?, ?, ?, 0, ?, ?, '{}', ?)",
  );
  const order = raw.prepare(
    'insert into orders (shop_id, id, order_id, event_id, profile_id, did, items, items_total, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let eventId = 0;
  let orderId = 0;
  const writeProfiles = raw.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const id = benchProfileId(i);
      const at = BASE_TIME + i * 1000;
      const did = benchDid(i);
      profile.run(shopId, id, benchEmail(i), benchPhone(i), at, at);
      device.run(shopId, did, id, at, at);
      const count = i === 0 ? HEAVY_EVENTS + eventsPerProfile : eventsPerProfile;
      for (let k = 0; k < count; k++) {
        eventId += 1;
        const time = at + k * 10;
        const purchase = k === count - 1 && i % 10 === 0;
        const items = `[{"id":"${i % 20_000}","amount":1,"price":${100 + (i % 900)}}]`;
        event.run(shopId, eventId, id, did, purchase ? 'purchase' : 'view', time, items, time);
        if (purchase) {
          orderId += 1;
          order.run(shopId, orderId, `order-${i}`, eventId, id, did, items, (100 + (i % 900)) * 100, time);
        }
      }
    }
  });
  for (let from = 0; from < profiles; from += BATCH) {
    writeProfiles(from, Math.min(profiles, from + BATCH));
    if (profiles >= 100_000 && (from / BATCH) % 4 === 0) process.stdout.write(`  seeded ${from + BATCH} profiles\n`);
  }
  raw
    .prepare("insert into tracking_sequences (shop_id, name, last_id) values (?, 'events', ?), (?, 'orders', ?) on conflict do nothing")
    .run(shopId, eventId, shopId, orderId);
  const search = raw.prepare("insert into search_queries (shop_id, id, time, query, type, results) values (?, ?, ?, ?, 'full_search', 0)");
  const now = Date.now();
  raw.transaction(() => {
    for (let i = 0; i < NO_RESULT_SEARCHES; i++) search.run(shopId, i + 1, now - 86_400_000 + i, `missing ${(i * 7919) % 5000}`);
  })();
  raw.exec('analyze');
  raw.close();
  fs.writeFileSync(marker, shopId);
  return { file, shopId, profiles, events, seedSeconds: (performance.now() - started) / 1000 };
}
