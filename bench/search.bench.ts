import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createTestApp, type TestApp } from '../test/helpers/app.js';
import { createShopFixture } from '../test/helpers/factories.js';
import type { Dialect } from '../src/db/dialect.js';
import { writeYmlFeed } from './lib/feed-gen.js';
import { postgresAnswers } from './lib/postgres.js';

/**
 * `npm run bench:search`: the latency of GET /search through the whole app (app.inject:
 * parameters, the query, facets, the product views, the JSON), one request at a time, over
 * a generated feed of N offers (100,000 by default; bench/lib/feed-gen.ts) imported
 * through the real import, on SQLite and, when TEST_DATABASE_URL is set and answers,
 * PostgreSQL. For each query of a different selectivity it prints the median and the
 * 90th percentile of R requests after a warm-up. A report, not a test (docs/search.md).
 *
 *   npm run bench:search -- [--offers 100000] [--repeat 30] [--only sqlite|postgres]
 */

const { values } = parseArgs({
  options: {
    offers: { type: 'string', default: '100000' },
    repeat: { type: 'string', default: '30' },
    only: { type: 'string' },
  },
});

const OFFERS = Number(values.offers);
const REPEAT = Number(values.repeat);
if (!Number.isInteger(OFFERS) || OFFERS < 1 || OFFERS > 1_000_000) throw new Error('--offers must be 1 to 1000000');
if (!Number.isInteger(REPEAT) || REPEAT < 1 || REPEAT > 10_000) throw new Error('--repeat must be 1 to 10000');

/** [label, query string after shop_id]: from one match to every product. */
const QUERIES: ReadonlyArray<readonly [string, string]> = [
  ['one match (full)', 'type=full_search&search_query=VC12345'],
  ['one brand, ~1% (full)', 'type=full_search&search_query=brand%205'],
  ['~1% page 2 (full)', 'type=full_search&search_query=brand%205&page=2'],
  ['~1% filtered by a param (full)', `type=full_search&search_query=brand%205&filters=${encodeURIComponent('{"Цвет":["red"]}')}`],
  ['~1% price range (full)', 'type=full_search&search_query=brand%205&price_min=1000&price_max=20000'],
  ['every product (full)', 'type=full_search&search_query=аксессуар'],
  ['one-letter prefix, every product (instant)', 'type=instant_search&search_query=т'],
];

async function dialects(): Promise<Dialect[]> {
  const out: Dialect[] = [];
  if (values.only !== 'postgres') out.push('sqlite');
  if (values.only !== 'sqlite' && process.env.TEST_DATABASE_URL && (await postgresAnswers())) out.push('postgres');
  return out;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function measure(t: TestApp, shopId: string, query: string): Promise<{ median: number; p90: number; total: number }> {
  const url = `/search?shop_id=${shopId}&${query}`;
  let total = 0;
  const run = async () => {
    const response = await t.app.inject({ method: 'GET', url });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    total = response.json<{ products_total: number }>().products_total;
  };
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p90: percentile(times, 0.9), total };
}

async function benchDialect(dialect: Dialect, feedFile: string): Promise<void> {
  const t = await createTestApp({ dialect });
  try {
    const { shopId } = await createShopFixture(t.app.services);
    const started = performance.now();
    await t.app.services.catalog.importFeed({ shopId, format: 'yml', body: fs.readFileSync(feedFile, 'utf8'), source: 'admin' });
    console.log(`${dialect}: imported ${OFFERS} offers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const [label, query] of QUERIES) {
      const { median, p90, total } = await measure(t, shopId, query);
      console.log(
        `  ${label.padEnd(44)} ${String(total).padStart(7)} found   median ${median.toFixed(1).padStart(7)} ms   p90 ${p90.toFixed(1).padStart(7)} ms`,
      );
    }
  } finally {
    await t.close();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-search-bench-'));
try {
  const feedFile = path.join(dir, 'feed.yml');
  await writeYmlFeed(feedFile, OFFERS);
  for (const dialect of await dialects()) await benchDialect(dialect, feedFile);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
