import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type DbOptions } from '../src/db/create-db.js';
import { adminJson } from './lib/admin-json.js';
import { positive } from './lib/args.js';
import { writeYmlFeed } from './lib/feed-gen.js';
import { createDevices, createShop } from './lib/fixture.js';
import { runHttpLoad, type HttpLoadResult } from './lib/http-load.js';
import { runPushLoad, type BenchDevice, type LoadResult } from './lib/load.js';
import { openBenchDatabase, postgresAnswers, type BenchDatabaseName } from './lib/postgres.js';
import { startPatron, type ServerProcess } from './lib/processes.js';
import { generateHistory, rankToProduct, type Visitor } from './lib/reco-events.js';
import { openHistoryWriter } from './lib/reco-writer.js';
import { processCpuSeconds, sampleRss } from './lib/rss.js';
import { zipfSampler } from './lib/zipf.js';

/**
 * `npm run bench:recommend` (issue 37, part 7). One shop: a generated YML feed of N
 * products (100,000 by default: 610 categories, 97 brands, two params each) and a history
 * of M events (10,000,000 by default: sessions of product views, carts, purchases with
 * their orders; Zipf popularity, products bought together; bench/lib/reco-events.ts)
 * written straight into tracking's tables while the server is stopped (not measured).
 * Then, against the real server (`node dist/cli.js serve`, job thread on):
 *
 * 1. the rebuild alone (`POST …/recommendations/rebuild`, polled until built): wall time,
 *    the build's own duration and the server process's peak RSS (VmHWM);
 * 2. POST /push cart events without a build, then while a second build runs: their rates;
 * 3. reads from C connections, D s each after a warm-up, items drawn from the same Zipf
 *    popularity: GET /products/get (the baseline), GET /recommend/pdp (also_bought →
 *    similar → popular, 10 products) with extended=true and without, GET /recommend/for_you
 *    (interesting → recently_viewed) with the did of a visitor with a history, extended;
 *    rates, server CPU per request, the ratio to /products/get; then /recommend/pdp
 *    extended paced at half of its own saturated rate (p50/p99 counted from when each
 *    request was due).
 *
 * A report, not a test: it exits 1 only when an answer was not 2xx or a build failed.
 *
 *   npm run bench:recommend -- [--products 100000] [--events 10000000] [--duration 10] [--connections 50]
 *                              [--warmup 2] [--only sqlite|postgres] [--cpu-prof DIR]
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    events: { type: 'string', default: '10000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string', default: 'sqlite' },
    'cpu-prof': { type: 'string' },
  },
});
if (values.only !== 'sqlite' && values.only !== 'postgres') throw new Error('--only must be sqlite or postgres');

const PRODUCTS = Math.round(positive('products', values.products, 1_000_000));
const EVENTS = Math.round(positive('events', values.events, 50_000_000));
const DURATION = positive('duration', values.duration, 600);
const CONNECTIONS = Math.round(positive('connections', values.connections, 1000));
const WARMUP = positive('warmup', values.warmup, 60);
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;
/** Devices from GET /init: /push sends from them; the first KNOWN have a recent history. */
const DEVICES = 1000;
const KNOWN = 200;
const PUSH_WINDOW_SEC = 1;
/** The generated feed puts product i in leaf category i mod 500 (bench/lib/feed-gen.ts). */
const CATEGORY_STRIDE = 500;
const priceOf = (i: number) => 100 + ((i * 7919) % 99_900) + 0.5;
const offerId = (i: number) => `sku-${i}`;

const fmt = (n: number | undefined, digits = 1): string => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits));
const seconds = (since: number) => (performance.now() - since) / 1000;

interface ReadLoad extends HttpLoadResult {
  readonly serverCpuUs: number | undefined;
}

interface BuildRun {
  readonly wallSec: number;
  readonly buildMs: number;
  readonly peakRssMb: number | undefined;
  readonly rssBeforeMb: number | undefined;
  readonly status: Record<string, unknown>;
}

interface PushRun {
  readonly perSec: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly p99Ms: number;
}

async function status(server: ServerProcess, shopId: string): Promise<Record<string, unknown>> {
  return adminJson(server, ADMIN_TOKEN, 'GET', `/shops/${shopId}/recommendations/status`);
}

/** Asks for a build and waits until the status shows a newer finished one. */
async function rebuild(server: ServerProcess, shopId: string): Promise<BuildRun> {
  const before = await status(server, shopId);
  const rss = sampleRss(server.pid, 100);
  const rssBeforeMb = rssNow(server.pid);
  const started = performance.now();
  await adminJson(server, ADMIN_TOKEN, 'POST', `/shops/${shopId}/recommendations/rebuild`);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await status(server, shopId);
    if (now.last_error_at !== before.last_error_at) throw new Error(`The build failed: ${String(now.last_error)}`);
    if (now.built_at !== before.built_at && now.building === false) {
      return { wallSec: seconds(started), buildMs: Number(now.duration_ms), peakRssMb: rss.stop(), rssBeforeMb, status: now };
    }
    if (seconds(started) > 1800) throw new Error('The build did not finish within 30 minutes');
  }
}

/** The rebuild jobs as the queue recorded them (a job run twice shows attempts 2). */
async function rebuildJobs(options: DbOptions): Promise<string> {
  const handle = createDb(options);
  try {
    const rows = await handle.db
      .selectFrom('jobs')
      .select(['status', 'attempts', 'last_error'])
      .where('name', '=', 'recommendations.rebuild')
      .orderBy('id')
      .execute();
    return rows.map((r) => `${r.status}/${r.attempts}${r.last_error ? ` (${r.last_error.slice(0, 80)})` : ''}`).join(', ');
  } finally {
    await handle.destroy();
  }
}

function rssNow(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function pushRate(windows: readonly LoadResult[]): PushRun {
  const ok = windows.reduce((sum, w) => sum + w.ok, 0);
  const time = windows.reduce((sum, w) => sum + w.durationSec, 0);
  return {
    perSec: time > 0 ? ok / time : 0,
    ok,
    non2xx: windows.reduce((sum, w) => sum + w.non2xx + w.errors, 0),
    p99Ms: Math.max(...windows.map((w) => w.p99Ms)),
  };
}

async function pushLoad(server: ServerProcess, shopId: string, devices: readonly BenchDevice[], durationSec: number, prefix: string) {
  return runPushLoad({
    url: server.baseUrl,
    shopId,
    devices,
    event: { kind: 'cart' },
    connections: CONNECTIONS,
    durationSec,
    markerPrefix: prefix,
  });
}

/** The rebuild again, with /push cart events sent in 1 s windows until it is done. */
async function rebuildUnderPush(server: ServerProcess, shopId: string, devices: readonly BenchDevice[]) {
  let building = true;
  const windows: LoadResult[] = [];
  const pushing = (async () => {
    while (building) windows.push(await pushLoad(server, shopId, devices, PUSH_WINDOW_SEC, `d${windows.length}-`));
  })();
  let build: BuildRun;
  try {
    build = await rebuild(server, shopId);
  } finally {
    building = false;
    await pushing;
  }
  return { build, push: pushRate(windows) };
}

async function measureRead(server: ServerProcess, pathFor: (seq: number) => string, ratePerSec?: number): Promise<ReadLoad> {
  const common = { url: server.baseUrl, method: 'GET' as const, path: pathFor, connections: CONNECTIONS };
  if (ratePerSec === undefined) await runHttpLoad({ ...common, durationSec: WARMUP });
  const cpuBefore = processCpuSeconds(server.pid);
  const result = await runHttpLoad({ ...common, durationSec: DURATION, ratePerSec });
  const cpuAfter = processCpuSeconds(server.pid);
  const answered = result.ok + result.non2xx;
  const serverCpuUs =
    cpuBefore === undefined || cpuAfter === undefined || answered === 0 ? undefined : ((cpuAfter - cpuBefore) * 1e6) / answered;
  return { ...result, serverCpuUs };
}

function describeRead(label: string, run: ReadLoad, baseline: ReadLoad | undefined): string {
  const ratio = baseline ? `, ${fmt(run.perSec / baseline.perSec, 3)} of /products/get` : '';
  const bad = run.bad > 0 ? `; BAD ${run.bad} ${JSON.stringify(run.statusCodes)}, errors ${run.errors}` : '';
  return (
    `  ${label.padEnd(36)} ${fmt(run.perSec, 0).padStart(7)} req/s, p50 ${fmt(run.p50Ms, 2)} ms, p99 ${fmt(run.p99Ms, 2)} ms, ` +
    `server CPU ${fmt(run.serverCpuUs, 0)} µs/req${ratio}${bad}`
  );
}

/** Feed, shop, devices and blocks through the API; then the history straight into the tables. */
async function prepare(name: BenchDatabaseName, database: Awaited<ReturnType<typeof openBenchDatabase>>, feedFile: string) {
  const server = await startPatron({ ...database.env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN }, [], ['--no-worker']);
  let shopId: string;
  let devices: BenchDevice[];
  try {
    shopId = await createShop(server.baseUrl, ADMIN_TOKEN, `Recommend bench (${name})`);
    const response = await fetch(`${server.baseUrl}/admin/v1/shops/${shopId}/feed`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/xml',
        'content-length': String(fs.statSync(feedFile).size),
      },
      body: fs.createReadStream(feedFile),
      duplex: 'half',
    });
    if (!response.ok) throw new Error(`PUT feed answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    devices = await createDevices(server.baseUrl, shopId, DEVICES);
    const block = (code: string, rules: unknown) =>
      adminJson(server, ADMIN_TOKEN, 'PUT', `/shops/${shopId}/recommendation-blocks/${code}`, { title: code, limit: 10, rules });
    await block('pdp', [{ recommender: 'also_bought' }, { recommender: 'similar' }, { recommender: 'popular' }]);
    await block('for_you', [{ recommender: 'interesting' }, { recommender: 'recently_viewed' }]);
  } finally {
    await server.stop();
  }

  const started = performance.now();
  const now = Date.now();
  const writer = openHistoryWriter(database.options);
  const profiles = new Map((await writer.devices(shopId)).map((v) => [v.did, v.profileId]));
  const known: Visitor[] = devices.slice(0, KNOWN).map((d) => ({ did: d.did, profileId: profiles.get(d.did)! }));
  const last = await writer.lastIds(shopId);
  await writer.begin();
  let lastEvent = last.events;
  let lastOrder = last.orders;
  let orders = 0;
  for (const chunk of generateHistory({
    products: PRODUCTS,
    events: EVENTS,
    now,
    days: 100,
    known,
    recentSessions: 10,
    firstEventId: last.events + 1,
    firstOrderId: last.orders + 1,
    offerId,
    priceOf,
    categoryStride: CATEGORY_STRIDE,
  })) {
    await writer.write(shopId, chunk.events, chunk.orders);
    lastEvent = chunk.events[chunk.events.length - 1]!.id;
    if (chunk.orders.length > 0) lastOrder = chunk.orders[chunk.orders.length - 1]!.id;
    orders += chunk.orders.length;
  }
  const writtenSec = seconds(started);
  await writer.finish(shopId, lastEvent, lastOrder);
  console.log(
    `${name}: wrote ${lastEvent - last.events} events and ${orders} orders in ${fmt(writtenSec)} s, ` +
      `indexes and analyze ${fmt(seconds(started) - writtenSec)} s (not measured)`,
  );
  return { shopId, devices, known };
}

async function benchDatabase(name: BenchDatabaseName, feedFile: string): Promise<boolean> {
  const database = await openBenchDatabase(name);
  let failed = false;
  try {
    const { shopId, devices, known } = await prepare(name, database, feedFile);
    const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], name)}`] : [];
    const server = await startPatron({ ...database.env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN }, nodeArgs);
    try {
      const alone = await rebuild(server, shopId);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const again = (await status(server, shopId)).building === true;
      console.log(
        `${name}: rebuild alone ${fmt(alone.wallSec, 1)} s${again ? ' (NOTE: another build started by itself)' : ''}; /push and the rebuild under it next`,
      );
      await pushLoad(server, shopId, devices, WARMUP, 'w');
      const cpuBefore = processCpuSeconds(server.pid);
      const quiet = pushLoad(server, shopId, devices, DURATION, 'q');
      const pushQuiet = pushRate([await quiet]);
      const cpuAfter = processCpuSeconds(server.pid);
      const during = await rebuildUnderPush(server, shopId, devices);
      console.log(`${name}: rebuild under /push ${fmt(during.build.wallSec, 1)} s; the reads next`);

      const rank = rankToProduct(PRODUCTS);
      const zipf = zipfSampler(PRODUCTS, 1, 7);
      const item = () => offerId(rank(zipf()));
      const base = `shop_id=${shopId}`;
      const productGet = await measureRead(server, () => `/products/get?${base}&item_id=${item()}`);
      const extended = await measureRead(server, () => `/recommend/pdp?${base}&item=${item()}&extended=true`);
      const bare = await measureRead(server, () => `/recommend/pdp?${base}&item=${item()}`);
      const personal = await measureRead(server, (seq) => `/recommend/for_you?${base}&did=${known[seq % known.length]!.did}&extended=true`);
      const paced = await measureRead(server, () => `/recommend/pdp?${base}&item=${item()}&extended=true`, extended.perSec * 0.5);
      const sample = await (await fetch(`${server.baseUrl}/recommend/pdp?${base}&item=${offerId(rank(0))}`)).json();

      const st = alone.status;
      console.log(`\n${name}:`);
      console.log(
        `  rebuild alone          ${fmt(alone.wallSec, 1)} s wall (the build's own ${fmt(alone.buildMs / 1000, 1)} s), ` +
          `server peak RSS ${fmt(alone.peakRssMb, 0)} MB (${fmt(alone.rssBeforeMb, 0)} MB before); ` +
          `${String(st.orders_read)} orders, ${String(st.sessions_read)} sessions, ${String(st.items_with_neighbours)} items with neighbours`,
      );
      console.log(
        `  rebuild under /push    ${fmt(during.build.wallSec, 1)} s wall (the build's own ${fmt(during.build.buildMs / 1000, 1)} s), peak RSS ${fmt(during.build.peakRssMb, 0)} MB`,
      );
      const pushCpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / pushQuiet.ok;
      console.log(
        `  /push cart, no build   ${fmt(pushQuiet.perSec, 0)} events/s (server CPU ${fmt(pushCpu, 0)} µs/event, p99 ${fmt(pushQuiet.p99Ms, 1)} ms)`,
      );
      console.log(
        `  /push cart, in build   ${fmt(during.push.perSec, 0)} events/s = ${fmt(during.push.perSec / pushQuiet.perSec, 3)} of no build ` +
          `(worst 1 s window p99 ${fmt(during.push.p99Ms, 1)} ms)`,
      );
      console.log(describeRead('GET /products/get (Zipf items)', productGet, undefined));
      console.log(describeRead('GET /recommend/pdp extended', extended, productGet));
      console.log(describeRead('GET /recommend/pdp ids', bare, productGet));
      console.log(describeRead('GET /recommend/for_you extended + did', personal, productGet));
      console.log(describeRead(`  pdp extended paced ${fmt(extended.perSec * 0.5, 0)}/s`, paced, undefined));
      console.log(`  sample: /recommend/pdp?item=${offerId(rank(0))} → ${JSON.stringify(sample).slice(0, 200)}`);

      const ratio = extended.perSec / productGet.perSec;
      console.log(`\nTargets (issue 37, part 7), ${name}:`);
      console.log(`  ${ratio >= 0.5 ? 'PASS' : 'MISS'}  /recommend extended ${fmt(ratio, 3)} of /products/get >= 0.5`);
      console.log(`  ${alone.wallSec < 60 ? 'PASS' : 'MISS'}  rebuild ${fmt(alone.wallSec, 1)} s < 60 s`);
      const rss = alone.peakRssMb ?? Number.NaN;
      console.log(`  ${rss <= 1024 ? 'PASS' : 'MISS'}  rebuild peak RSS ${fmt(rss, 0)} MB <= 1024 MB`);
      console.log(`  ${during.push.ok > 0 && during.push.non2xx === 0 ? 'PASS' : 'FAIL'}  /push answers during the rebuild`);
      for (const run of [productGet, extended, bare, personal, paced]) if (run.bad > 0 || run.ok === 0) failed = true;
      if (pushQuiet.non2xx > 0 || during.push.non2xx > 0) failed = true;
    } finally {
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }
    console.log(`  rebuild jobs: ${await rebuildJobs(database.options)}`);
  } finally {
    await database.cleanup();
  }
  return !failed;
}

async function main(): Promise<number> {
  const name = values.only as BenchDatabaseName;
  if (name === 'postgres' && !(await postgresAnswers())) throw new Error('PostgreSQL does not answer on 127.0.0.1:5432');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-recommend-bench-'));
  try {
    const feedFile = path.join(dir, 'feed.xml');
    const feed = await writeYmlFeed(feedFile, PRODUCTS);
    console.log(
      `Recommendations: ${feed.offers} products in ${feed.categories} categories, ${EVENTS} events; reads from ${CONNECTIONS} connections, ` +
        `${DURATION} s each after a ${WARMUP} s warm-up; ${os.cpus().length} cores, Node ${process.version}\n`,
    );
    return (await benchDatabase(name, feedFile)) ? 0 : 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
