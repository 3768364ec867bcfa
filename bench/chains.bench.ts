import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type DbHandle } from '../src/db/create-db.js';
import { adminJson } from './lib/admin-json.js';
import { positive } from './lib/args.js';
import { runHttpLoad } from './lib/http-load.js';
import { benchTargets, openBenchDatabase, type BenchDatabaseName } from './lib/postgres.js';
import { startPatron, type ServerProcess } from './lib/processes.js';
import { processCpuSeconds } from './lib/rss.js';

/**
 * `npm run bench:chains` (issue 17, part 7, the chains half): `POST /push/custom` events
 * that each start a chain (a condition on the event's variable, then a send), against
 * the same events in a shop with no chain, in the same server and run. The chain rate
 * counts from the first event to the last run's end, so it includes every step the
 * engine ran; target ≥ 0.5 of the plain rate, with every acknowledged event's run done
 * (no lost step) and one message per run.
 *
 *   npm run bench:chains -- [--duration 10] [--connections 20] [--only sqlite|postgres] [--drain 120] [--cpu-prof DIR]
 */

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    only: { type: 'string' },
    drain: { type: 'string', default: '120' },
    'cpu-prof': { type: 'string' },
  },
});

const DURATION = positive('duration', values.duration, 600);
const CONNECTIONS = Math.round(positive('connections', values.connections, 1000));
const DRAIN_SEC = positive('drain', values.drain, 3600);
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;

interface Phase {
  readonly acknowledged: number;
  readonly bad: number;
  readonly answersPerSec: number;
  /** Events per second through to the end of their runs (the plain phase: through the answers). */
  readonly completedPerSec: number;
  readonly runsDone: number;
  readonly messages: number;
  /** The server's CPU time (user + system, every thread) per stored event, from the first event to the last run's end. */
  readonly cpuMsPerEvent: number;
}

async function seedShop(server: ServerProcess, name: string, withChain: boolean): Promise<string> {
  const shop = await adminJson(server, ADMIN_TOKEN, 'POST', '/shops', { name, currency: 'RUB', timezone: 'Europe/Moscow' });
  const shopId = String(shop.shop_id);
  await adminJson(server, ADMIN_TOKEN, 'POST', `/shops/${shopId}/custom-events`, { code: 'signed_up' });
  if (withChain) {
    await adminJson(server, ADMIN_TOKEN, 'PUT', `/shops/${shopId}/chains/welcome`, {
      status: 'active',
      trigger: { event: 'signed_up' },
      reentry: 'always',
      steps: [
        { if: { variable: 'plan', equals: 'gold' }, else: 'exit' },
        { send: { email: { subject: 'Welcome {{ plan }}', html: '<p>Hi</p>' } } },
      ],
    });
  }
  return shopId;
}

async function count(db: DbHandle, shopId: string, table: 'chain_runs' | 'messaging_messages' | 'events', done: boolean): Promise<number> {
  let query = db.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('shop_id', '=', shopId);
  if (done && table === 'chain_runs') query = query.where('status', '=', 'done');
  return Number((await query.executeTakeFirstOrThrow()).n);
}

async function phase(server: ServerProcess, db: DbHandle, shopId: string, tag: string, withChain: boolean): Promise<Phase> {
  const cpuBefore = processCpuSeconds(server.pid) ?? 0;
  const started = performance.now();
  const result = await runHttpLoad({
    method: 'POST',
    url: server.baseUrl,
    path: '/push/custom',
    connections: CONNECTIONS,
    durationSec: DURATION,
    body: (seq) => JSON.stringify({ shop_id: shopId, event: 'signed_up', email: `${tag}${seq}@bench.example`, plan: 'gold' }),
    accept: (status, body) => status === 200 && body.includes('success'),
  });
  const answered = performance.now();
  // Requests in flight when the duration ended commit too: every stored event counts.
  await new Promise((r) => setTimeout(r, 500));
  const acknowledged = await count(db, shopId, 'events', false);
  let runsDone = 0;
  if (withChain) {
    const deadline = performance.now() + DRAIN_SEC * 1000;
    while ((runsDone = await count(db, shopId, 'chain_runs', true)) < acknowledged && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const seconds = ((withChain ? performance.now() : answered) - started) / 1000;
  const cpuSeconds = (processCpuSeconds(server.pid) ?? 0) - cpuBefore;
  return {
    acknowledged,
    bad: result.bad,
    answersPerSec: result.perSec,
    completedPerSec: acknowledged / seconds,
    runsDone,
    messages: withChain ? await count(db, shopId, 'messaging_messages', false) : 0,
    cpuMsPerEvent: (cpuSeconds * 1000) / Math.max(1, acknowledged),
  };
}

async function benchPatron(name: BenchDatabaseName): Promise<{ plain: Phase; chain: Phase }> {
  const database = await openBenchDatabase(name);
  try {
    const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], name)}`] : [];
    const server = await startPatron({ ...database.env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN, PATRON_SECRET_KEY: 'b'.repeat(64) }, nodeArgs);
    const db = createDb(database.options);
    try {
      const plainShop = await seedShop(server, `Chains bench, no chain (${name})`, false);
      const chainShop = await seedShop(server, `Chains bench, a chain (${name})`, true);
      const plain = await phase(server, db, plainShop, 'p', false);
      const chain = await phase(server, db, chainShop, 'c', true);
      return { plain, chain };
    } finally {
      await db.destroy();
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }
  } finally {
    await database.cleanup();
  }
}

async function main(): Promise<number> {
  const names = await benchTargets(values.only);
  console.log(
    `Chains: POST /push/custom, ${CONNECTIONS} connections for ${DURATION} s per phase; ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  let failed = false;
  const ratios: Array<[BenchDatabaseName, number]> = [];
  for (const name of names) {
    const { plain, chain } = await benchPatron(name);
    const ratio = chain.completedPerSec / plain.completedPerSec;
    ratios.push([name, ratio]);
    console.log(
      `  ${name}: no chain   ${plain.completedPerSec.toFixed(0).padStart(6)} events/s, ${plain.cpuMsPerEvent.toFixed(2)} ms CPU/event (${plain.acknowledged} events stored${plain.bad ? `, ${plain.bad} bad` : ''})`,
    );
    console.log(
      `  ${name}: a chain    ${chain.completedPerSec.toFixed(0).padStart(6)} events/s through their runs' end, ${chain.cpuMsPerEvent.toFixed(2)} ms CPU/event ` +
        `(answers ${chain.answersPerSec.toFixed(0)}/s; ${chain.acknowledged} events stored, ${chain.runsDone} runs done, ${chain.messages} messages${chain.bad ? `, ${chain.bad} bad` : ''})`,
    );
    console.log(`  ${name}: ratio      ${ratio.toFixed(3)}\n`);
    if (chain.bad > 0 || plain.bad > 0 || chain.runsDone !== chain.acknowledged || chain.messages !== chain.acknowledged) failed = true;
  }
  console.log('Targets (issue 17, part 7):');
  for (const [name, ratio] of ratios) {
    console.log(`  ${ratio >= 0.5 ? 'PASS' : 'MISS'}  ${name}: chain events ${ratio.toFixed(3)} of the plain rate (target ≥ 0.5)`);
  }
  console.log(`  ${failed ? 'FAIL' : 'PASS'}  every acknowledged event's run done with one message (no lost step)`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
