import type { Selectable, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

/** The tables of what an order holds of codes and certificates: one row per order and code, each with a status. */
export type HeldRowTable = 'promo_code_uses' | 'certificate_holds';
export type HeldRow<T extends HeldRowTable> = Selectable<Database[T]>;
export type HeldRowStatus<T extends HeldRowTable> = Database[T]['status'];

/**
 * Moves the order's rows (all, or of one code) from `from` to `to`: the conditional
 * UPDATE that settles each row once however often or concurrently it is asked. Answers
 * the rows it moved.
 */
export async function moveHeldRows<T extends HeldRowTable>(
  trx: Transaction<Database>,
  table: T,
  shopId: string,
  orderId: string,
  from: HeldRowStatus<T>,
  to: HeldRowStatus<T>,
  now: number,
  code?: string,
): Promise<HeldRow<T>[]> {
  // Kysely types a query of one table; both tables have the columns this one touches.
  const db = trx as unknown as Transaction<Pick<Database, HeldRowTable>>;
  const either: HeldRowTable = table;
  let query = db
    .updateTable(either)
    .set({ status: to, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', from);
  if (code !== undefined) query = query.where('code', '=', code);
  return (await query.returningAll().execute()) as HeldRow<T>[];
}
