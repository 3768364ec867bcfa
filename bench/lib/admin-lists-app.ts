import { buildApp, type PatronApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type DbHandle } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** The real app on a SQLite file, migrated, with a known admin token; `wrap` may decorate the handle (the plan recorder). */
export async function openBenchApp(
  file: string,
  wrap: (handle: DbHandle) => DbHandle = (handle) => handle,
  env: Record<string, string> = {},
): Promise<{ app: PatronApp; headers: { authorization: string }; close(): Promise<void> }> {
  const handle = createDb({ kind: 'sqlite', file });
  await migrateToLatest(handle);
  const config = loadConfig({ PATRON_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'silent', PATRON_RATE_LIMIT: 'off', ...env });
  const app = await buildApp({ config, db: wrap(handle), clock: systemClock, logger: false });
  await app.services.adminToken.ensure();
  return {
    app,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    async close() {
      await app.close();
      await handle.destroy();
    },
  };
}
