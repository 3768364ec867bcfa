import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/types.js';

/** Kysely only: rows of the webhook tables in and out. Every query filters by shop_id. */

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type Executor = Kysely<Database> | Transaction<Database>;

/** Takes one of the shop's endpoint places, in one upsert: false when all `max` are taken. */
export async function takeEndpointPlace(db: Executor, shopId: string, max: number): Promise<boolean> {
  const row = await db
    .insertInto('webhook_counters')
    .values({ shop_id: shopId, endpoints: 1 })
    .onConflict((oc) =>
      oc
        .column('shop_id')
        .doUpdateSet((eb) => ({ endpoints: eb('webhook_counters.endpoints', '+', 1) }))
        .where('webhook_counters.endpoints', '<', max),
    )
    .returning('endpoints')
    .executeTakeFirst();
  return row !== undefined;
}

export async function releaseEndpointPlace(db: Executor, shopId: string): Promise<void> {
  await db
    .updateTable('webhook_counters')
    .set((eb) => ({ endpoints: eb('endpoints', '-', 1) }))
    .where('shop_id', '=', shopId)
    .where('endpoints', '>', 0)
    .execute();
}

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function findEndpoint(db: Executor, shopId: string, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

export async function listEndpoints(db: Executor, shopId: string): Promise<EndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('shop_id', '=', shopId).orderBy('created_at').orderBy('id').execute();
}

/** The shop's enabled endpoints (the event fan-out). */
export async function enabledEndpoints(db: Executor, shopId: string): Promise<EndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('shop_id', '=', shopId).where('enabled', '=', 1).execute();
}

/** Every enabled endpoint's shop and event types, across shops: the topics snapshot (topics.ts). */
export async function enabledTopics(db: Executor): Promise<{ shop_id: string; event_types: string }[]> {
  return db.selectFrom('webhook_endpoints').select(['shop_id', 'event_types']).where('enabled', '=', 1).execute();
}

/** Updates the endpoint; with `ifSecret`, only while its sealed secret is still that one (a rotation's compare-and-set). */
export async function updateEndpoint(
  db: Executor,
  shopId: string,
  id: string,
  values: Updateable<WebhookEndpointsTable>,
  ifSecret?: string,
): Promise<boolean> {
  let query = db.updateTable('webhook_endpoints').set(values).where('shop_id', '=', shopId).where('id', '=', id);
  if (ifSecret !== undefined) query = query.where('secret', '=', ifSecret);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Disables an enabled endpoint (a 410 Gone); false when it was already disabled or is gone. */
export async function disableEndpoint(db: Executor, shopId: string, id: string, reason: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, updated_at: at })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteEndpoint(db: Executor, shopId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Inserts a delivery unless the endpoint has this event already: true when inserted. */
export async function insertDelivery(db: Executor, row: Insertable<WebhookDeliveriesTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'endpoint_id', 'id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findDelivery(db: Executor, shopId: string, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Records an attempt on a pending delivery that has had `attempts` so far; false when another run got there first. */
export async function updatePendingDelivery(
  db: Executor,
  key: { shopId: string; endpointId: string; id: string; attempts: number },
  values: Updateable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set(values)
    .where('shop_id', '=', key.shopId)
    .where('endpoint_id', '=', key.endpointId)
    .where('id', '=', key.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', key.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listDeliveries(
  db: Executor,
  shopId: string,
  endpointId: string,
  page: { limit: number; offset: number; status?: DeliveryRow['status'] },
): Promise<DeliveryRow[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('shop_id', '=', shopId).where('endpoint_id', '=', endpointId);
  if (page.status !== undefined) query = query.where('status', '=', page.status);
  return query.orderBy('created_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute();
}

/** Deletes up to `limit` of the endpoint's finished deliveries created before `before`; answers how many. */
export async function deleteFinishedBefore(
  db: Executor,
  shopId: string,
  endpointId: string,
  before: number,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('shop_id', '=', shopId)
    .where('endpoint_id', '=', endpointId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('shop_id', '=', shopId)
        .where('endpoint_id', '=', endpointId)
        .where('created_at', '<', before)
        .where('status', '!=', 'pending')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Makes a finished delivery (failed or succeeded) pending again with a fresh set of attempts; false when it is pending. */
export async function reopenFailedDelivery(db: Executor, shopId: string, endpointId: string, id: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: at, updated_at: at })
    .where('shop_id', '=', shopId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'succeeded'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
