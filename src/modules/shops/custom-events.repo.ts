import type { Selectable } from 'kysely';
import type { CustomEventCodesTable } from '../../db/types.js';
import type { Executor } from './shops.repo.js';

export type CustomEventRow = Selectable<CustomEventCodesTable>;

/** Inserts the code; returns false when the shop already has it (unique primary key). */
export async function insertCustomEvent(db: Executor, row: CustomEventRow): Promise<boolean> {
  const result = await db
    .insertInto('custom_event_codes')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function listCustomEvents(db: Executor, shopId: string): Promise<CustomEventRow[]> {
  return db.selectFrom('custom_event_codes').selectAll().where('shop_id', '=', shopId).orderBy('code').execute();
}

export async function findCustomEvent(db: Executor, shopId: string, code: string): Promise<CustomEventRow | undefined> {
  return db.selectFrom('custom_event_codes').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function deleteCustomEvent(db: Executor, shopId: string, code: string): Promise<boolean> {
  const result = await db.deleteFrom('custom_event_codes').where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
