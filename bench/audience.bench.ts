import crypto from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { audienceBody, createShopWithSegment, listImports, segmentSize, type BenchShop, type ImportEntry } from './lib/audience.js';
import { benchTargets, openBenchDatabase, type BenchDatabaseName } from './lib/postgres.js';
import { startPatron, type ServerProcess } from './lib/processes.js';
import { sampleRss } from './lib/rss.js';
import { positive } from './lib/args.js';

/**
 * `npm run bench:audience` (issue 5, part 8): 1,000,000 generated records in 10 requests
 * of 100,000 to POST /import/audience of the real server (`patron serve`, its job
 * workers in the same process), sent one after another as a client would, timed until
 * the import log says every import is done. On SQLite and, when one answers on
 * 127.0.0.1:5432, PostgreSQL. A report, not a test: bounded in time, it exits 1 only
 * when an import failed, the counts are wrong or the time ran out.
 *
 *   npm run bench:audience -- [--requests 10] [--records 100000] [--only sqlite|postgres] [--timeout 600]
 */

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10' },
    records: { type: 'string', default: '100000' },
    only: { type: 'string' },
    timeout: { type: 'string', default: '600' },
  },
});

const REQUESTS = positive('requests', values.requests, 100, true);
const RECORDS = positive('records', values.records, 100_000, true);
const TIMEOUT_MS = positive('timeout', values.timeout, 3600, true) * 1000;
if (values.only !== undefined && values.only !== 'sqlite' && values.only !== 'postgres') {
  throw new Error('--only must be sqlite or postgres');
}
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;
const TARGET_RATE = 20_000;
const TARGET_RSS_MB = 400;

interface Run {
  readonly name: 'sqlite' | 'postgres';
  readonly seconds: number;
  readonly recordsPerSec: number;
  readonly ackMs: readonly number[];
  readonly peakRssMb: number | undefined;
  readonly imports: readonly ImportEntry[];
  readonly segmentSize: number;
  readonly problems: readonly string[];
}

/** Posts the requests one after another, then polls the log until every import ended. */
async function load(server: ServerProcess, shop: BenchShop): Promise<Omit<Run, 'name' | 'peakRssMb'>> {
  const ackMs: number[] = [];
  const started = Date.now();
  for (let i = 0; i < REQUESTS; i += 1) {
    const body = audienceBody(shop, i * RECORDS, RECORDS);
    const sent = Date.now();
    const response = await fetch(`${server.baseUrl}/import/audience`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    ackMs.push(Date.now() - sent);
    if (response.status !== 200 || text !== '{"status":"success"}') {
      throw new Error(`POST /import/audience ${i + 1} answered ${response.status}: ${text.slice(0, 300)}`);
    }
  }

  let imports: ImportEntry[] = [];
  for (;;) {
    imports = await listImports(server.baseUrl, ADMIN_TOKEN, shop.shopId);
    if (imports.length === REQUESTS && imports.every((i) => i.status === 'done' || i.status === 'failed')) break;
    if (Date.now() - started > TIMEOUT_MS) throw new Error(`The imports did not end within ${TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // The log's own finish time, not the poll's.
  const finished = Math.max(...imports.map((i) => Date.parse(i.finished_at ?? '') || Date.now()));
  const seconds = (finished - started) / 1000;

  const total = REQUESTS * RECORDS;
  const expectedPeople = total - (REQUESTS - 1) * Math.floor(RECORDS / 100);
  const size = await segmentSize(server.baseUrl, ADMIN_TOKEN, shop);
  const problems: string[] = [];
  const imported = imports.reduce((n, i) => n + i.imported, 0);
  if (imports.some((i) => i.status !== 'done'))
    problems.push(`imports not done: ${JSON.stringify(imports.filter((i) => i.status !== 'done'))}`);
  if (imported !== total) problems.push(`imported ${imported} of ${total} records`);
  if (size !== expectedPeople) problems.push(`segment size ${size}, expected ${expectedPeople} distinct customers`);
  return { seconds, recordsPerSec: total / seconds, ackMs, imports, segmentSize: size, problems };
}

async function bench(name: BenchDatabaseName): Promise<Run> {
  const database = await openBenchDatabase(name);
  try {
    const server = await startPatron({ ...database.env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN });
    try {
      const shop = await createShopWithSegment(server.baseUrl, ADMIN_TOKEN, `Bench shop (${name})`);
      const rss = sampleRss(server.pid);
      const result = await load(server, shop);
      return { name, ...result, peakRssMb: rss.stop() };
    } finally {
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }
  } finally {
    await database.cleanup();
  }
}

const fmt = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function describe(run: Run): string {
  const acks = [...run.ackMs].sort((a, b) => a - b);
  return [
    `${run.name}:`,
    `  end to end   ${fmt(run.recordsPerSec)} records/s  (${REQUESTS * RECORDS} records in ${fmt(run.seconds, 1)} s, until the log said done)`,
    `  answers      median ${fmt(acks[Math.floor(acks.length / 2)] ?? NaN)} ms, max ${fmt(acks.at(-1) ?? NaN)} ms per request of ${RECORDS}`,
    `  peak RSS     ${run.peakRssMb === undefined ? 'n/a' : `${fmt(run.peakRssMb, 1)} MB`}`,
    `  segment      ${run.segmentSize} profiles`,
    ...run.problems.map((p) => `  PROBLEM      ${p}`),
  ].join('\n');
}

async function main(): Promise<number> {
  const names = await benchTargets(values.only);
  console.log(
    `POST /import/audience: ${REQUESTS} requests of ${RECORDS} records into a segment, until the log says done; ` +
      `${os.cpus().length} cores, Node ${process.version}\n`,
  );
  const runs: Run[] = [];
  for (const name of names) {
    const run = await bench(name);
    runs.push(run);
    console.log(describe(run));
  }

  console.log('\nTargets (issue 5, part 8):');
  let failed = false;
  for (const run of runs) {
    if (run.problems.length > 0) failed = true;
    if (run.name === 'sqlite') {
      console.log(`  ${run.recordsPerSec >= TARGET_RATE ? 'PASS' : 'MISS'}  sqlite ${fmt(run.recordsPerSec)} records/s >= ${TARGET_RATE}`);
      const rss = run.peakRssMb ?? Number.NaN;
      console.log(`  ${rss < TARGET_RSS_MB ? 'PASS' : 'MISS'}  sqlite peak RSS ${fmt(rss, 1)} MB < ${TARGET_RSS_MB} MB`);
    } else {
      console.log(`  info  postgres ${fmt(run.recordsPerSec)} records/s, peak RSS ${fmt(run.peakRssMb ?? Number.NaN, 1)} MB`);
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
