import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, RecommendationBlocksTable } from '../../db/types.js';
import { takeShopSequence } from '../../db/sequences.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type BlockRow = Selectable<RecommendationBlocksTable>;

/** The next per-shop id of `kind`, in one upsert (no read before the write). */
export async function nextId(db: Executor, shopId: string, kind: 'blocks'): Promise<number> {
  return takeShopSequence(db, 'recommendation_sequences', shopId, { column: 'kind', value: kind });
}

/** Inserts a block; false when its code is the shop's already (a concurrent PUT made it). */
export async function insertBlock(db: Executor, row: Insertable<RecommendationBlocksTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('recommendation_blocks')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Replaces a block's fields; undefined when the shop has no block of that code. */
export async function updateBlock(
  db: Executor,
  shopId: string,
  code: string,
  values: Omit<Updateable<RecommendationBlocksTable>, 'shop_id' | 'id' | 'code' | 'created_at'>,
): Promise<BlockRow | undefined> {
  return db
    .updateTable('recommendation_blocks')
    .set(values)
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirst();
}

export async function findBlock(db: Executor, shopId: string, code: string): Promise<BlockRow | undefined> {
  return db.selectFrom('recommendation_blocks').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function listBlocks(db: Executor, shopId: string): Promise<BlockRow[]> {
  return db.selectFrom('recommendation_blocks').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
}

export async function deleteBlock(db: Executor, shopId: string, code: string): Promise<boolean> {
  const deleted = await db.deleteFrom('recommendation_blocks').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
