import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { searchLog, type LogSearch } from '../src/modules/messaging/delivery-log.repo.js';

/**
 * `npx tsx bench/delivery-log.bench.ts`: the delivery log's search (GET …/messages/search,
 * delivery-log.repo.ts) on one SQLite shop of N deliveries (default 1,000,000) beside a
 * small second shop, each filter's first page of 50 and a deep page: p50 and p95 of R
 * runs after a warm-up, and the plan SQLite chose. Seeded straight into the table once per
 * run (a temporary file). A report, not a test (docs/messaging.md, "The delivery log").
 *
 *   npx tsx bench/delivery-log.bench.ts -- [--deliveries 1000000] [--repeat 20]
 */

const { values } = parseArgs({
  options: { deliveries: { type: 'string', default: '1000000' }, repeat: { type: 'string', default: '20' } },
});
const N = Number(values.deliveries);
const REPEAT = Number(values.repeat);
const SHOP = 'a'.repeat(30);
const OTHER = 'b'.repeat(30);
const BASE = Date.UTC(2026, 0, 1);
const CHANNELS = ['email', 'email', 'email', 'email', 'email', 'sms', 'sms', 'mobile_push', 'mobile_push', 'telegram'];
const TYPES = ['bulk', 'bulk', 'bulk', 'bulk', 'bulk', 'bulk', 'transactional', 'transactional', 'transactional', 'chain'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-delivery-log-'));
const file = path.join(dir, 'bench.db');
const handle = createDb({ kind: 'sqlite', file });
await migrateToLatest(handle);
await handle.destroy();

const raw = new SqliteDatabase(file);
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = OFF');
const now = BASE;
for (const shop of [SHOP, OTHER]) {
  raw
    .prepare(
      'insert into shops (shop_id, name, secret_hash, currency, timezone, active, restricted, created_at, updated_at) values (?, ?, ?, ?, ?, 1, 0, ?, ?)',
    )
    .run(shop, 'Bench', 'x', 'RUB', 'UTC', now, now);
}
const insert = raw.prepare(
  `insert into messaging_deliveries (shop_id, code, seq, channel, vendor, address, platform, type, mailing_id, profile_id, test, status,
   error, attempts, created_at, updated_at, sent_at, opened_at, clicked_at, soft_bounced_at)
   values (?, ?, 0, ?, 'v', ?, null, ?, 1, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
);
const seedStart = performance.now();
const seed = raw.transaction((shop: string, from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const channel = CHANNELS[i % 10]!;
    const profile = 1 + (i % 200_000);
    const address = channel === 'email' ? `c${profile}@example.org` : `7900${String(profile).padStart(7, '0')}`;
    const status = i % 100 === 7 ? 'failed' : i % 1000 === 3 ? 'queued' : 'sent';
    const at = BASE + i * 1000;
    const sent = status === 'sent' ? at + 500 : null;
    insert.run(
      shop,
      `code${String(i).padStart(9, '0')}`,
      channel,
      address,
      TYPES[(i >> 3) % 10],
      profile,
      i % 1000 === 999 ? 1 : 0,
      status,
      status === 'failed' ? 'Mailbox unavailable' : null,
      at,
      at,
      sent,
      sent && i % 5 === 0 ? sent + 60_000 : null,
      sent && i % 20 === 0 ? sent + 90_000 : null,
      sent && i % 100 === 11 ? sent + 120_000 : null,
    );
  }
});
for (let from = 0; from < N; from += 50_000) seed(SHOP, from, Math.min(N, from + 50_000));
seed(OTHER, 0, 10_000);
raw.exec('analyze');
raw.close();
console.log(`seeded ${N} deliveries in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const db = createDb({ kind: 'sqlite', file });
const mid = Math.floor(N / 2);
const cursor = (i: number): LogSearch['after'] => [BASE + i * 1000, `code${String(i).padStart(9, '0')}`, 0];
const cases: Array<[string, Omit<LogSearch, 'limit'>]> = [
  ['all, first page', {}],
  ['all, deep page', { after: cursor(mid) }],
  ['channel=email', { channel: 'email' }],
  ['channel=telegram, deep', { channel: 'telegram', after: cursor(mid) }],
  ['channel=wallet (none)', { channel: 'wallet' }],
  ['status=failed', { status: 'failed' }],
  ['status=queued, deep', { status: 'queued', after: cursor(mid) }],
  ['type=chain', { type: 'chain' }],
  ['customer (profile + address)', { customer: { profileIds: [12_345], address: 'c12345@example.org' } }],
  ['code', { code: `code${String(mid).padStart(9, '0')}` }],
  ['period of one hour, mid', { from: BASE + mid * 1000, to: BASE + mid * 1000 + 3_600_000 }],
  [
    'channel=sms + status=failed + period of a day',
    { channel: 'sms', status: 'failed', from: BASE + mid * 1000, to: BASE + mid * 1000 + 86_400_000 },
  ],
  ['outcome=clicked', { outcome: 'clicked' }],
  ['outcome=bounced', { outcome: 'bounced' }],
  ['outcome=complained (none)', { outcome: 'complained' }],
];
console.log(`\n${'search'.padEnd(48)} ${'rows'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  plan`);
for (const [label, search] of cases) {
  const times: number[] = [];
  let rows = 0;
  for (let r = 0; r < REPEAT + 2; r++) {
    const t0 = performance.now();
    rows = (await searchLog(db.db, SHOP, { ...search, limit: 51 })).length;
    if (r >= 2) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  const compiled = searchLogSql(search);
  console.log(`${label.padEnd(48)} ${String(rows).padStart(5)} ${pct(0.5).padStart(8)} ${pct(0.95).padStart(8)}  ${compiled}`);
}
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });

function searchLogSql(search: Omit<LogSearch, 'limit'>): string {
  const plan = new SqliteDatabase(file, { readonly: true });
  try {
    const compiledQuery = captured(search);
    const steps = plan.prepare(`explain query plan ${compiledQuery.sql}`).all(...(compiledQuery.parameters as unknown[])) as Array<{
      detail: string;
    }>;
    return steps.map((s) => s.detail).join('; ');
  } finally {
    plan.close();
  }
}

function captured(search: Omit<LogSearch, 'limit'>): { sql: string; parameters: readonly unknown[] } {
  let out: { sql: string; parameters: readonly unknown[] } = { sql: '', parameters: [] };
  const probe = {
    selectFrom: (...args: unknown[]) => {
      const q = (db.db.selectFrom as (...a: unknown[]) => unknown)(...args);
      return wrap(q);
    },
  };
  const wrap = (q: unknown): unknown =>
    new Proxy(q as object, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === 'execute') {
          return () => {
            out = (target as { compile(): { sql: string; parameters: readonly unknown[] } }).compile();
            return Promise.resolve([]);
          };
        }
        return typeof value === 'function' ? (...a: unknown[]) => wrap((value as (...x: unknown[]) => unknown).apply(target, a)) : value;
      },
    });
  void searchLog(probe as never, SHOP, { ...search, limit: 51 });
  return out;
}
