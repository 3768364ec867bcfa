import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { describeReport } from '../../src/process/recommendations-evaluate.js';
import { createServices } from '../../src/services.js';
import { generateShop, LARGE_SHOP, SMALL_SHOP } from './generate-shop.js';

/**
 * `npm run recommend:evaluate` (docs/recommendations.md "Evaluation"): generates a shop
 * in a fresh SQLite file and prints the offline evaluation of it, as
 * `patron recommendations evaluate` prints a real shop's.
 *
 *   npm run recommend:evaluate -- [--size small|large] [--seed 37] [--products N] [--customers N]
 *                                 [--days N] [--test-days 14] [--file path.sqlite] [--generate-only]
 */

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: 'small' },
    seed: { type: 'string' },
    products: { type: 'string' },
    customers: { type: 'string' },
    days: { type: 'string' },
    'test-days': { type: 'string', default: '14' },
    file: { type: 'string' },
    'generate-only': { type: 'boolean', default: false },
  },
});

async function main(): Promise<void> {
  const base = values.size === 'large' ? LARGE_SHOP : SMALL_SHOP;
  const number = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number(text));
  const end = Date.UTC(2026, 2, 1);
  const spec = {
    ...base,
    seed: number(values.seed, base.seed),
    products: number(values.products, base.products),
    customers: number(values.customers, base.customers),
    days: number(values.days, base.days),
    end,
  };
  const file = values.file ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'patron-recommend-')), 'shop.sqlite');
  const db = createDb({ kind: 'sqlite', file });
  try {
    await migrateToLatest(db);
    const clock = new ManualClock();
    clock.set(end);
    const services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock });
    let started = Date.now();
    const shop = await generateShop(services, db.db, spec);
    process.stdout.write(
      `Generated shop ${shop.shopId} in ${file}: ${spec.products} products, ${shop.profiles} customers, ` +
        `${shop.events} events, ${shop.orders} orders in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
    );
    if (values['generate-only']) return;
    started = Date.now();
    const report = await services.recommendationEvaluation.evaluate(shop.shopId, { testDays: Number(values['test-days']) });
    process.stdout.write(`${describeReport(report)}Evaluated in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
    await services.tracking.drain();
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
