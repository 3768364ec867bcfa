import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { BEATS_PER_IMPORT_LEASE } from '../src/modules/catalog/import-heartbeat.js';
import { createServices } from '../src/services.js';
import { writeYmlFeed } from './lib/feed-gen.js';
import { benchTargets, openBenchDatabase } from './lib/postgres.js';

/**
 * `npm run bench:import-heartbeat` (issue 12, part 9): imports a generated YML feed of N
 * offers (100,000 by default) twice into one shop (the second import also lands over a
 * served catalog and deletes it), in this process through the catalog service with every
 * landed listener, on SQLite and, when one answers on 127.0.0.1:5432, PostgreSQL. It
 * reports the longest stretch the import's heartbeat left the catalog row unmoved (what
 * a process deciding whether the import is alive could have seen) and the longest stall
 * of the event loop, against the import lease (PATRON_JOB_LEASE_SECONDS, default 10 s)
 * and the beat interval (an eighth of it). A report, not a test.
 *
 *   npm run bench:import-heartbeat -- [--offers 100000] [--only sqlite|postgres]
 */

const { values } = parseArgs({
  options: { offers: { type: 'string', default: '100000' }, only: { type: 'string' } },
});
const OFFERS = Number(values.offers);
if (!Number.isInteger(OFFERS) || OFFERS < 1 || OFFERS > 2_000_000) throw new Error('--offers must be an integer from 1 to 2000000');

const config = loadConfig({ LOG_LEVEL: 'silent', PATRON_RATE_LIMIT: 'off', PATRON_DATA_DIR: os.tmpdir() });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-beat-'));
const file = path.join(dir, 'feed.xml');
const feed = await writeYmlFeed(file, OFFERS);
const beatMs = Math.floor(config.importLeaseMs / BEATS_PER_IMPORT_LEASE);
console.log(
  `${OFFERS} offers, ${(feed.bytes / 1024 / 1024).toFixed(1)} MiB; import lease ${config.importLeaseMs} ms, a beat every ${beatMs} ms`,
);

try {
  for (const target of await benchTargets(values.only)) {
    const bench = await openBenchDatabase(target);
    const handle = createDb(bench.options);
    try {
      await migrateToLatest(handle);
      const services = createServices({ config, db: handle, clock: systemClock });
      const { shop } = await services.shops.createShop({ name: 'Heartbeat bench' });
      for (const run of ['first import', 'second import']) {
        const loop = monitorEventLoopDelay({ resolution: 10 });
        loop.enable();
        let gapMs = 0;
        const started = performance.now();
        const result = await services.catalog.importFeed({
          shopId: shop.shopId,
          format: 'yml',
          body: fs.createReadStream(file),
          source: 'admin',
          onHeartbeatGap: (ms) => (gapMs = ms),
        });
        const seconds = (performance.now() - started) / 1000;
        loop.disable();
        console.log(
          `[${target}, ${run}] ${result.products} products in ${seconds.toFixed(2)} s; longest heartbeat gap ` +
            `${gapMs.toFixed(0)} ms (${(gapMs - beatMs).toFixed(0)} ms past the beat interval, ` +
            `${((gapMs / config.importLeaseMs) * 100).toFixed(0)}% of the lease); ` +
            `longest event-loop stall ${(loop.max / 1e6).toFixed(0)} ms`,
        );
      }
    } finally {
      await handle.destroy();
      await bench.cleanup();
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
