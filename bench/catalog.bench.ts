import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeYmlFeed, type GeneratedFeed } from './lib/feed-gen.js';
import { runHttpLoad, type HttpLoadResult } from './lib/http-load.js';
import { benchTargets, openBenchDatabase, type BenchDatabaseName } from './lib/postgres.js';
import { benchLimitsEnv, startBare, startPatron, type ServerProcess } from './lib/processes.js';
import { processCpuSeconds, sampleRss } from './lib/rss.js';
import { zipfSampler } from './lib/zipf.js';
import { positive } from './lib/args.js';

/**
 * `npm run bench:catalog` (issue 4, part 8): imports a generated YML feed of N offers
 * (100,000 by default) through `PUT /admin/v1/shops/{id}/feed` into a real server, on
 * SQLite and, when one answers on 127.0.0.1:5432, PostgreSQL, and reports offers/s and
 * the server's peak RSS during the import. Then it loads GET /products/get (rotating
 * over the whole catalog, every product as often: the worst case for any cache), the same
 * with storefront-like popularity (a Zipf distribution over the catalog), and
 * GET /products/categories, and GET /products/counters (every product as often; a report,
 * with no target), from C connections for D seconds each, and the
 * same answers from a bare Fastify app (the ceiling) in the same run. Loopback
 * only, bounded in time. The server runs with --no-worker so that the picture downloads
 * the import schedules do not run during the measurement. A report, not a test: it exits
 * 1 only when an answer was not 2xx.
 *
 *   npm run bench:catalog -- [--offers 100000] [--duration 10] [--connections 50]
 *                            [--warmup 2] [--only sqlite|postgres] [--limits off|on] [--cpu-prof DIR]
 */

const { values } = parseArgs({
  options: {
    offers: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string' },
    limits: { type: 'string', default: 'off' },
    'cpu-prof': { type: 'string' },
  },
});

const OFFERS = Math.round(positive('offers', values.offers, 2_000_000));
const DURATION = positive('duration', values.duration, 600);
const CONNECTIONS = Math.round(positive('connections', values.connections, 1000));
const WARMUP = positive('warmup', values.warmup, 60);
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;

interface Routes {
  readonly productGet: (seq: number) => string;
  readonly productGetPopular: (seq: number) => string;
  readonly categories: (seq: number) => string;
  readonly counters: (seq: number) => string;
}

/** A measured load and the server's CPU time (user + system) per answered request. */
interface ReadLoad extends HttpLoadResult {
  readonly serverCpuUs: number | undefined;
}

interface ReadRun {
  readonly product: ReadLoad;
  readonly productPopular: ReadLoad;
  readonly categories: ReadLoad;
  readonly counters: ReadLoad;
}

interface ImportRun {
  readonly seconds: number;
  readonly products: number;
  readonly peakRssMb: number | undefined;
}

const fmt = (n: number | undefined, digits = 1): string => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits));

async function measureReads(server: ServerProcess, routes: Routes): Promise<ReadRun> {
  const load = async (pathFor: (seq: number) => string): Promise<ReadLoad> => {
    await runHttpLoad({ url: server.baseUrl, method: 'GET', path: pathFor, connections: CONNECTIONS, durationSec: WARMUP });
    const cpuBefore = processCpuSeconds(server.pid);
    const result = await runHttpLoad({
      url: server.baseUrl,
      method: 'GET',
      path: pathFor,
      connections: CONNECTIONS,
      durationSec: DURATION,
    });
    const cpuAfter = processCpuSeconds(server.pid);
    const answered = result.ok + result.non2xx;
    const serverCpuUs =
      cpuBefore === undefined || cpuAfter === undefined || answered === 0 ? undefined : ((cpuAfter - cpuBefore) * 1e6) / answered;
    return { ...result, serverCpuUs };
  };
  return {
    product: await load(routes.productGet),
    productPopular: await load(routes.productGetPopular),
    categories: await load(routes.categories),
    counters: await load(routes.counters),
  };
}

async function adminJson(server: ServerProcess, method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function importFeed(server: ServerProcess, shopId: string, file: string): Promise<ImportRun> {
  const rss = sampleRss(server.pid, 100);
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/admin/v1/shops/${shopId}/feed`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': 'application/xml',
      'content-length': String(fs.statSync(file).size),
    },
    body: fs.createReadStream(file),
    duplex: 'half',
  });
  const text = await response.text();
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = rss.stop();
  if (!response.ok) throw new Error(`PUT feed answered ${response.status}: ${text.slice(0, 500)}`);
  const result = JSON.parse(text) as { products: number };
  return { seconds, products: result.products, peakRssMb };
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

interface PatronRun {
  readonly name: BenchDatabaseName;
  readonly imported: ImportRun;
  readonly reads: ReadRun;
  readonly samples: { readonly product: string; readonly categories: string; readonly counters: string };
}

async function benchPatron(name: BenchDatabaseName, feed: GeneratedFeed, feedFile: string): Promise<PatronRun> {
  const database = await openBenchDatabase(name);
  try {
    const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], name)}`] : [];
    const server = await startPatron({ ...database.env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN, ...benchLimitsEnv(values.limits) }, nodeArgs, [
      '--no-worker',
    ]);
    try {
      const shop = await adminJson(server, 'POST', '/admin/v1/shops', { name: `Catalog bench (${name})` });
      const shopId = String(shop.shop_id);
      const secret = String(shop.shop_secret);
      const imported = await importFeed(server, shopId, feedFile);
      const popular = zipfSampler(feed.offers);
      // Every product as often: a stride prime to the catalog's size visits each in turn.
      const inTurn = (seq: number) => feed.offerIds((seq * 7919) % feed.offers);
      const routes: Routes = {
        productGet: (seq) => `/products/get?shop_id=${shopId}&item_id=${inTurn(seq)}`,
        productGetPopular: () => `/products/get?shop_id=${shopId}&item_id=${feed.offerIds(popular())}`,
        categories: () => `/products/categories?shop_id=${shopId}&shop_secret=${encodeURIComponent(secret)}`,
        counters: (seq) => `/products/counters?shop_id=${shopId}&item=${inTurn(seq)}`,
      };
      const samples = {
        product: await fetchText(`${server.baseUrl}${routes.productGet(1)}`),
        categories: await fetchText(`${server.baseUrl}${routes.categories(1)}`),
        counters: await fetchText(`${server.baseUrl}${routes.counters(1)}`),
      };
      const reads = await measureReads(server, routes);
      return { name, imported, reads, samples };
    } finally {
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }
  } finally {
    await database.cleanup();
  }
}

async function benchBare(samples: PatronRun['samples'], dir: string): Promise<ReadRun> {
  const productFile = path.join(dir, 'product.json');
  const categoriesFile = path.join(dir, 'categories.json');
  const countersFile = path.join(dir, 'counters.json');
  fs.writeFileSync(productFile, samples.product);
  fs.writeFileSync(categoriesFile, samples.categories);
  fs.writeFileSync(countersFile, samples.counters);
  const server = await startBare({
    BARE_PRODUCT_FILE: productFile,
    BARE_CATEGORIES_FILE: categoriesFile,
    BARE_COUNTERS_FILE: countersFile,
  });
  try {
    return await measureReads(server, {
      productGet: () => '/products/get',
      productGetPopular: () => '/products/get',
      categories: () => '/products/categories',
      counters: () => '/products/counters',
    });
  } finally {
    await server.stop();
  }
}

function describeLoad(label: string, run: ReadLoad, ceiling: ReadLoad | undefined): string {
  const ratio = ceiling ? `, ratio ${fmt(run.perSec / ceiling.perSec, 3)} of bare` : '';
  const bad = run.non2xx > 0 || run.errors > 0 ? `; NON-2XX ${run.non2xx} ${JSON.stringify(run.statusCodes)}, errors ${run.errors}` : '';
  return (
    `  ${label.padEnd(22)} ${fmt(run.perSec, 0).padStart(7)} req/s, p50 ${fmt(run.p50Ms, 2)} ms, p99 ${fmt(run.p99Ms, 2)} ms, ` +
    `server CPU ${fmt(run.serverCpuUs, 0)} µs/req${ratio}${bad}`
  );
}

async function main(): Promise<number> {
  const names = await benchTargets(values.only);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-catalog-bench-'));
  try {
    const feedFile = path.join(dir, 'feed.xml');
    const feed = await writeYmlFeed(feedFile, OFFERS);
    console.log(
      `Catalog: a YML feed of ${feed.offers} offers in ${feed.categories} categories (${fmt(feed.bytes / 1e6)} MB); ` +
        `reads from ${CONNECTIONS} connections, ${DURATION} s each after a ${WARMUP} s warm-up; ` +
        `${os.cpus().length} cores, Node ${process.version}\n`,
    );

    const runs: PatronRun[] = [];
    for (const name of names) runs.push(await benchPatron(name, feed, feedFile));
    const first = runs[0];
    const bare = first ? await benchBare(first.samples, dir) : undefined;
    if (bare) {
      console.log('bare:');
      console.log(describeLoad('GET /products/get', bare.product, undefined));
      console.log(describeLoad('  same, popular items', bare.productPopular, undefined));
      console.log(describeLoad('GET /products/categories', bare.categories, undefined));
      console.log(describeLoad('GET /products/counters', bare.counters, undefined));
    }

    let failed = false;
    const verdicts: string[] = [];
    for (const run of runs) {
      const offersPerSec = run.imported.products / run.imported.seconds;
      console.log(`${run.name}:`);
      console.log(
        `  import                 ${run.imported.products} products in ${fmt(run.imported.seconds, 2)} s = ` +
          `${fmt(offersPerSec, 0)} offers/s, peak RSS ${fmt(run.imported.peakRssMb)} MB`,
      );
      console.log(describeLoad('GET /products/get', run.reads.product, bare?.product));
      console.log(describeLoad('  same, popular items', run.reads.productPopular, bare?.productPopular));
      console.log(describeLoad('GET /products/categories', run.reads.categories, bare?.categories));
      console.log(describeLoad('GET /products/counters', run.reads.counters, bare?.counters));
      for (const load of [run.reads.product, run.reads.productPopular, run.reads.categories, run.reads.counters]) {
        if (load.non2xx > 0 || load.ok === 0) failed = true;
      }
      if (run.imported.products !== feed.offers) failed = true;
      verdicts.push(`${offersPerSec >= 20_000 ? 'PASS' : 'MISS'}  ${run.name} import ${fmt(offersPerSec, 0)} offers/s >= 20000`);
      const rss = run.imported.peakRssMb ?? Number.NaN;
      verdicts.push(`${rss < 300 ? 'PASS' : 'MISS'}  ${run.name} import peak RSS ${fmt(rss)} MB < 300 MB`);
      if (bare) {
        for (const [label, load, ceiling] of [
          ['products/get (every product as often)', run.reads.product, bare.product],
          ['products/get (popular items)', run.reads.productPopular, bare.productPopular],
          ['categories', run.reads.categories, bare.categories],
        ] as const) {
          const ratio = load.perSec / ceiling.perSec;
          verdicts.push(`${ratio >= 0.6 ? 'PASS' : 'MISS'}  ${run.name} ${label} ratio ${fmt(ratio, 3)} >= 0.6`);
        }
      }
    }
    console.log('\nTargets (issue 4, part 8):');
    for (const line of verdicts) console.log(`  ${line}`);
    return failed ? 1 : 0;
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
