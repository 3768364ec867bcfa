import type { Kysely, Selectable } from 'kysely';
import type { Database, ProductCollectionsTable } from '../../db/types.js';
import type { Collection } from './domain/collection.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database>;
type CollectionRow = Selectable<ProductCollectionsTable>;

export interface CollectionWrite {
  readonly shopId: string;
  readonly id: string;
  readonly name: string;
  readonly productIds: readonly string[];
  readonly now: number;
}

/** Creates the collection or replaces it whole, in one statement; a replaced one keeps its created_at. */
export async function upsertCollection(db: Executor, write: CollectionWrite): Promise<Collection> {
  const row: CollectionRow = {
    shop_id: write.shopId,
    id: write.id,
    name: write.name,
    product_ids: JSON.stringify(write.productIds),
    created_at: write.now,
    updated_at: write.now,
  };
  const stored = await db
    .insertInto('product_collections')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'id']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        product_ids: eb.ref('excluded.product_ids'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return toCollection(stored);
}

export async function findCollection(db: Executor, shopId: string, id: string): Promise<Collection | undefined> {
  const row = await db.selectFrom('product_collections').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return row ? toCollection(row) : undefined;
}

export async function listCollections(db: Executor, shopId: string): Promise<Collection[]> {
  const rows = await db.selectFrom('product_collections').selectAll().where('shop_id', '=', shopId).orderBy('id').execute();
  return rows.map(toCollection);
}

export async function deleteCollection(db: Executor, shopId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('product_collections').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

function toCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    name: row.name,
    productIds: JSON.parse(row.product_ids) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
