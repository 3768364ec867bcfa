import { sql } from 'kysely';
import type { DbHandle } from '../../src/db/create-db.js';

/** What a restored copy must hold as its source did: the demo shop's rows of key tables. */
const KEY_TABLES = ['catalog_products', 'catalog_categories', 'segments', 'promotions', 'recommendation_blocks', 'sliders'] as const;

export async function keyTableCounts(handle: DbHandle, shopId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of KEY_TABLES) {
    const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where shop_id = ${shopId}`.execute(handle.db);
    counts[table] = Number(row.rows[0]!.n);
  }
  return counts;
}

/** Every shop, by id, with its name. */
export async function shopNames(handle: DbHandle): Promise<Map<string, string>> {
  const rows = await handle.db.selectFrom('shops').select(['shop_id', 'name']).orderBy('shop_id').execute();
  return new Map(rows.map((row) => [row.shop_id, row.name]));
}
