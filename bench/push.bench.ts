import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eventsPerCommit, readCommitTotals } from './lib/commit-stats.js';
import { createCustomEventCode, createDevices, createShop, pushWorks } from './lib/fixture.js';
import { runPushLoad, type BenchDevice, type LoadResult, type PushLoadEvent } from './lib/load.js';
import { benchTargets, openBenchDatabase, type BenchDatabaseName } from './lib/postgres.js';
import { benchLimitsEnv, startBare, startPatron, type ServerProcess } from './lib/processes.js';
import { describeRun, verdicts, type TargetRun } from './lib/report.js';
import { processCpuSeconds, sampleRss } from './lib/rss.js';
import { checkStored, countStoredMarkers } from './lib/stored.js';
import { positive } from './lib/args.js';
import { sql } from 'kysely';
import { createDb, type DbOptions } from '../src/db/create-db.js';

/**
 * `npm run bench:push` (issue 3, part 7): cart events on POST /push from N connections
 * for D seconds against the real server on SQLite and, when one answers on
 * 127.0.0.1:5432, PostgreSQL; the same load against a bare Fastify app gives the
 * ceiling. Loopback only; every run is bounded in time. A report, not a test: it exits
 * 1 only when an answer was not 2xx or the stored events do not match the answers.
 * `--event custom` sends custom events to POST /push/custom instead (a code the bench
 * creates, with no loyalty reward rule: what the tracking subscribers cost when idle);
 * `--event view` sends product views with the device's session to POST /push.
 *
 *   npm run bench:push -- [--duration 10] [--connections 50] [--only sqlite|postgres] [--limits off|on]
 *                         [--warmup 2] [--devices 1000] [--event cart|view|custom] [--cpu-prof DIR] [--rollups on|off|both]
 *                         [--view-index on|off|both]
 *
 * `--rollups both` runs each database twice, with the dashboards' daily rollups off
 * (PATRON_DASHBOARD_ROLLUPS=off) and on, and prints the ratio of their CPU per event
 * (issue 36, part 8: at most 1.10).
 *
 * `--view-index off` drops events_shop_view_sid_idx (migration 0043: the partial index of
 * product views with a session, which the recommendation build reads) from the database
 * once the server has migrated it; `both` runs each database with it and then without,
 * and prints the ratios of their rates and CPU per event: what the index costs each view.
 */

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    limits: { type: 'string', default: 'off' },
    warmup: { type: 'string', default: '2' },
    devices: { type: 'string', default: '1000' },
    event: { type: 'string', default: 'cart' },
    'cpu-prof': { type: 'string' },
    rollups: { type: 'string', default: 'on' },
    'view-index': { type: 'string', default: 'on' },
  },
});
if (!['on', 'off', 'both'].includes(values.rollups)) throw new Error('--rollups must be on, off or both');
if (!['on', 'off', 'both'].includes(values['view-index'])) throw new Error('--view-index must be on, off or both');

const DURATION = positive('duration', values.duration, 600);
const CONNECTIONS = Math.round(positive('connections', values.connections, 1000));
const WARMUP = positive('warmup', values.warmup, 60);
const DEVICES = Math.round(positive('devices', values.devices, 100_000));
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;
if (values.event !== 'cart' && values.event !== 'view' && values.event !== 'custom')
  throw new Error('--event must be cart, view or custom');
const CUSTOM_CODE = 'bench_event';
const EVENT: PushLoadEvent = values.event === 'custom' ? { kind: 'custom', code: CUSTOM_CODE } : { kind: values.event };
const VIEW_INDEX = 'events_shop_view_sid_idx';

type OnOff = 'on' | 'off';

interface Measured {
  readonly load: LoadResult;
  readonly warmup: LoadResult;
  readonly peakRssMb: number | undefined;
  readonly cpuUsPerEvent: number | undefined;
  readonly eventsPerCommit: number | undefined;
}

/** Warm-up, then the measured run, sampling the server's memory throughout. */
async function measure(server: ServerProcess, shopId: string, devices: readonly BenchDevice[]): Promise<Measured> {
  const rss = sampleRss(server.pid);
  const common = { url: server.baseUrl, shopId, devices, event: EVENT, connections: CONNECTIONS };
  const warmup = await runPushLoad({ ...common, durationSec: WARMUP, markerPrefix: 'w' });
  const commitsBefore = await readCommitTotals(server.baseUrl);
  const cpuBefore = processCpuSeconds(server.pid);
  const load = await runPushLoad({ ...common, durationSec: DURATION, markerPrefix: 'm' });
  const cpuAfter = processCpuSeconds(server.pid);
  const commitsAfter = await readCommitTotals(server.baseUrl);
  const cpuUsPerEvent =
    cpuBefore === undefined || cpuAfter === undefined || load.ok === 0 ? undefined : ((cpuAfter - cpuBefore) / load.ok) * 1e6;
  return { load, warmup, peakRssMb: rss.stop(), cpuUsPerEvent, eventsPerCommit: eventsPerCommit(commitsBefore, commitsAfter) };
}

async function benchBare(): Promise<TargetRun> {
  const server = await startBare();
  try {
    const { load, peakRssMb, cpuUsPerEvent } = await measure(server, '0'.repeat(30), [{ did: '0000000000', sid: '0000000000' }]);
    return { name: 'bare', load, peakRssMb, cpuUsPerEvent };
  } finally {
    await server.stop();
  }
}

/** Drops the partial index of session views from the server's (migrated) database. */
async function dropViewIndex(options: DbOptions): Promise<void> {
  const handle = createDb(options);
  try {
    await sql`drop index ${sql.raw(VIEW_INDEX)}`.execute(handle.db);
  } finally {
    await handle.destroy();
  }
}

async function benchPatron(name: BenchDatabaseName, rollups: OnOff, viewIndex: OnOff): Promise<TargetRun> {
  const database = await openBenchDatabase(name);
  const dbOptions = database.options;
  const env = database.env;
  try {
    const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], name)}`] : [];
    const server = await startPatron(
      { ...env, PATRON_ADMIN_TOKEN: ADMIN_TOKEN, PATRON_DASHBOARD_ROLLUPS: rollups, ...benchLimitsEnv(values.limits) },
      nodeArgs,
    );
    let measured: Measured;
    let shopId: string;
    try {
      if (viewIndex === 'off') await dropViewIndex(dbOptions);
      shopId = await createShop(server.baseUrl, ADMIN_TOKEN, `Bench shop (${name})`);
      if (EVENT.kind === 'custom') await createCustomEventCode(server.baseUrl, ADMIN_TOKEN, shopId, EVENT.code);
      const devices = await createDevices(server.baseUrl, shopId, DEVICES);
      if (!(await pushWorks(server.baseUrl, shopId, devices[0]!, EVENT))) {
        throw new Error(`The ${EVENT.kind} endpoint does not answer 200 {"status":"success"} for a device from GET /init`);
      }
      measured = await measure(server, shopId, devices);
    } finally {
      const code = await server.stop();
      if (code !== 0) console.error(`patron exited with ${code}:\n${server.output()}`);
    }

    const acknowledged = new Set([...measured.warmup.acknowledged, ...measured.load.acknowledged]);
    const stored = checkStored(
      acknowledged,
      await countStoredMarkers(dbOptions, shopId, ['w', 'm'], EVENT.kind === 'custom' ? EVENT.code : undefined, EVENT.kind),
      measured.warmup.cutOff + measured.load.cutOff,
    );
    return {
      name,
      load: measured.load,
      peakRssMb: measured.peakRssMb,
      cpuUsPerEvent: measured.cpuUsPerEvent,
      eventsPerCommit: measured.eventsPerCommit,
      stored,
    };
  } finally {
    await database.cleanup();
  }
}

async function main(): Promise<number> {
  const names = await benchTargets(values.only);
  const what = { cart: 'POST /push cart events', view: 'POST /push product views', custom: 'POST /push/custom events' }[EVENT.kind];
  console.log(
    `${what}: ${CONNECTIONS} connections, ${DURATION} s after a ${WARMUP} s warm-up, ` +
      `${DEVICES} devices; ${os.cpus().length} cores, Node ${process.version}\n`,
  );

  const ceiling = await benchBare();
  console.log(describeRun(ceiling, undefined));
  const runs: TargetRun[] = [ceiling];
  const ratios: string[] = [];
  const indexRatios: string[] = [];
  const modes = (option: string): OnOff[] => (option === 'both' ? (['off', 'on'] as const).slice() : [option as OnOff]);
  for (const name of names) {
    const measured = new Map<string, TargetRun>();
    // With the index first, then without it.
    for (const viewIndex of modes(values['view-index']).reverse()) {
      for (const rollups of modes(values.rollups)) {
        const run = await benchPatron(name, rollups, viewIndex);
        runs.push(run);
        measured.set(`${rollups}/${viewIndex}`, run);
        const notes = [
          ...(values.rollups === 'both' ? [`rollups ${rollups}`] : []),
          ...(values['view-index'] !== 'on' ? [`${VIEW_INDEX} ${viewIndex === 'on' ? 'kept' : 'dropped'}`] : []),
        ];
        console.log(`${describeRun(run, ceiling)}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`);
      }
    }
    for (const viewIndex of modes(values['view-index'])) {
      const on = measured.get(`on/${viewIndex}`)?.cpuUsPerEvent;
      const off = measured.get(`off/${viewIndex}`)?.cpuUsPerEvent;
      if (on === undefined || off === undefined) continue;
      const ratio = on / off;
      ratios.push(
        `  ${ratio <= 1.1 ? 'PASS' : 'MISS'}  ${name}: CPU per event with rollups / without = ${on.toFixed(1)} / ${off.toFixed(1)} µs = ${ratio.toFixed(3)} (≤ 1.10)`,
      );
    }
    for (const rollups of modes(values.rollups)) {
      const kept = measured.get(`${rollups}/on`);
      const dropped = measured.get(`${rollups}/off`);
      if (!kept || !dropped) continue;
      const cpu =
        kept.cpuUsPerEvent === undefined || dropped.cpuUsPerEvent === undefined
          ? 'n/a'
          : `${kept.cpuUsPerEvent.toFixed(1)} / ${dropped.cpuUsPerEvent.toFixed(1)} µs = ${(kept.cpuUsPerEvent / dropped.cpuUsPerEvent).toFixed(3)}`;
      indexRatios.push(
        `  ${name}: ${EVENT.kind} events/s with the index / without = ${kept.load.eventsPerSec.toFixed(0)} / ${dropped.load.eventsPerSec.toFixed(0)} = ` +
          `${(kept.load.eventsPerSec / dropped.load.eventsPerSec).toFixed(3)}; CPU per event ${cpu}`,
      );
    }
  }

  let failed = false;
  console.log('\nTargets (issue 3, part 7):');
  for (const run of runs) {
    if (run.load.non2xx > 0 || run.load.ok === 0) {
      failed = true;
      console.log(`  FAIL  ${run.name}: ${run.load.non2xx} answers were not 2xx ${JSON.stringify(run.load.statusCodes)}`);
    }
    if (run.stored && !run.stored.ok) {
      failed = true;
      console.log(`  FAIL  ${run.name}: the stored events do not match the 2xx answers`);
    }
    for (const verdict of verdicts(run, ceiling)) console.log(`  ${verdict.pass ? 'PASS' : 'MISS'}  ${verdict.label}`);
  }
  if (ratios.length > 0) console.log(`\nThe dashboards' rollups (issue 36, part 8):\n${ratios.join('\n')}`);
  if (indexRatios.length > 0) console.log(`\nThe partial index ${VIEW_INDEX} (issue 37, part 7):\n${indexRatios.join('\n')}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
