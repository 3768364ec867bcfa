import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp, type PatronApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createDb, type DbHandle } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { benchTargets, openBenchDatabase, type BenchDatabase } from './lib/postgres.js';

/**
 * `npm run bench:audit` (issue 35): what the audit log costs a hot admin data write.
 * POST …/loyalty/members/{identifier}/bonuses (a manual bonus credit: a ledger write,
 * durable before its answer) through the whole admin API (app.inject), `--concurrency`
 * at a time, on two apps in the same run: one with the audit log (each credit also
 * writes its entry before answering), one with PATRON_AUDIT_LOG=off (the baseline). The
 * two alternate in rounds, so that the machine's drift falls on both alike. Prints each
 * side's credits a second and CPU per credit, and their ratio. On SQLite and, when one
 * answers on 127.0.0.1:5432, PostgreSQL. A report: exits 1 only when a credit failed or
 * an entry is missing.
 *
 *   npm run bench:audit -- [--credits 2000] [--rounds 4] [--concurrency 16] [--only sqlite|postgres]
 */

const { values } = parseArgs({
  options: {
    credits: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    only: { type: 'string' },
  },
});
const CREDITS = Number(values.credits);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const MEMBERS = 100;
const TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;
const headers = { authorization: `Bearer ${TOKEN}` };

interface Side {
  readonly label: string;
  readonly app: PatronApp;
  readonly db: DbHandle;
  readonly target: BenchDatabase;
  readonly base: string;
  seconds: number;
  cpuMicros: number;
  credits: number;
}

async function openSide(name: 'sqlite' | 'postgres', label: string, audit: boolean): Promise<Side> {
  const target = await openBenchDatabase(name);
  const db = createDb(target.options);
  await migrateToLatest(db);
  const config = loadConfig({
    PATRON_ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: 'silent',
    PATRON_RATE_LIMIT: 'off',
    PATRON_AUDIT_LOG: audit ? 'on' : 'off',
    ...target.env,
  });
  const app = await buildApp({ config, db, clock: systemClock, logger: false });
  await app.services.adminToken.ensure();
  const { shop } = await app.services.shops.createShop({ name: 'Bench shop' });
  const base = `/admin/v1/shops/${shop.shopId}/loyalty/members`;
  for (let i = 0; i < MEMBERS; i++) {
    const created = await app.inject({ method: 'POST', url: base, headers, payload: { phone: phone(i) } });
    if (created.statusCode !== 201) throw new Error(`member ${i}: ${created.statusCode} ${created.body}`);
  }
  return { label, app, db, target, base, seconds: 0, cpuMicros: 0, credits: 0 };
}

function phone(i: number): string {
  return `7907${String(i).padStart(7, '0')}`;
}

/** CREDITS credits, CONCURRENCY in flight; the wall time and the process's CPU time they took. */
async function runRound(side: Side): Promise<boolean> {
  let next = 0;
  let ok = true;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < CREDITS) {
      const i = next++;
      const response = await side.app.inject({
        method: 'POST',
        url: `${side.base}/${phone(i % MEMBERS)}/bonuses`,
        headers,
        payload: { amount: 1, reason: `bench credit ${i}` },
      });
      if (response.statusCode !== 201) ok = false;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  side.seconds += (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  side.cpuMicros += used.user + used.system;
  side.credits += CREDITS;
  return ok;
}

let failed = false;
for (const name of await benchTargets(values.only)) {
  const baseline = await openSide(name, 'audit off', false);
  const audited = await openSide(name, 'audit on', true);
  try {
    // One round each unmeasured: JIT, statement caches, the first pages of each table.
    await runRound(baseline);
    await runRound(audited);
    for (const side of [baseline, audited]) Object.assign(side, { seconds: 0, cpuMicros: 0, credits: 0 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? [baseline, audited] : [audited, baseline]) {
        if (!(await runRound(side))) failed = true;
      }
    }
    const entries = await audited.db.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'loyalty.member.bonuses.credit')
      .executeTakeFirstOrThrow();
    const expected = CREDITS * (ROUNDS + 1);
    if (Number(entries.n) !== expected) failed = true;
    const rate = (side: Side) => side.credits / side.seconds;
    const cpuPer = (side: Side) => side.cpuMicros / side.credits;
    for (const side of [baseline, audited]) {
      console.log(
        `${name.padEnd(8)} ${side.label.padEnd(9)} ${side.credits} credits, ${CONCURRENCY} at a time: ` +
          `${Math.round(rate(side))} credits/s, ${cpuPer(side).toFixed(0)} µs CPU per credit`,
      );
    }
    console.log(
      `${name.padEnd(8)} ratio     throughput with/without the audit log ${(rate(audited) / rate(baseline)).toFixed(2)}, ` +
        `CPU per credit ${(cpuPer(audited) / cpuPer(baseline)).toFixed(2)}x ` +
        `(+${(cpuPer(audited) - cpuPer(baseline)).toFixed(0)} µs); entries ${entries.n} of ${expected}`,
    );
  } finally {
    for (const side of [baseline, audited]) {
      await side.app.close();
      await side.db.destroy();
      await side.target.cleanup();
    }
  }
}
process.exitCode = failed ? 1 : 0;
