import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { adminJson } from './lib/admin-json.js';
import { SmtpPeer as Peer } from './lib/smtp-peer.js';
import { positive } from './lib/args.js';
import { runHttpLoad } from './lib/http-load.js';
import { benchTargets, openBenchDatabase, type BenchDatabaseName } from './lib/postgres.js';
import { benchLimitsEnv, startPatron, type ServerProcess } from './lib/processes.js';
import { describeServerWaits, scrapeHistograms } from './lib/server-waits.js';
import { processCpuSeconds, threadBusy } from './lib/rss.js';
import { describeBareDrift } from './lib/drift.js';

/**
 * `npm run bench:transact` (issue 16, part 8): `POST /transact` with an email mailing from
 * C connections for D seconds, delivered by Patron's job worker into a local smtp-server
 * peer this bench starts; beside a bare nodemailer pool sending the same rendered message
 * to the same peer in the same run. Targets on SQLite: delivered emails per second ≥ 0.5
 * of the bare pool's rate, the /transact answer's p99 under 20 ms, every acknowledged
 * message delivered exactly once; PostgreSQL is printed too. The delivered rate counts
 * from the first request to the last acknowledged message's arrival at the peer.
 *
 * Two runs per database on one server: at saturation (each connection sends its next
 * request as soon as the last is answered), which gives the delivered rate; and paced,
 * the same connections offering 0.5 of the bare pool's rate in all, which gives the
 * latency while the target rate is sustained. The p99 target is judged on the paced run:
 * in a closed loop at saturation the mean latency is connections / rate (Little's law),
 * so a p99 under 20 ms from 50 connections there would need some 2,500 answers a second
 * whatever the server does. A paced run that cannot keep up with the rate it is offered
 * (answers or deliveries fall behind) is a MISS. The bare pool sends again after
 * Patron's runs, and a NOTE flags a run in which the machine's speed moved by more than
 * 15 % (bench/lib/drift.ts).
 * Each run also prints how busy the server's request thread was (bench/lib/rss.ts,
 * threadBusy).
 *
 *   npm run bench:transact -- [--duration 10] [--connections 50] [--only sqlite|postgres]
 *                             [--limits off|on] [--drain 120] [--cpu-prof DIR]
 */

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    limits: { type: 'string', default: 'off' },
    drain: { type: 'string', default: '120' },
    'cpu-prof': { type: 'string' },
  },
});

const DURATION = positive('duration', values.duration, 600);
const CONNECTIONS = Math.round(positive('connections', values.connections, 1000));
const DRAIN_SEC = positive('drain', values.drain, 3600);
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;

/** A paced run keeps up when it answers and delivers at least this share of the offered rate. */
const KEEP_UP = 0.95;

interface Run {
  /** Requests a second offered in all (the paced run); undefined at saturation. */
  readonly offeredPerSec: number | undefined;
  readonly acknowledged: readonly string[];
  readonly bad: number;
  readonly p99Ms: number;
  readonly p50Ms: number;
  readonly answersPerSec: number;
  readonly deliveredPerSec: number;
  readonly duplicates: number;
  readonly missing: number;
  /** The server's CPU time (user + system) per delivered message, from the first request to the last arrival. */
  readonly cpuMsPerMessage: number;
  /** The share of the load's time the server's request thread spent on a CPU (Linux; 0..1). */
  readonly requestThreadBusy: number | undefined;
  /** What the server saw during the load (its /metrics): slow answers, fsyncs, lock waits, checkpoints. */
  readonly serverWaits: string | undefined;
}

const HTML =
  '<html><body><h1>Order {{ order }}</h1><p>Hello {{ name }}, thank you for your order of {{ total }}.</p><p><a href="https://shop.example/orders/{{ order }}">Your order</a></p></body></html>';

async function seedShop(server: ServerProcess, peer: Peer, name: string): Promise<{ shopId: string; secret: string }> {
  const shop = await adminJson(server, ADMIN_TOKEN, 'POST', '/shops', {
    name: `Transact bench (${name})`,
    currency: 'RUB',
    timezone: 'Europe/Moscow',
  });
  const shopId = String(shop.shop_id);
  await adminJson(server, ADMIN_TOKEN, 'PUT', `/shops/${shopId}/channels/email`, {
    smtp_url: `smtp://127.0.0.1:${peer.port}`,
    from: 'Bench shop <shop@bench.example>',
    // The bare pool sends unthrottled; the default vendor throttle (200 a second) would cap the server below it.
    rate_per_second: 100_000,
  });
  await adminJson(server, ADMIN_TOKEN, 'PUT', `/shops/${shopId}/mailings/transactional/order_placed`, {
    name: 'Order placed',
    email: { subject: 'Order {{ order }}', html: HTML, text: 'Order {{ order }}: {{ total }}' },
  });
  return { shopId, secret: String(shop.shop_secret) };
}

async function benchPatron(name: BenchDatabaseName, peer: Peer, pacedRate: number): Promise<Run[]> {
  const database = await openBenchDatabase(name);
  try {
    const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], name)}`] : [];
    const server = await startPatron(
      {
        ...database.env,
        PATRON_ADMIN_TOKEN: ADMIN_TOKEN,
        PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1',
        ...benchLimitsEnv(values.limits),
      },
      nodeArgs,
    );
    try {
      const shop = await seedShop(server, peer, name);
      const saturated = await load(server, shop, peer, name, undefined);
      const paced = await load(server, shop, peer, name, pacedRate);
      return [saturated, paced];
    } finally {
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }
  } finally {
    await database.cleanup();
  }
}

/** One run of D seconds: as fast as answers come (overallRate undefined), or at overallRate requests a second in all. */
async function load(
  server: ServerProcess,
  { shopId, secret }: { shopId: string; secret: string },
  peer: Peer,
  name: string,
  overallRate: number | undefined,
): Promise<Run> {
  await peer.reset();
  const acknowledged: string[] = [];
  const prefix = `${name}${overallRate === undefined ? 's' : 'p'}`;
  const metricsBefore = await scrapeHistograms(server.baseUrl);
  const cpuBefore = processCpuSeconds(server.pid) ?? 0;
  const busy = threadBusy(server.pid);
  const started = performance.now();
  const result = await runHttpLoad({
    method: 'POST',
    url: server.baseUrl,
    path: '/transact',
    connections: CONNECTIONS,
    durationSec: DURATION,
    ratePerSec: overallRate,
    body: (seq) =>
      JSON.stringify({
        shop_id: shopId,
        shop_secret: secret,
        code: 'order_placed',
        email: `buyer${seq % 5000}@bench.example`,
        variables: { order: `${prefix}-${seq}`, name: 'Ann', total: '1 290.00' },
      }),
    accept: (status, body) => {
      const code = /"code":"([^"]+)"/.exec(body)?.[1];
      if (status !== 200 || !body.startsWith('{"success":true') || !code) return false;
      acknowledged.push(code);
      return true;
    },
  });
  const requestThreadBusy = busy.stop();
  const serverWaits = describeServerWaits(metricsBefore, await scrapeHistograms(server.baseUrl), { method: 'POST', route: '/transact' });
  // Wait until the peer has every acknowledged message or the drain time passes.
  const deadline = performance.now() + DRAIN_SEC * 1000;
  while ((await peer.count()).received < acknowledged.length && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const arrived = await peer.snapshot();
  const seconds = ((arrived.lastAt || performance.now()) - started) / 1000;
  const cpuSeconds = (processCpuSeconds(server.pid) ?? 0) - cpuBefore;
  if (arrived.received < acknowledged.length && acknowledged.length > 0) {
    const log = await adminJson(server, ADMIN_TOKEN, 'GET', `/shops/${shopId}/messages?code=${acknowledged[0]}&limit=5`);
    console.error(`not every message arrived; the delivery log of the first: ${JSON.stringify(log).slice(0, 800)}`);
  }
  let duplicates = 0;
  for (const count of arrived.byKey.values()) if (count > 1) duplicates += count - 1;
  return {
    offeredPerSec: overallRate,
    acknowledged,
    bad: result.bad,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    answersPerSec: result.perSec,
    deliveredPerSec: arrived.received / seconds,
    duplicates,
    missing: Math.max(0, acknowledged.length - (arrived.received - duplicates)),
    cpuMsPerMessage: (cpuSeconds * 1000) / Math.max(1, arrived.received),
    requestThreadBusy,
    serverWaits,
  };
}

/** Whether a paced run answered and delivered what it was offered (within KEEP_UP). */
function keptUp(run: Run): boolean {
  const offered = run.offeredPerSec ?? 0;
  return run.answersPerSec >= KEEP_UP * offered && run.deliveredPerSec >= KEEP_UP * offered;
}

/** The ceiling: nodemailer's pool sending the same message as fast as the peer takes it. */
async function benchBare(peer: Peer): Promise<number> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: peer.port,
    secure: false,
    pool: true,
    maxConnections: 5,
    maxMessages: Infinity,
  });
  await peer.reset();
  const started = performance.now();
  let seq = 0;
  const until = started + DURATION * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      seq += 1;
      await transport.sendMail({
        from: 'Bench shop <shop@bench.example>',
        to: `buyer${seq % 5000}@bench.example`,
        subject: `Order bare-${seq}`,
        html: HTML.replaceAll('{{ order }}', `bare-${seq}`),
        text: `Order bare-${seq}: 1 290.00`,
      });
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const rate = (await peer.count()).received / ((performance.now() - started) / 1000);
  transport.close();
  return rate;
}

async function main(): Promise<number> {
  const names = await benchTargets(values.only);
  const peer = new Peer(/^Subject: Order ([A-Za-z0-9-]+)/m);
  await peer.start();
  console.log(
    `Transact: an email mailing, ${CONNECTIONS} connections for ${DURATION} s; ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  try {
    // First, so that the paced runs offer half of what this run measured.
    const bare = await benchBare(peer);
    console.log(`  bare nodemailer pool   ${bare.toFixed(0).padStart(6)} emails/s`);
    const runs: [BenchDatabaseName, Run[]][] = [];
    for (const name of names) {
      const [saturated, paced] = await benchPatron(name, peer, 0.5 * bare);
      runs.push([name, [saturated!, paced!]]);
      for (const run of [saturated!, paced!]) {
        const what = run.offeredPerSec === undefined ? 'saturated' : `paced ${run.offeredPerSec.toFixed(0)}/s`;
        console.log(
          `  ${`${name}, ${what}`.padEnd(22)} ${run.deliveredPerSec.toFixed(0).padStart(6)} emails/s  ${(run.deliveredPerSec / bare).toFixed(3)} of bare;` +
            ` /transact ${run.answersPerSec.toFixed(0)}/s p50 ${run.p50Ms.toFixed(1)} ms p99 ${run.p99Ms.toFixed(1)} ms;` +
            ` ${run.cpuMsPerMessage.toFixed(2)} ms CPU/message${run.requestThreadBusy === undefined ? '' : ` (request thread ${(100 * run.requestThreadBusy).toFixed(0)} % busy)`}; ${run.acknowledged.length} acknowledged, ${run.missing} missing, ${run.duplicates} twice${run.bad ? `, ${run.bad} bad answers` : ''}`,
        );
        if (run.serverWaits) console.log(`  ${''.padEnd(22)} ${run.serverWaits}`);
      }
    }
    console.log(describeBareDrift('bare nodemailer pool', bare, await benchBare(peer)));
    let failed = false;
    console.log('\nTargets (issue 16, part 8):');
    for (const [name, [saturated, paced]] of runs) {
      const exact = [saturated!, paced!].every((run) => run.missing === 0 && run.duplicates === 0 && run.bad === 0);
      if (!exact) failed = true;
      console.log(`  ${exact ? 'PASS' : 'FAIL'}  ${name}: every acknowledged message delivered exactly once`);
      if (name !== 'sqlite') continue;
      const ratio = saturated!.deliveredPerSec / bare;
      console.log(`  ${ratio >= 0.5 ? 'PASS' : 'MISS'}  delivered ${ratio.toFixed(3)} of bare at saturation (target ≥ 0.5)`);
      const kept = keptUp(paced!);
      console.log(
        `  ${kept && paced!.p99Ms < 20 ? 'PASS' : 'MISS'}  /transact p99 ${paced!.p99Ms.toFixed(1)} ms while offered 0.5 of bare (${paced!.offeredPerSec!.toFixed(0)}/s)` +
          `${kept ? '' : `, not kept up (answered ${paced!.answersPerSec.toFixed(0)}/s, delivered ${paced!.deliveredPerSec.toFixed(0)}/s)`} (target < 20 ms;` +
          ` judged paced: at saturation ${CONNECTIONS} connections in a closed loop wait ${CONNECTIONS}/rate on average, Little's law)`,
      );
    }
    return failed ? 1 : 0;
  } finally {
    await peer.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
