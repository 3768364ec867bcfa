import type { Kysely, Selectable, Transaction } from 'kysely';
import { PreparedQuery } from '../../db/prepared-query.js';
import type { Database, ShopsTable } from '../../db/types.js';

export type Executor = Kysely<Database> | Transaction<Database>;
export type ShopRow = Selectable<ShopsTable>;

export interface ShopPatchRow {
  active?: number;
  restricted?: number;
  paid_till?: string | null;
  name?: string;
  currency?: string;
  timezone?: string;
}

export async function insertShop(db: Executor, row: ShopRow): Promise<void> {
  await db.insertInto('shops').values(row).execute();
}

// Compiled once (db/prepared-query.ts): every request signed with a shop's secret reads it.
const shopRow = new PreparedQuery(1, (db, shopId: string) => db.selectFrom('shops').selectAll().where('shop_id', '=', shopId));

export async function findShopRow(db: Executor, shopId: string): Promise<ShopRow | undefined> {
  const [row] = await shopRow.execute(db, shopId);
  return row;
}

export async function listShopRows(db: Executor): Promise<ShopRow[]> {
  return db.selectFrom('shops').selectAll().orderBy('created_at').orderBy('shop_id').execute();
}

/** Returns the updated row, or undefined when the shop does not exist. */
export async function updateShopRow(db: Executor, shopId: string, patch: ShopPatchRow, now: number): Promise<ShopRow | undefined> {
  return db
    .updateTable('shops')
    .set({ ...patch, updated_at: now })
    .where('shop_id', '=', shopId)
    .returningAll()
    .executeTakeFirst();
}

export async function updateSecretHash(db: Executor, shopId: string, secretHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('shops')
    .set({ secret_hash: secretHash, updated_at: now })
    .where('shop_id', '=', shopId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
