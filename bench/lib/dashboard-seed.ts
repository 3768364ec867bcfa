import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { listMigrations } from '../../src/db/migrations/index.js';
import { openBenchApp } from './admin-lists-app.js';

/**
 * The dashboard bench's shop (bench/dashboard.bench.ts): one SQLite shop in Moscow time
 * with E events over the 365 days before END (views, carts, categories, purchases with
 * their orders; 200,000 customers) and M deliveries (email, SMS, mobile push of 60
 * mailings, chains and bulk mailings; some opened, clicked and followed by a purchase).
 * The raw rows are written straight into the migrated schema, as an older Patron would
 * have stored them, and the rollups are then made by the real backfill job
 * (modules/dashboards/backfill.ts) from a dashboard_backfill row as migration 0038 writes
 * it: the dashboards read rollups made by Patron's own code. Cached under os.tmpdir() by
 * the migration count and the sizes.
 */

const SEED_VERSION = 1;
const BATCH = 100_000;
const CUSTOMERS = 200_000;
export const MAILINGS = 20;
export const END = Date.parse('2026-11-30T21:00:00Z');
const SPAN = 365 * 86_400_000;
const EVENT_TYPES = ['view', 'view', 'view', 'view', 'view', 'view', 'cart', 'cart', 'category', 'purchase'];
const CHANNELS = ['email', 'sms', 'mobile_push'];
const TYPES = ['transactional', 'chain', 'bulk'];

export interface DashboardShop {
  readonly file: string;
  readonly shopId: string;
  readonly events: number;
  readonly deliveries: number;
  /** 0 when the file came from the cache. */
  readonly seedSeconds: number;
  readonly backfillSeconds: number;
}

export async function dashboardShop(events: number, deliveries: number): Promise<DashboardShop> {
  const migrations = Object.keys(listMigrations('sqlite')).length;
  const file = path.join(os.tmpdir(), `patron-dashboard-v${SEED_VERSION}-m${migrations}-e${events}-d${deliveries}.sqlite`);
  const marker = `${file}.shop`;
  if (fs.existsSync(file) && fs.existsSync(marker)) {
    return { file, shopId: fs.readFileSync(marker, 'utf8'), events, deliveries, seedSeconds: 0, backfillSeconds: 0 };
  }
  for (const suffix of ['', '-wal', '-shm', '.shop']) fs.rmSync(`${file}${suffix}`, { force: true });
  const started = performance.now();

  let shopId: string;
  {
    const bench = await openBenchApp(file);
    try {
      const created = await bench.app.inject({
        method: 'POST',
        url: '/admin/v1/shops',
        headers: bench.headers,
        payload: { name: 'Dashboard bench', currency: 'RUB', timezone: 'Europe/Moscow' },
      });
      shopId = created.json<{ shop_id: string }>().shop_id;
    } finally {
      await bench.close();
    }
  }

  const raw = new SqliteDatabase(file);
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -1000000');
  raw.pragma('temp_store = MEMORY');
  const event = raw.prepare(
    "insert into events (shop_id, id, profile_id, did, event, custom, time, items, params, created_at) values (?, ?, ?, null, ?, 0, ?, ?, '{}', ?)",
  );
  const order = raw.prepare(
    'insert into orders (shop_id, id, order_id, event_id, profile_id, did, items, items_total, created_at) values (?, ?, ?, ?, ?, null, ?, ?, ?)',
  );
  let orderId = 0;
  const writeEvents = raw.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const id = i + 1;
      const time = END - SPAN + Math.floor((i / events) * SPAN);
      const type = EVENT_TYPES[i % EVENT_TYPES.length] as string;
      const profile = 1 + ((i * 7919) % CUSTOMERS);
      const price = 100 + (i % 900);
      const items = `[{"id":"${i % 20_000}","amount":1,"price":${price}}]`;
      event.run(shopId, id, profile, type, time, items, time);
      if (type === 'purchase') {
        orderId += 1;
        order.run(shopId, orderId, `order-${orderId}`, id, profile, items, price * 100, time);
      }
    }
  });
  for (let from = 0; from < events; from += BATCH) {
    writeEvents(from, Math.min(events, from + BATCH));
    if ((from / BATCH) % 10 === 0) process.stdout.write(`  seeded ${Math.min(events, from + BATCH)} events\n`);
  }
  const delivery = raw.prepare(
    `insert into messaging_deliveries (shop_id, code, seq, channel, address, type, mailing_id, profile_id, test, status, attempts,
       created_at, updated_at, sent_at, opened_at, clicked_at, purchased_at) values (?, ?, 0, ?, ?, ?, ?, ?, 0, 'sent', 1, ?, ?, ?, ?, ?, ?)`,
  );
  const writeDeliveries = raw.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const sent = END - SPAN + Math.floor((i / deliveries) * SPAN);
      const opened = i % 10 < 3 ? sent + 3_600_000 : null;
      const clicked = i % 10 === 0 ? sent + 7_200_000 : null;
      const purchased = i % 50 === 0 ? sent + 86_400_000 : null;
      const profile = 1 + ((i * 104_729) % CUSTOMERS);
      delivery.run(
        shopId,
        `m${String(i).padStart(9, '0')}`,
        CHANNELS[i % 3],
        `c${profile}@bench.example`,
        TYPES[Math.floor(i / 3) % 3],
        1 + (i % MAILINGS),
        profile,
        sent,
        sent,
        sent,
        opened,
        clicked,
        purchased,
      );
    }
  });
  for (let from = 0; from < deliveries; from += BATCH) writeDeliveries(from, Math.min(deliveries, from + BATCH));
  const cutoff = END + 86_400_000;
  raw
    .prepare("insert into tracking_sequences (shop_id, name, last_id) values (?, 'events', ?), (?, 'orders', ?) on conflict do nothing")
    .run(shopId, events, shopId, orderId);
  raw
    .prepare(
      "insert into dashboard_backfill (shop_id, cutoff, events_until, ledger_until, phase, cursor, updated_at) values (?, ?, ?, 0, 'events', '0', ?)",
    )
    .run(shopId, cutoff, events, cutoff);
  raw.exec('analyze');
  raw.close();
  const seedSeconds = (performance.now() - started) / 1000;

  // The rollups, by Patron's backfill job, as an upgraded shop gets them.
  const backfillStarted = performance.now();
  const bench = await openBenchApp(file);
  try {
    let steps = 0;
    while (await bench.app.services.dashboardBackfill.step(shopId)) {
      steps += 1;
      if (steps % 200 === 0) process.stdout.write(`  backfill: ${steps} batches\n`);
    }
  } finally {
    await bench.close();
  }
  const backfillSeconds = (performance.now() - backfillStarted) / 1000;
  fs.writeFileSync(marker, shopId);
  return { file, shopId, events, deliveries, seedSeconds, backfillSeconds };
}
