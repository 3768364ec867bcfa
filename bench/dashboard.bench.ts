import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { openBenchApp } from './lib/admin-lists-app.js';
import { dashboardShop, MAILINGS, type DashboardShop } from './lib/dashboard-seed.js';

/**
 * `npm run bench:dashboard` (issue 36, part 8): the dashboard endpoints through the real
 * app (app.inject: auth, validation, the service, the rollups, the JSON or CSV), one
 * request at a time, on one SQLite shop of 10,000,000 events and 1,000,000 deliveries
 * whose rollups the backfill job made (bench/lib/dashboard-seed.ts; seeded once, then
 * cached under the temp dir). For each endpoint over 30 and 365 days it prints p50 and
 * p95 of R requests after a warm-up and the CPU per request. Target: p95 < 300 ms.
 * A report, not a test (docs/performance.md).
 *
 *   npm run bench:dashboard -- [--events 10000000] [--deliveries 1000000] [--repeat 50]
 */

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    deliveries: { type: 'string', default: '1000000' },
    repeat: { type: 'string', default: '50' },
  },
});
const count = (name: string, text: string, max: number): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be 1 to ${max}`);
  return n;
};
const EVENTS = count('events', values.events, 50_000_000);
const DELIVERIES = count('deliveries', values.deliveries, 10_000_000);
const REPEAT = count('repeat', values.repeat, 10_000);

const PERIODS = [
  ['30 days', 'from=2026-11-01&to=2026-11-30'],
  ['365 days', 'from=2025-12-01&to=2026-11-30'],
] as const;

const ENDPOINTS: ReadonlyArray<{ label: string; path: string }> = [
  ...PERIODS.flatMap(([period, query]) => [
    { label: `dashboard, ${period}`, path: `dashboard?${query}` },
    { label: `dashboard.csv, ${period}`, path: `dashboard.csv?${query}` },
  ]),
  { label: 'funnel, transactional', path: 'dashboard/funnels/transactional/1' },
  { label: 'funnel, chain', path: 'dashboard/funnels/chain/2' },
  { label: 'funnel, bulk', path: `dashboard/funnels/bulk/${MAILINGS}` },
  { label: 'funnel.csv, bulk', path: `dashboard/funnels/bulk/${MAILINGS}.csv` },
];

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function measure(shop: DashboardShop): Promise<void> {
  const bench = await openBenchApp(shop.file);
  const verdicts: string[] = [];
  try {
    console.log(`\n${REPEAT} requests each, one at a time, after 3 warm-up requests`);
    console.log(`${'endpoint'.padEnd(28)} ${'bytes'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'CPU ms'.padStart(8)}`);
    for (const endpoint of ENDPOINTS) {
      const url = `/admin/v1/shops/${shop.shopId}/${endpoint.path}`;
      let bytes = 0;
      const run = async (): Promise<void> => {
        const response = await bench.app.inject({ method: 'GET', url, headers: bench.headers });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        bytes = response.rawPayload.length;
      };
      for (let i = 0; i < 3; i++) await run();
      const times: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < REPEAT; i++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      const used = process.cpuUsage(cpu);
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 0.95);
      console.log(
        `${endpoint.label.padEnd(28)} ${String(bytes).padStart(8)} ${fmt(percentile(times, 0.5), 2).padStart(8)} ${fmt(p95, 2).padStart(8)} ` +
          `${fmt((used.user + used.system) / 1000 / REPEAT, 2).padStart(8)}`,
      );
      verdicts.push(`${p95 < 300 ? 'PASS' : 'MISS'}  ${endpoint.label}: p95 ${fmt(p95, 2)} ms < 300 ms`);
    }
    const counted = await bench.app.inject({
      method: 'GET',
      url: `/admin/v1/shops/${shop.shopId}/dashboard?${PERIODS[1][1]}`,
      headers: bench.headers,
    });
    const totals = counted.json<{ totals: { events_total: number; messages: Record<string, { sent: number }> } }>().totals;
    const sent = Object.values(totals.messages).reduce((sum, c) => sum + c.sent, 0);
    console.log(
      `\nthe 365-day dashboard counts ${totals.events_total} events and ${sent} deliveries (the shop holds ${shop.events} and ${shop.deliveries})`,
    );
  } finally {
    await bench.close();
  }
  console.log('\ntargets (issue 36, part 8):');
  for (const line of verdicts) console.log(`  ${line}`);
}

async function main(): Promise<void> {
  const shop = await dashboardShop(EVENTS, DELIVERIES);
  const how =
    shop.seedSeconds === 0
      ? 'from the cache'
      : `raw rows seeded in ${fmt(shop.seedSeconds)} s, rollups made by the backfill in ${fmt(shop.backfillSeconds)} s ` +
        `(${fmt((shop.events + shop.deliveries) / shop.backfillSeconds / 1000, 0)}k rows/s)`;
  console.log(`shop: ${shop.events} events, ${shop.deliveries} deliveries (${how}): ${shop.file}`);
  await measure(shop);
}

await main();
