/**
 * Writes Patron's OpenAPI document (what /docs/json serves, its /admin/v1 paths) to the file named by the first
 * argument, for the admin UI's typed client (`npm run api:generate`, docs/admin-ui.md). The
 * app is built in this process, as the route tests build it, on a throwaway SQLite file.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';

const target = process.argv[2];
if (!target) {
  console.error('usage: tsx scripts/openapi-dump.ts <output.json>');
  process.exit(2);
}

const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'patron-openapi-'));
try {
  const db = createDb({ kind: 'sqlite', file: path.join(dir, 'patron.sqlite') });
  await migrateToLatest(db);
  const config = loadConfig({ PATRON_ADMIN_TOKEN: crypto.randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' }, dir);
  const app = await buildApp({ config, db, clock: new ManualClock(), logger: false });
  try {
    await app.ready();
    const answer = await app.inject({ method: 'GET', url: '/docs/json' });
    if (answer.statusCode !== 200) throw new Error(`GET /docs/json answered ${answer.statusCode}`);
    // The admin UI calls /admin/v1 alone: the public API's paths (its own contract, interface.md)
    // would only triple the generated file and its diffs.
    const document = JSON.parse(answer.body) as { paths: Record<string, unknown> };
    document.paths = Object.fromEntries(Object.entries(document.paths).filter(([route]) => route.startsWith('/admin/v1/')));
    await fs.promises.writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
  } finally {
    await app.close();
    await db.destroy();
  }
} finally {
  await fs.promises.rm(dir, { recursive: true, force: true });
}
console.log(`OpenAPI document written to ${target}`);
