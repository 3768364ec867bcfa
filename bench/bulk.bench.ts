import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { adminJson } from './lib/admin-json.js';
import { SmtpPeer as Peer } from './lib/smtp-peer.js';
import { positive } from './lib/args.js';
import { benchTargets, openBenchDatabase, type BenchDatabaseName } from './lib/postgres.js';
import { startPatron, type ServerProcess } from './lib/processes.js';
import { processCpuSeconds, sampleRss } from './lib/rss.js';

/**
 * `npm run bench:bulk` (issue 17, part 7): a segment of N profiles (100,000 unless
 * `--members` or BENCH_BULK_MEMBERS says fewer) mailed by one bulk mailing through
 * Patron's worker into a local smtp-server peer, beside a bare nodemailer pool sending the
 * same N messages to the same peer in the same run. Targets: Patron's rate ≥ 0.6 of the
 * bare pool's, every member mailed exactly once, the server's peak RSS under 400 MB while
 * it mails. The segment is imported first by a server that is then restarted, so the peak
 * is the mailing's own. The rate counts from the POST to the last message's arrival.
 *
 *   npm run bench:bulk -- [--members 100000] [--only sqlite|postgres] [--drain 1800] [--cpu-prof DIR]
 */

const { values } = parseArgs({
  options: {
    members: { type: 'string', default: process.env.BENCH_BULK_MEMBERS ?? '100000' },
    only: { type: 'string' },
    drain: { type: 'string', default: '1800' },
    'cpu-prof': { type: 'string' },
  },
});

const MEMBERS = Math.round(positive('members', values.members, 1_000_000));
const DRAIN_SEC = positive('drain', values.drain, 7200);
const IMPORT_CHUNK = 10_000;
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;
const SUBJECT = 'Autumn sale';
const HTML =
  '<html><body><h1>Autumn sale</h1><p>Everything at 30% off until Sunday.</p><p><a href="https://shop.example/sale">See the sale</a></p></body></html>';

interface Run {
  readonly perSec: number;
  readonly received: number;
  readonly missing: number;
  readonly twice: number;
  readonly peakRssMb: number | undefined;
  /** The server's CPU time (user + system, every thread) per email received, from the POST to the last arrival. */
  readonly cpuMsPerEmail: number;
  readonly view: Record<string, unknown>;
}

function address(n: number): string {
  return `member${n}@bench.example`;
}

/** The segment: N profiles with an email, imported in chunks, waited for until the segment holds them all. */
async function seed(server: ServerProcess, peer: Peer, name: string): Promise<{ shopId: string; segmentId: number }> {
  const shop = await adminJson(server, ADMIN_TOKEN, 'POST', '/shops', {
    name: `Bulk bench (${name})`,
    currency: 'RUB',
    timezone: 'Europe/Moscow',
  });
  const shopId = String(shop.shop_id);
  await adminJson(server, ADMIN_TOKEN, 'PUT', `/shops/${shopId}/channels/email`, {
    smtp_url: `smtp://127.0.0.1:${peer.port}`,
    from: 'Bench shop <shop@bench.example>',
    rate_per_second: 100_000,
  });
  const segment = await adminJson(server, ADMIN_TOKEN, 'POST', `/shops/${shopId}/segments`, { name: 'Everyone' });
  const segmentId = Number(segment.id);
  for (let from = 0; from < MEMBERS; from += IMPORT_CHUNK) {
    const count = Math.min(IMPORT_CHUNK, MEMBERS - from);
    const audience = Array.from({ length: count }, (_, i) => ({ email: address(from + i), first_name: 'Ann' }));
    const r = await fetch(`${server.baseUrl}/import/audience`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop_id: shopId, shop_secret: shop.shop_secret, segment_id: segmentId, audience }),
    });
    if (!r.ok) throw new Error(`import answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  }
  for (let size = 0; size < MEMBERS; ) {
    size = Number((await adminJson(server, ADMIN_TOKEN, 'GET', `/shops/${shopId}/segments/${segmentId}`)).size);
    if (size < MEMBERS) await new Promise((r) => setTimeout(r, 500));
  }
  return { shopId, segmentId };
}

async function benchPatron(name: BenchDatabaseName, peer: Peer): Promise<Run> {
  const database = await openBenchDatabase(name);
  const env = { ...database.env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN, PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' };
  try {
    const importer = await startPatron(env);
    let seeded;
    try {
      seeded = await seed(importer, peer, name);
    } finally {
      await importer.stop();
    }
    // Only the mailing's server is profiled, not the importer's.
    const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], name)}`] : [];
    const server = await startPatron(env, nodeArgs);
    try {
      await peer.reset();
      const rss = sampleRss(server.pid);
      const cpuBefore = processCpuSeconds(server.pid) ?? 0;
      const started = performance.now();
      const mailing = await adminJson(server, ADMIN_TOKEN, 'POST', `/shops/${seeded.shopId}/mailings/bulk`, {
        name: 'Bench',
        segment_ids: [seeded.segmentId],
        email: { subject: SUBJECT, html: HTML },
      });
      const deadline = performance.now() + DRAIN_SEC * 1000;
      while ((await peer.count()).received < MEMBERS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const arrived = await peer.snapshot();
      const seconds = ((arrived.lastAt || performance.now()) - started) / 1000;
      const cpuSeconds = (processCpuSeconds(server.pid) ?? 0) - cpuBefore;
      let view = await adminJson(server, ADMIN_TOKEN, 'GET', `/shops/${seeded.shopId}/mailings/bulk/${String(mailing.id)}`);
      // The last `sent` commits a moment after the peer took the message.
      for (let i = 0; i < 50 && view.status !== 'done'; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        view = await adminJson(server, ADMIN_TOKEN, 'GET', `/shops/${seeded.shopId}/mailings/bulk/${String(mailing.id)}`);
      }
      const peakRssMb = rss.stop();
      let twice = 0;
      for (const count of arrived.byKey.values()) if (count > 1) twice += 1;
      let missing = 0;
      for (let n = 0; n < MEMBERS; n += 1) if (!arrived.byKey.has(address(n))) missing += 1;
      const { received } = arrived;
      return {
        perSec: received / seconds,
        received,
        missing,
        twice,
        peakRssMb,
        cpuMsPerEmail: (cpuSeconds * 1000) / Math.max(1, received),
        view,
      };
    } finally {
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }
  } finally {
    await database.cleanup();
  }
}

/** The ceiling: nodemailer's pool sending the same N messages to the same peer. */
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
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < MEMBERS) {
      const n = next;
      next += 1;
      await transport.sendMail({ from: 'Bench shop <shop@bench.example>', to: address(n), subject: SUBJECT, html: HTML });
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  const rate = (await peer.count()).received / ((performance.now() - started) / 1000);
  transport.close();
  return rate;
}

async function main(): Promise<number> {
  const names = await benchTargets(values.only);
  const peer = new Peer();
  await peer.start();
  console.log(`Bulk: one mailing to a segment of ${MEMBERS} profiles; ${os.cpus().length} cores, Node ${process.version}\n`);
  try {
    const runs: [BenchDatabaseName, Run][] = [];
    for (const name of names) runs.push([name, await benchPatron(name, peer)]);
    const bare = await benchBare(peer);
    console.log(`  bare nodemailer pool   ${bare.toFixed(0).padStart(6)} emails/s`);
    let failed = false;
    for (const [name, run] of runs) {
      console.log(
        `  ${name.padEnd(22)} ${run.perSec.toFixed(0).padStart(6)} emails/s  ${(run.perSec / bare).toFixed(3)} of bare, ${run.cpuMsPerEmail.toFixed(2)} ms CPU/email;` +
          ` ${run.received} received, ${run.missing} missing, ${run.twice} twice; peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB;` +
          ` mailing ${JSON.stringify({ status: run.view.status, recipients: run.view.recipients, sent: run.view.sent, skipped: run.view.skipped, failed: run.view.failed })}`,
      );
      if (run.missing > 0 || run.twice > 0) failed = true;
    }
    console.log('\nTargets (issue 17, part 7):');
    for (const [name, run] of runs) {
      const ratio = run.perSec / bare;
      console.log(`  ${run.missing === 0 && run.twice === 0 ? 'PASS' : 'FAIL'}  ${name}: every member mailed exactly once`);
      console.log(`  ${ratio >= 0.6 ? 'PASS' : 'MISS'}  ${name}: ${ratio.toFixed(3)} of bare (target ≥ 0.6)`);
      console.log(
        `  ${(run.peakRssMb ?? Infinity) < 400 ? 'PASS' : 'MISS'}  ${name}: peak RSS ${run.peakRssMb?.toFixed(0) ?? '?'} MB (target < 400 MB)`,
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
