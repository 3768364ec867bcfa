import { parseArgs } from 'node:util';
import { SHOP_CACHE_TTL_MS } from '../src/modules/shops/shops.service.js';
import { positive } from './lib/args.js';
import { openBenchDatabase, postgresAnswers } from './lib/postgres.js';
import { startPatron, type ServerProcess } from './lib/processes.js';

/**
 * `npm run bench:settings-notify` (issue 39, part 3): how long an admin change made
 * through one API process takes to show in another's answers, on PostgreSQL, where it
 * travels as a notification (docs/settings-caches.md). Two `patron serve --no-worker` on
 * one throwaway database; N times, a shop is deactivated (or activated again) through A,
 * and from A's answer on B is asked GET /init for that shop back to back until it answers
 * the new state. Reports how many of B's first answers after A's had it already, and the
 * time from A's answer to B's first answer with it, against the shop rows' cache life
 * that bounded it before (SHOP_CACHE_TTL_MS). A report, not a test.
 *
 *   npm run bench:settings-notify -- [--changes 200]
 */

const { values } = parseArgs({ options: { changes: { type: 'string', default: '200' } } });
const CHANGES = positive('changes', values.changes, 10_000, true);
const TOKEN = 'bench-admin-token-0123456789abcdef';

if (!(await postgresAnswers())) {
  console.log('No PostgreSQL on 127.0.0.1:5432 (or BENCH_PG_URL): nothing to measure (SQLite has one API process).');
  process.exit(0);
}

const bench = await openBenchDatabase('postgres');
const servers: ServerProcess[] = [];
try {
  const env = { ...bench.env, PATRON_ADMIN_TOKEN: TOKEN, PATRON_SECRET_KEY: 'd'.repeat(64) };
  const a = await startPatron(env, [], ['--no-worker']);
  servers.push(a);
  const b = await startPatron(env, [], ['--no-worker']);
  servers.push(b);
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const created = await fetch(`${a.baseUrl}/admin/v1/shops`, { method: 'POST', headers, body: JSON.stringify({ name: 'Notify bench' }) });
  const { shop_id: shopId } = (await created.json()) as { shop_id: string };
  const statusOnB = async () => (await fetch(`${b.baseUrl}/init?shop_id=${shopId}`)).status;

  const waits: number[] = [];
  let firstAnswerHadIt = 0;
  for (let i = 0; i < CHANGES; i++) {
    const active = i % 2 === 1;
    // B holds the shop's row in its cache before each change.
    if ((await statusOnB()) !== (active ? 403 : 200)) throw new Error('B does not answer the state before the change');
    const patch = await fetch(`${a.baseUrl}/admin/v1/shops/${shopId}`, { method: 'PATCH', headers, body: JSON.stringify({ active }) });
    if (!patch.ok) throw new Error(`PATCH answered ${patch.status}`);
    const answered = performance.now();
    const expected = active ? 200 : 403;
    for (let asked = 0; ; asked++) {
      if ((await statusOnB()) === expected) {
        waits.push(performance.now() - answered);
        if (asked === 0) firstAnswerHadIt += 1;
        break;
      }
    }
  }
  waits.sort((x, y) => x - y);
  const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!;
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(`${CHANGES} admin changes through A, B asked from A's answer on:`);
  console.log(`  B's first answer after A's had the change: ${firstAnswerHadIt} of ${CHANGES}`);
  console.log(`  from A's answer to B's first answer with it: p50 ${ms(at(0.5))}, p99 ${ms(at(0.99))}, max ${ms(at(1))}`);
  console.log(
    `  the shop rows' cache life it was bounded by before: ${SHOP_CACHE_TTL_MS} ms (max / that: ${(at(1) / SHOP_CACHE_TTL_MS).toFixed(3)})`,
  );
} finally {
  for (const server of servers) await server.stop();
  await bench.cleanup();
}
