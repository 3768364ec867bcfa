import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { SqliteQueryCompiler, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs } from 'kysely';
import { encodeCursor } from '../src/admin-api/paging.js';
import type { DbHandle } from '../src/db/create-db.js';
import { openBenchApp } from './lib/admin-lists-app.js';
import {
  BASE_TIME,
  benchDid,
  benchEmail,
  benchPhone,
  benchProfileId,
  HEAVY_EVENTS,
  seededShop,
  type SeededShop,
} from './lib/admin-lists-seed.js';

/**
 * `npm run bench:admin-lists`: every list the admin UI reads, through the real app
 * (app.inject: auth, validation, the service, the queries, the JSON), one request at a
 * time, on one SQLite shop of 1,000,000 profiles (email, phone, device each) and about
 * 10,000,000 events (bench/lib/admin-lists-seed.ts; seeded once, then cached). For each
 * endpoint, first page and a deep page (a cursor from the middle), it prints p50 and p95
 * of R requests after a warm-up, CPU ms per request, the ratio of its p95 to the same
 * request's on a baseline shop of 10,000 profiles measured in the same run, and the
 * query plans SQLite chose (EXPLAIN QUERY PLAN of every SELECT the request ran): a plan
 * that scans a table is flagged. Targets (issue 35 part 5): first page p95 < 150 ms,
 * search by identifier < 50 ms. A report, not a test (docs/performance.md).
 *
 *   npm run bench:admin-lists -- [--profiles 1000000] [--events-per-profile 10] [--baseline 10000] [--repeat 30]
 */

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: '1000000' },
    'events-per-profile': { type: 'string', default: '10' },
    baseline: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '30' },
  },
});
const count = (name: string, text: string, max: number): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be 1 to ${max}`);
  return n;
};
const PROFILES = count('profiles', values.profiles, 5_000_000);
const PER_PROFILE = count('events-per-profile', values['events-per-profile'], 100);
const BASELINE = count('baseline', values.baseline, 1_000_000);
const REPEAT = count('repeat', values.repeat, 10_000);

type Kind = 'first' | 'deep' | 'identifier' | 'one';
interface Endpoint {
  readonly label: string;
  readonly kind: Kind;
  readonly path: (shop: SeededShop) => string;
}

const mid = (shop: SeededShop): number => Math.floor(shop.profiles / 2);
const heavy = benchProfileId(0);

const ENDPOINTS: readonly Endpoint[] = [
  { label: 'customers, newest first', kind: 'first', path: () => 'customers' },
  {
    label: 'customers, deep page',
    kind: 'deep',
    path: (s) => `customers?cursor=${encodeCursor([BASE_TIME + mid(s) * 1000, benchProfileId(mid(s))])}`,
  },
  {
    label: 'customers?identifier=email',
    kind: 'identifier',
    path: (s) => `customers?identifier=${encodeURIComponent(benchEmail(mid(s)))}`,
  },
  { label: 'customers?identifier=phone', kind: 'identifier', path: (s) => `customers?identifier=%2B${benchPhone(mid(s))}` },
  { label: 'customers?identifier=device', kind: 'identifier', path: (s) => `customers?identifier=${benchDid(mid(s))}` },
  { label: 'customers?identifier=unknown', kind: 'identifier', path: () => 'customers?identifier=nobody%40nowhere.example' },
  { label: 'profiles?email= (lookup)', kind: 'identifier', path: (s) => `profiles?email=${encodeURIComponent(benchEmail(mid(s)))}` },
  { label: 'customer page', kind: 'one', path: (s) => `customers/${benchProfileId(mid(s))}` },
  { label: 'customer timeline (100k events)', kind: 'first', path: () => `customers/${heavy}/events` },
  {
    label: 'customer timeline, deep page',
    kind: 'deep',
    path: () => `customers/${heavy}/events?cursor=${encodeCursor([BASE_TIME + (HEAVY_EVENTS / 2) * 10, HEAVY_EVENTS / 2 + 1])}`,
  },
  { label: 'customer orders', kind: 'first', path: (s) => `customers/${benchProfileId(mid(s) - (mid(s) % 10))}/orders` },
  { label: "device's events", kind: 'first', path: () => `events?did=${benchDid(0)}` },
  { label: 'products', kind: 'first', path: () => 'products' },
  { label: 'products, deep page', kind: 'deep', path: () => `products?cursor=${encodeCursor(['sku-5'])}` },
  { label: 'products?available=false', kind: 'first', path: () => 'products?available=false' },
  { label: 'products?category=', kind: 'first', path: () => 'products?category=5-5-5' },
  { label: 'products?query= (name)', kind: 'first', path: () => `products?query=${encodeURIComponent('номер 1999')}` },
  { label: 'products/hidden', kind: 'first', path: () => 'products/hidden' },
  { label: 'categories (top level)', kind: 'first', path: () => 'categories' },
  { label: 'categories?parent=', kind: 'first', path: () => 'categories?parent=5' },
  { label: 'search/no-results', kind: 'first', path: () => 'search/no-results' },
  { label: 'search/no-results, deep', kind: 'deep', path: () => `search/no-results?cursor=${encodeCursor([40, 'missing 2500'])}` },
  { label: 'segments', kind: 'first', path: () => 'segments' },
  { label: 'imports', kind: 'first', path: () => 'imports' },
  { label: 'feed/imports', kind: 'first', path: () => 'feed/imports' },
  { label: 'loyalty/members', kind: 'first', path: () => 'loyalty/members' },
  { label: 'messages?email=', kind: 'first', path: (s) => `messages?email=${encodeURIComponent(benchEmail(mid(s)))}` },
  { label: 'orders (checkout)', kind: 'first', path: () => 'orders' },
  { label: 'promotions', kind: 'first', path: () => 'promotions' },
];

/** Records the SELECTs Kysely compiles while `on`, as SQLite text and parameters. */
class SelectRecorder implements KyselyPlugin {
  on = false;
  readonly queries: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  private readonly compiler = new SqliteQueryCompiler();
  transformQuery(args: PluginTransformQueryArgs) {
    if (this.on && args.node.kind === 'SelectQueryNode') {
      const compiled = this.compiler.compileQuery(args.node, args.queryId);
      this.queries.push({ sql: compiled.sql, parameters: compiled.parameters });
    }
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs) {
    return Promise.resolve(args.result);
  }
}

interface Measured {
  readonly p50: number;
  readonly p95: number;
  readonly cpuMs: number;
  readonly rows: number;
  readonly plans: string[];
  readonly scans: string[];
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function measureShop(shop: SeededShop): Promise<Map<string, Measured>> {
  const recorder = new SelectRecorder();
  const wrap = (handle: DbHandle): DbHandle => ({ ...handle, db: handle.db.withPlugin(recorder) });
  const bench = await openBenchApp(shop.file, wrap);
  const explain = new SqliteDatabase(shop.file, { readonly: true });
  const out = new Map<string, Measured>();
  try {
    for (const endpoint of ENDPOINTS) {
      const url = `/admin/v1/shops/${shop.shopId}/${endpoint.path(shop)}`;
      let rows = 0;
      const run = async (): Promise<void> => {
        const response = await bench.app.inject({ method: 'GET', url, headers: bench.headers });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        const body = response.json<Record<string, unknown>>();
        const list = Object.values(body).find(Array.isArray);
        rows = Array.isArray(list) ? list.length : 1;
      };
      // One request first, so that the caches the app fills once (shops, settings, webhooks)
      // are not counted as this list's statements.
      await run();
      recorder.queries.length = 0;
      recorder.on = true;
      await run();
      recorder.on = false;
      const plans: string[] = [];
      const scans: string[] = [];
      for (const query of recorder.queries) {
        const steps = explain.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{
          detail: string;
        }>;
        for (const { detail } of steps) {
          plans.push(detail);
          if (/^SCAN (?!CONSTANT ROW)/.test(detail)) scans.push(detail);
        }
      }
      for (let i = 0; i < 2; i++) await run();
      const times: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      const used = process.cpuUsage(cpu);
      times.sort((a, b) => a - b);
      out.set(endpoint.label, {
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        cpuMs: (used.user + used.system) / 1000 / REPEAT,
        rows,
        plans: [...new Set(plans)],
        scans: [...new Set(scans)],
      });
    }
  } finally {
    explain.close();
    await bench.close();
  }
  return out;
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  const full = await seededShop(PROFILES, PER_PROFILE);
  const base = await seededShop(BASELINE, PER_PROFILE);
  for (const shop of [full, base]) {
    const how = shop.seedSeconds === 0 ? 'from the cache' : `seeded in ${fmt(shop.seedSeconds)} s`;
    console.log(`shop: ${shop.profiles} profiles, ${shop.events} events (${how}): ${shop.file}`);
  }
  const baseline = await measureShop(base);
  const measured = await measureShop(full);

  console.log(
    `\n${REPEAT} requests each, one at a time, after 4 warm-up requests (one traced for its plans); ratio = p95 / p95 on ${BASELINE} profiles`,
  );
  console.log(
    `${'endpoint'.padEnd(36)} ${'rows'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'CPU ms'.padStart(8)} ${'ratio'.padStart(6)}  plan`,
  );
  const verdicts: string[] = [];
  for (const endpoint of ENDPOINTS) {
    const m = measured.get(endpoint.label)!;
    const b = baseline.get(endpoint.label)!;
    const plan = m.scans.length === 0 ? 'index' : `SCANS: ${m.scans.join('; ')}`;
    console.log(
      `${endpoint.label.padEnd(36)} ${String(m.rows).padStart(5)} ${fmt(m.p50, 2).padStart(8)} ${fmt(m.p95, 2).padStart(8)} ` +
        `${fmt(m.cpuMs, 2).padStart(8)} ${fmt(m.p95 / b.p95, 2).padStart(6)}  ${plan}`,
    );
    const target = endpoint.kind === 'identifier' ? 50 : 150;
    verdicts.push(`${m.p95 < target ? 'PASS' : 'MISS'}  ${endpoint.label}: p95 ${fmt(m.p95, 2)} ms < ${target} ms`);
  }
  console.log('\nquery plans (1,000,000-profile shop):');
  for (const endpoint of ENDPOINTS) console.log(`  ${endpoint.label}:\n    ${measured.get(endpoint.label)!.plans.join('\n    ')}`);
  console.log('\ntargets:');
  for (const line of verdicts) console.log(`  ${line}`);
}

await main();
