import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, NpsCategoriesTable, NpsChannelsTable } from '../../db/types.js';

/** Kysely only: NPS channels and categories, every statement scoped by shop_id. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type ChannelRow = Selectable<NpsChannelsTable>;
export type CategoryRow = Selectable<NpsCategoriesTable>;

/** Creates the channel or replaces its name (created_at stays the first). */
export async function upsertChannel(db: Executor, row: Insertable<NpsChannelsTable>): Promise<ChannelRow> {
  return db
    .insertInto('nps_channels')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doUpdateSet({ name: row.name, updated_at: row.updated_at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listChannels(db: Executor, shopId: string): Promise<ChannelRow[]> {
  return db.selectFrom('nps_channels').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
}

export async function findChannel(db: Executor, shopId: string, code: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('nps_channels').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function deleteChannel(db: Executor, shopId: string, code: string): Promise<boolean> {
  const deleted = await db.deleteFrom('nps_channels').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Creates the category or replaces its fields whole (created_at stays the first). */
export async function upsertCategory(db: Executor, row: Insertable<NpsCategoriesTable>): Promise<CategoryRow> {
  const { shop_id: _shop, code: _code, created_at: _created, ...fields } = row;
  return db
    .insertInto('nps_categories')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doUpdateSet(fields))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listCategories(db: Executor, shopId: string): Promise<CategoryRow[]> {
  return db.selectFrom('nps_categories').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
}

export async function findCategory(db: Executor, shopId: string, code: string): Promise<CategoryRow | undefined> {
  return db.selectFrom('nps_categories').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function deleteCategory(db: Executor, shopId: string, code: string): Promise<boolean> {
  const deleted = await db.deleteFrom('nps_categories').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
