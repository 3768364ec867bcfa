import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { PreparedQuery } from '../../db/prepared-query.js';
import type { CheckoutOrdersTable, CheckoutOrderStatus, Database } from '../../db/types.js';

/** Kysely only: the checkout's orders (docs/checkout.md); the holds are read and written by the modules that own them. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type OrderRow = Selectable<CheckoutOrdersTable>;

// Compiled once (db/prepared-query.ts): every apply, confirm and cancel reads it first.
const orderRow = new PreparedQuery(2, (db, shopId: string, orderId: string) =>
  db.selectFrom('checkout_orders').selectAll().where('shop_id', '=', shopId).where('order_id', '=', orderId),
);

export async function findOrder(db: Executor, shopId: string, orderId: string): Promise<OrderRow | undefined> {
  return (await orderRow.execute(db, shopId, orderId))[0];
}

const ORDER_COLUMNS = [
  'shop_id',
  'order_id',
  'profile_id',
  'identifier',
  'status',
  'request',
  'result',
  'bonus_hold_id',
  'reward_transaction_id',
  'steps_done',
  'order_total',
  'order_to_pay',
  'bonuses_charged',
  'bonuses_reward',
  'subscription',
  'created_at',
  'updated_at',
  'completed_at',
  'cancelled_at',
] as const satisfies readonly (keyof OrderRow)[];
// Every column of the row is written: a column added to the table must be added above.
const everyColumn: Exclude<keyof OrderRow, (typeof ORDER_COLUMNS)[number]> extends never ? true : never = true;

// Compiled once (db/prepared-query.ts): building a 19-column insert cost more than SQLite spends running it.
const orderInsert = new PreparedQuery(ORDER_COLUMNS.length, (db, ...values: unknown[]) =>
  db
    .insertInto('checkout_orders')
    .values(Object.fromEntries(ORDER_COLUMNS.map((column, i) => [column, values[i]])) as unknown as OrderRow)
    .onConflict((oc) => oc.columns(['shop_id', 'order_id']).doNothing())
    .returning('order_id'),
);

/** A new order; false when the order id is taken (another apply got there first). */
export async function insertOrder(db: Executor, row: OrderRow): Promise<boolean> {
  return everyColumn && (await orderInsert.execute(db, ...ORDER_COLUMNS.map((column) => row[column]))).length > 0;
}

/** A repeat apply: the order's calculation and holds are replaced while it is still created. */
export async function replaceCreated(
  db: Executor,
  shopId: string,
  orderId: string,
  fields: Pick<
    OrderRow,
    | 'profile_id'
    | 'identifier'
    | 'request'
    | 'result'
    | 'bonus_hold_id'
    | 'order_total'
    | 'order_to_pay'
    | 'bonuses_charged'
    | 'bonuses_reward'
    | 'subscription'
    | 'updated_at'
  >,
): Promise<boolean> {
  const result = await db
    .updateTable('checkout_orders')
    .set(fields)
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', 'created')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The one conditional UPDATE that moves an order between statuses: it happens once
 * however often or concurrently it is asked, and only from the status given.
 */
export async function moveStatus(
  db: Executor,
  shopId: string,
  orderId: string,
  from: CheckoutOrderStatus,
  to: CheckoutOrderStatus,
  now: number,
): Promise<OrderRow | undefined> {
  return db
    .updateTable('checkout_orders')
    .set({
      status: to,
      steps_done: 0,
      updated_at: now,
      ...(to === 'completed' && { completed_at: now }),
      ...(to === 'cancelled' && { cancelled_at: now }),
    })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Locks the order's row for the rest of the transaction while it is in `status`, and
 * answers it as it is now (a confirm or cancel finishing its steps: the row it read
 * before may be stale). Undefined when the order is in another status.
 */
export async function lockOrder(db: Executor, shopId: string, orderId: string, status: CheckoutOrderStatus): Promise<OrderRow | undefined> {
  return db
    .updateTable('checkout_orders')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', status)
    .returningAll()
    .executeTakeFirst();
}

/** The apply's bonus hold, once placed (the order row is written first, to lock it before the holds). */
// Compiled once (db/prepared-query.ts): every apply that holds bonuses runs it.
const bonusHoldSet = new PreparedQuery(3, (db, shopId: string, orderId: string, bonusHoldId: number | null) =>
  db
    .updateTable('checkout_orders')
    .set({ bonus_hold_id: bonusHoldId })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', sql.lit<CheckoutOrderStatus>('created')),
);

export async function setBonusHold(db: Executor, shopId: string, orderId: string, bonusHoldId: number | null): Promise<void> {
  await bonusHoldSet.run(db, shopId, orderId, bonusHoldId);
}

export async function markStepsDone(
  db: Executor,
  shopId: string,
  orderId: string,
  status: CheckoutOrderStatus,
  now: number,
): Promise<void> {
  await db
    .updateTable('checkout_orders')
    .set({ steps_done: 1, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', status)
    .execute();
}

/** Records the reward credit once: false when the order already has one or is no longer completed. */
export async function claimReward(trx: Transaction<Database>, shopId: string, orderId: string, transactionId: number): Promise<boolean> {
  const result = await trx
    .updateTable('checkout_orders')
    .set({ reward_transaction_id: transactionId })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', 'completed')
    .where('reward_transaction_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A member's orders, newest first (the index shop_id, profile_id, created_at). */
export async function listMemberOrders(db: Executor, shopId: string, profileId: number, limit: number): Promise<OrderRow[]> {
  return db
    .selectFrom('checkout_orders')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('created_at', 'desc')
    .orderBy('order_id', 'desc')
    .limit(limit)
    .execute();
}

/** GET /loyalty/subscriptions/orders: a member's orders computed with the subscription, newest first, within [from, to). */
export async function listSubscriptionOrders(
  db: Executor,
  shopId: string,
  filter: { subscription: string; profileId: number; from: number | undefined; to: number | undefined; limit: number },
) {
  let query = db
    .selectFrom('checkout_orders')
    .select(['order_id', 'status', 'result', 'created_at'])
    .where('shop_id', '=', shopId)
    .where('subscription', '=', filter.subscription)
    .where('profile_id', '=', filter.profileId);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  return query.orderBy('created_at', 'desc').orderBy('order_id', 'desc').limit(filter.limit).execute();
}

export interface OrderFilter {
  readonly status?: CheckoutOrderStatus | undefined;
  readonly profileId?: number | undefined;
  /** Keyset: the created_at and order_id of the last row of the previous page. */
  readonly after?: { readonly createdAt: number; readonly orderId: string } | undefined;
  readonly limit: number;
}

/** The admin list: newest first, by keyset. */
export async function listOrders(db: Executor, shopId: string, filter: OrderFilter): Promise<OrderRow[]> {
  let query = db.selectFrom('checkout_orders').selectAll().where('shop_id', '=', shopId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.profileId !== undefined) query = query.where('profile_id', '=', filter.profileId);
  const after = filter.after;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('order_id', '<', after.orderId)])]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('order_id', 'desc').limit(filter.limit).execute();
}

/** Whether the member has a completed loyalty order (first-order promotions). */
export async function hasCompletedOrder(db: Executor, shopId: string, profileId: number): Promise<boolean> {
  const row = await db
    .selectFrom('checkout_orders')
    .select('order_id')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('status', '=', 'completed')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether any of the profiles has a completed loyalty order (a customer's ids after merges). */
export async function hasCompletedOrderOfAny(db: Executor, shopId: string, profileIds: readonly number[]): Promise<boolean> {
  if (profileIds.length === 0) return false;
  const row = await db
    .selectFrom('checkout_orders')
    .select('order_id')
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', [...profileIds])
    .where('status', '=', 'completed')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
