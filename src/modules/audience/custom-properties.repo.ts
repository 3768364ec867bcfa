import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CustomPropertiesTable, Database } from '../../db/types.js';

/** Kysely only: the custom property codes of a shop. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type CustomPropertyRow = Selectable<CustomPropertiesTable>;

/** False when the shop already has the code (the primary key decides, not a prior read). */
export async function insertProperty(db: Executor, row: CustomPropertyRow): Promise<boolean> {
  const result = await db
    .insertInto('custom_properties')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function listProperties(db: Executor, shopId: string): Promise<CustomPropertyRow[]> {
  return db.selectFrom('custom_properties').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
}

export async function countProperties(db: Executor, shopId: string): Promise<number> {
  const row = await db
    .selectFrom('custom_properties')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('shop_id', '=', shopId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteProperty(db: Executor, shopId: string, code: string): Promise<boolean> {
  const result = await db.deleteFrom('custom_properties').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
