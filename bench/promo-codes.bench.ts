import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { benchTargets, openBenchDatabase } from './lib/postgres.js';

/**
 * `npm run bench:promo-codes` (issue 14, part 2): POST …/promotions/{id}/promo-codes/generate
 * of 100,000 codes through the whole admin API (app.inject: validation, the generation in
 * one transaction, the JSON of every code), twice into the same promotion so that the
 * second run inserts among 100,000 existing codes. On SQLite and, when one answers on
 * 127.0.0.1:5432, PostgreSQL. A report: exits 1 only when a run made the wrong count.
 *
 *   npm run bench:promo-codes -- [--count 100000] [--pattern SALE-######-????] [--only sqlite|postgres]
 */

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    pattern: { type: 'string', default: 'SALE-######-????' },
    only: { type: 'string' },
  },
});
const COUNT = Number(values.count);
if (!Number.isInteger(COUNT) || COUNT < 1 || COUNT > 100_000) throw new Error('--count must be an integer from 1 to 100000');
const TOKEN = `bench-${crypto.randomBytes(16).toString('hex')}`;

let failed = false;
for (const name of await benchTargets(values.only)) {
  const target = await openBenchDatabase(name);
  const db = createDb(target.options);
  try {
    await migrateToLatest(db);
    const config = loadConfig({ PATRON_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'silent', PATRON_RATE_LIMIT: 'off' });
    const app = await buildApp({ config, db, clock: systemClock, logger: false });
    await app.services.adminToken.ensure();
    const { shop } = await app.services.shops.createShop({ name: 'Bench shop' });
    const headers = { authorization: `Bearer ${TOKEN}` };
    const base = `/admin/v1/shops/${shop.shopId}`;
    const promotion = await app.inject({
      method: 'POST',
      url: `${base}/promotions`,
      headers,
      payload: { name: 'Bench', status: 'active', discount: { type: 'percent', value: 10 } },
    });
    const { id } = promotion.json<{ id: number }>();
    for (const run of ['empty table', 'beside 100k codes']) {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `${base}/promotions/${id}/promo-codes/generate`,
        headers,
        payload: { count: COUNT, pattern: values.pattern },
      });
      const seconds = (performance.now() - started) / 1000;
      const made = response.statusCode === 201 ? response.json<{ codes: string[] }>().codes : [];
      const ok = made.length === COUNT && new Set(made).size === COUNT;
      if (!ok) failed = true;
      console.log(
        `${name.padEnd(8)} ${run.padEnd(18)} ${COUNT} codes in ${seconds.toFixed(2)} s ` +
          `(${Math.round(COUNT / seconds)} codes/s, ${(response.rawPayload.length / 1e6).toFixed(1)} MB answer)` +
          (ok ? '' : `  WRONG: status ${response.statusCode}, ${made.length} codes`),
      );
    }
    await app.close();
  } finally {
    await db.destroy();
    await target.cleanup();
  }
}
process.exitCode = failed ? 1 : 0;
