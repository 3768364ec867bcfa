import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, EventsTable, OrdersTable, ProfileListsTable, SessionsTable } from '../../db/types.js';
import { columnCount, parameterChunks } from '../../db/statement-slices.js';
import { SESSION_IDLE_MS } from './domain/session.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database>;
export type EventRow = Selectable<EventsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type ListRow = Selectable<ProfileListsTable>;
export type SessionRow = Selectable<SessionsTable>;

// --- id allocation --------------------------------------------------------------------

export interface IdRequest {
  readonly shopId: string;
  readonly name: 'events' | 'orders';
  readonly count: number;
}

/**
 * Reserves `count` ids per (shop, name) in one statement and returns the last id of each
 * reservation (key `${shopId}/${name}`): the ids are last − count + 1 … last. The rows
 * stay locked until the transaction ends, so concurrent batches never share an id; they
 * are upserted in key order so that two batches never wait on each other in a cycle.
 */
export async function allocateIds(db: Executor, requests: readonly IdRequest[]): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  if (requests.length === 0) return last;
  const rows = [...requests]
    .sort((a, b) => (a.shopId === b.shopId ? a.name.localeCompare(b.name) : a.shopId < b.shopId ? -1 : 1))
    .map((r) => ({ shop_id: r.shopId, name: r.name, last_id: r.count }));
  for (const chunk of parameterChunks(rows, 3)) {
    const result = await db
      .insertInto('tracking_sequences')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['shop_id', 'name'])
          .doUpdateSet((eb) => ({ last_id: eb('tracking_sequences.last_id', '+', eb.ref('excluded.last_id')) })),
      )
      .returning(['shop_id', 'name', 'last_id'])
      .execute();
    for (const row of result) last.set(`${row.shop_id}/${row.name}`, row.last_id);
  }
  return last;
}

/**
 * Locks the shop's event sequence row until the transaction ends, as every batch of the
 * shop does when it reserves ids: a merge that takes it cannot interleave with a batch's
 * read-modify-write of the same carts, in this process or another.
 */
export async function lockShopBatches(db: Executor, shopId: string): Promise<void> {
  await db
    .updateTable('tracking_sequences')
    .set((eb) => ({ last_id: eb.ref('last_id') }))
    .where('shop_id', '=', shopId)
    .where('name', '=', 'events')
    .execute();
}

// --- devices (identity's table, read set-wise for a batch) ----------------------------

export interface DeviceProfileRow {
  readonly shop_id: string;
  readonly did: string;
  readonly profile_id: number;
  readonly last_seen_at: number;
}

/**
 * The profile of each device, for many shops and devices in one statement. Rows of a
 * did that exists in another shop of the batch may come back too: callers look rows up
 * by (shop_id, did).
 */
export async function findDeviceProfiles(db: Executor, shopIds: readonly string[], dids: readonly string[]): Promise<DeviceProfileRow[]> {
  if (dids.length === 0) return [];
  const rows: DeviceProfileRow[] = [];
  for (const chunk of parameterChunks(dids, 1)) {
    rows.push(
      ...(await db
        .selectFrom('devices')
        .select(['shop_id', 'did', 'profile_id', 'last_seen_at'])
        .where('shop_id', 'in', shopIds)
        .where('did', 'in', chunk)
        .execute()),
    );
  }
  return rows;
}

/**
 * Advances the devices' last_seen_at to `now` where it is `staleAt` or earlier: a device
 * seen again sooner is not written, which spares a page write per device on every batch.
 */
export async function touchDevices(db: Executor, shopId: string, dids: readonly string[], now: number, staleAt: number): Promise<void> {
  for (const chunk of parameterChunks(dids, 1)) {
    await db
      .updateTable('devices')
      .set({ last_seen_at: now })
      .where('shop_id', '=', shopId)
      .where('did', 'in', chunk)
      .where('last_seen_at', '<=', staleAt)
      .execute();
  }
}

// --- events ---------------------------------------------------------------------------

export async function insertEvents(db: Executor, rows: readonly EventRow[]): Promise<void> {
  for (const chunk of parameterChunks(rows, columnCount(rows))) await db.insertInto('events').values(chunk).execute();
}

/** A device's newest events first. */
export async function listEventsOfDevice(db: Executor, shopId: string, did: string, limit: number): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('did', '=', did)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * A shop's newest events, only those after `afterId` when it is given (keyset on the
 * primary key (shop_id, id)): the admin UI's live feed polls with the last id it has.
 */
export async function listRecentEventsOfShop(
  db: Executor,
  shopId: string,
  afterId: number | undefined,
  limit: number,
): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll().where('shop_id', '=', shopId);
  if (afterId !== undefined) query = query.where('id', '>', afterId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

export async function findEvent(db: Executor, shopId: string, id: number): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
}

// --- carts and wish lists -------------------------------------------------------------

/** The lists of these profiles; rows of a profile id found in another shop may come back too. */
export async function findLists(db: Executor, shopIds: readonly string[], profileIds: readonly number[]): Promise<ListRow[]> {
  if (profileIds.length === 0) return [];
  const rows: ListRow[] = [];
  for (const chunk of parameterChunks(profileIds, 1)) {
    rows.push(
      ...(await db.selectFrom('profile_lists').selectAll().where('shop_id', 'in', shopIds).where('profile_id', 'in', chunk).execute()),
    );
  }
  return rows;
}

export async function upsertLists(db: Executor, rows: readonly ListRow[]): Promise<void> {
  for (const chunk of parameterChunks(rows, columnCount(rows))) {
    await db
      .insertInto('profile_lists')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'profile_id', 'list']).doUpdateSet((eb) => ({
          items: eb.ref('excluded.items'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

export async function deleteLists(db: Executor, shopId: string, profileId: number): Promise<void> {
  await db.deleteFrom('profile_lists').where('shop_id', '=', shopId).where('profile_id', '=', profileId).execute();
}

// --- orders ---------------------------------------------------------------------------

/** Orders whose (shop_id, order_id) exists already are skipped: the event is stored, the order is not repeated. */
/** Inserts the orders whose order_id is new; answers the keys (JSON [shop_id, id]) of those inserted. */
export async function insertOrders(db: Executor, rows: readonly OrderRow[]): Promise<string[]> {
  const inserted: string[] = [];
  for (const chunk of parameterChunks(rows, columnCount(rows))) {
    const ids = await db
      .insertInto('orders')
      .values(chunk)
      .onConflict((oc) => oc.columns(['shop_id', 'order_id']).doNothing())
      .returning(['shop_id', 'id'])
      .execute();
    for (const r of ids) inserted.push(JSON.stringify([r.shop_id, Number(r.id)]));
  }
  return inserted;
}

export async function listOrdersOfProfile(db: Executor, shopId: string, profileId: number): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Whether the profile has an order (the index shop_id, profile_id, created_at). */
export async function hasOrderOfProfile(db: Executor, shopId: string, profileId: number): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A profile's newest orders first, created at `since` or later (created_at, then id: ids grow with commits). */
export async function listRecentOrdersOfProfile(
  db: Executor,
  shopId: string,
  profileId: number,
  options: { readonly since: number | undefined; readonly limit: number },
): Promise<OrderRow[]> {
  let query = db.selectFrom('orders').selectAll().where('shop_id', '=', shopId).where('profile_id', '=', profileId);
  if (options.since !== undefined) query = query.where('created_at', '>=', options.since);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

// --- merges ---------------------------------------------------------------------------

/** Moves a merged profile's events and orders to the survivor. */
export async function moveProfileHistory(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  for (const table of ['events', 'orders'] as const) {
    await db.updateTable(table).set({ profile_id: intoId }).where('shop_id', '=', shopId).where('profile_id', '=', fromId).execute();
  }
}

// --- sessions -------------------------------------------------------------------------

/**
 * Records activity of the sessions: an unknown sid opens a session; a session idle for 2
 * hours or more restarts (domain/session.ts), keeping its sid.
 */
export async function upsertSessions(db: Executor, rows: readonly SessionRow[]): Promise<void> {
  for (const chunk of parameterChunks(rows, columnCount(rows))) {
    await db
      .insertInto('sessions')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'sid']).doUpdateSet((eb) => ({
          started_at: eb
            .case()
            .when(sql<number>`excluded.last_activity_at - sessions.last_activity_at`, '>=', SESSION_IDLE_MS)
            .then(eb.ref('excluded.started_at'))
            .else(eb.ref('sessions.started_at'))
            .end(),
          last_activity_at: eb.ref('excluded.last_activity_at'),
        })),
      )
      .execute();
  }
}

/** False when the shop has that sid already. */
export async function insertSession(db: Executor, row: SessionRow): Promise<boolean> {
  const result = await db
    .insertInto('sessions')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'sid']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Records activity of a live session; false when it has ended meanwhile (or is another device's). */
export async function touchLiveSession(db: Executor, shopId: string, sid: string, did: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ last_activity_at: now })
    .where('shop_id', '=', shopId)
    .where('sid', '=', sid)
    .where('did', '=', did)
    .where('last_activity_at', '>', now - SESSION_IDLE_MS)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// --- lists of one profile -------------------------------------------------------------

export async function findListsOfProfile(db: Executor, shopId: string, profileId: number): Promise<ListRow[]> {
  return db.selectFrom('profile_lists').selectAll().where('shop_id', '=', shopId).where('profile_id', '=', profileId).execute();
}
