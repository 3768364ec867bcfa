import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Cluster, missingParts } from '../test/cluster/cluster.js';
import { admin } from '../test/cluster/client.js';
import { makeDevices, type Device } from '../test/cluster/workload.js';
import { positive } from './lib/args.js';
import { runHttpLoad, type HttpLoadResult } from './lib/http-load.js';
import { buildPatron } from './lib/processes.js';
import { processCpuSeconds } from './lib/rss.js';

/**
 * `npm run bench:cluster` (issue 39, part 6): `POST /push` product views through HAProxy
 * to 1, 2 and 3 `patron serve --no-worker` processes (and one `patron worker`) on one
 * PostgreSQL server of the bench's own (test/cluster/cluster.ts), then to 3 through
 * pgbouncer in transaction pooling mode; C connections for D seconds per row. Prints
 * requests a second, the API processes' CPU per request, the whole machine's CPU per
 * request (PostgreSQL, HAProxy and the client included), and each row's ratios to the
 * first (1 process, direct). On a 2-core machine more processes add no cores: the figure
 * to read is CPU per request staying flat, which says the processes share nothing but the
 * database. A report, not a test: it exits 1 only when an answer was not a success.
 *
 *   npm run bench:cluster -- [--duration 10] [--connections 64] [--devices 500] [--pgbouncer on|off]
 */

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    devices: { type: 'string', default: '500' },
    pgbouncer: { type: 'string', default: 'on' },
  },
});
const DURATION = positive('duration', values.duration, 600);
const CONNECTIONS = Math.round(positive('connections', values.connections, 1000));
const DEVICES = Math.round(positive('devices', values.devices, 100_000));
const ADMIN_TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;

interface Row {
  readonly label: string;
  readonly load: HttpLoadResult;
  /** CPU seconds of the API processes per request, in µs. */
  readonly apiCpuUs: number;
  /** CPU seconds of the whole machine per request, in µs. */
  readonly machineCpuUs: number;
  /** PostgreSQL transactions committed per request (pg_stat_database): how well the group commits batch. */
  readonly commitsPerRequest: number;
  /** Transactions rolled back in the run (a retried conflict or deadlock shows here). */
  readonly rollbacks: number;
}

/** Busy CPU seconds of the whole machine so far (/proc/stat: every state but idle and iowait). */
function machineCpuSeconds(): number {
  const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const busy = fields.reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0);
  return busy / 100;
}

/** Transactions committed in the cluster's database so far (the statistics lag by up to a second: read after a pause). */
async function commits(cluster: Cluster): Promise<{ committed: number; rolledBack: number }> {
  await new Promise((r) => setTimeout(r, 1000));
  const client = await cluster.client();
  try {
    const { rows } = await client.query<{ c: string; r: string }>(
      'select xact_commit as c, xact_rollback as r from pg_stat_database where datname = current_database()',
    );
    return { committed: Number(rows[0]?.c ?? 0), rolledBack: Number(rows[0]?.r ?? 0) };
  } finally {
    await client.end();
  }
}

async function measure(apiNodes: number, pgbouncer: boolean): Promise<Row> {
  const label = `${apiNodes} API process${apiNodes === 1 ? '' : 'es'}${pgbouncer ? ', pgbouncer' : ''}`;
  const cluster = await Cluster.start({ apiNodes, workers: 1, pgbouncer, adminToken: ADMIN_TOKEN, env: { LOG_LEVEL: 'warn' } });
  try {
    const shop = await admin(cluster.url, ADMIN_TOKEN, 'POST', '/shops', {
      name: 'Cluster bench',
      currency: 'RUB',
      timezone: 'Europe/Moscow',
    });
    const shopId = String(shop.shop_id);
    const devices: Device[] = await makeDevices(cluster.url, shopId, DEVICES);
    const body = (seq: number): string => {
      const device = devices[seq % devices.length]!;
      return JSON.stringify({ shop_id: shopId, did: device.did, sid: device.sid, event: 'view', items: [{ id: `p${seq % 2000}` }] });
    };
    const accept = (status: number, text: string) => status === 200 && text.startsWith('{"status":"success"');
    // A warm-up, so that every process has its statements prepared and its code optimised.
    await runHttpLoad({ url: cluster.url, method: 'POST', path: '/push', body, connections: CONNECTIONS, durationSec: 2, accept });
    const pids = cluster.api.map((node) => node.process?.pid ?? -1);
    const apiBefore = pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
    const machineBefore = machineCpuSeconds();
    const commitsBefore = await commits(cluster);
    const load = await runHttpLoad({
      url: cluster.url,
      method: 'POST',
      path: '/push',
      body,
      connections: CONNECTIONS,
      durationSec: DURATION,
      accept,
    });
    const apiCpu = pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0) - apiBefore;
    const machineCpu = machineCpuSeconds() - machineBefore;
    const requests = Math.max(1, load.ok);
    const commitsAfter = await commits(cluster);
    return {
      label,
      load,
      apiCpuUs: (apiCpu * 1e6) / requests,
      machineCpuUs: (machineCpu * 1e6) / requests,
      commitsPerRequest: (commitsAfter.committed - commitsBefore.committed) / requests,
      rollbacks: commitsAfter.rolledBack - commitsBefore.rolledBack,
    };
  } finally {
    await cluster.close();
  }
}

async function main(): Promise<void> {
  const pgbouncer = values.pgbouncer !== 'off';
  const missing = missingParts({ pgbouncer });
  if (missing.length > 0) {
    console.error(`bench:cluster needs ${missing.filter((m) => !m.includes('dist/cli.js')).join(', ')}`);
    if (missing.some((m) => !m.includes('dist/cli.js'))) process.exit(1);
  }
  await buildPatron();
  console.log(
    `Cluster: POST /push views through HAProxy, ${CONNECTIONS} connections for ${DURATION} s per row, ${DEVICES} devices; ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  const rows: Row[] = [];
  for (const n of [1, 2, 3]) rows.push(await measure(n, false));
  if (pgbouncer) rows.push(await measure(3, true));
  const base = rows[0]!;
  console.log(
    '| Processes | Requests/s | ratio | API CPU per request | ratio | machine CPU per request | commits per request | rollbacks | bad answers | p99 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${row.load.perSec.toFixed(0)} | ${(row.load.perSec / base.load.perSec).toFixed(2)} | ${row.apiCpuUs.toFixed(0)} µs | ${(row.apiCpuUs / base.apiCpuUs).toFixed(2)} | ${row.machineCpuUs.toFixed(0)} µs | ${row.commitsPerRequest.toFixed(2)} | ${row.rollbacks} | ${row.load.bad} | ${row.load.p99Ms} ms |`,
    );
  }
  if (rows.some((row) => row.load.bad > 0)) {
    console.error(
      'Some answers were not a success:',
      rows.map((row) => `${row.label}: ${JSON.stringify(row.load.statusCodes)}`).join('; '),
    );
    process.exit(1);
  }
}

await main();
