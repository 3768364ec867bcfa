import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { createServices, type Services, type TestProbes } from '../../../src/services.js';
import type { TestDb } from '../../helpers/db.js';

export interface CatalogStack {
  readonly services: Services;
  readonly clock: ManualClock;
  readonly db: TestDb;
}

/** Real services over a test database, with a manual clock (and a test's probes, as createServices takes them). */
export function catalogStack(db: TestDb, env: Record<string, string> = {}, probes?: TestProbes): CatalogStack {
  const clock = new ManualClock();
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  return { services: createServices({ config, db, clock, ...(probes && { probes }) }), clock, db };
}

/** Every staged or served product row of a shop, by generation and id. */
export async function productRows(db: TestDb, shopId: string) {
  return db.db.selectFrom('catalog_products').selectAll().where('shop_id', '=', shopId).orderBy('generation').orderBy('id').execute();
}

export async function categoryRows(db: TestDb, shopId: string) {
  return db.db
    .selectFrom('catalog_categories')
    .selectAll()
    .where('shop_id', '=', shopId)
    .orderBy('generation')
    .orderBy('external_id')
    .execute();
}

export async function locationRows(db: TestDb, shopId: string) {
  return db.db.selectFrom('catalog_locations').selectAll().where('shop_id', '=', shopId).orderBy('generation').orderBy('id').execute();
}
