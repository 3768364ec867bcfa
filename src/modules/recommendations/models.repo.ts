import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, RecommendationBuildsTable, RecommendationListsTable, RecommendationNeighboursTable } from '../../db/types.js';

/**
 * Kysely only: rows in, rows out. Every statement is scoped by shop_id. The build reads
 * tracking's orders and events and the catalog's served products; it writes only its own
 * tables.
 */
export type Executor = Kysely<Database> | Transaction<Database>;
export type BuildRow = Selectable<RecommendationBuildsTable>;
export type NeighbourKind = RecommendationNeighboursTable['kind'];
export type ListKind = RecommendationListsTable['kind'];

/** Rows per insert of the lists: 4 parameters each, well inside both databases' limits. */
const INSERT_CHUNK = 500;
/** Ids per IN list when reading categories. */
const IN_CHUNK = 500;

export interface OrderRow {
  readonly id: number;
  readonly items: string;
  readonly createdAt: number;
  readonly profileId: number;
  /** The device the purchase came from, when it named one. */
  readonly did: string | null;
  /** Minor units: the order's items_total. */
  readonly revenue: number;
}

/**
 * The shop's orders after `afterId` made at `until` or before, oldest first: a keyset page
 * of the primary key (the offline evaluation builds as of a past instant).
 */
export async function listOrdersAfter(db: Executor, shopId: string, afterId: number, until: number, limit: number): Promise<OrderRow[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'items', 'created_at', 'profile_id', 'did', 'items_total'])
    .where('shop_id', '=', shopId)
    .where('id', '>', afterId)
    .where('created_at', '<=', until)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    items: r.items,
    createdAt: Number(r.created_at),
    profileId: Number(r.profile_id),
    did: r.did,
    revenue: Number(r.items_total),
  }));
}

export interface SearchRow {
  readonly did: string;
  readonly time: number;
  readonly id: number;
  readonly query: string;
}

/**
 * Searches typed into the shop's search (full_search) or tracked by the app (push) after
 * the cursor in (device, time, id) order, in (from, until]: a keyset page of
 * search_queries_shop_did_idx (0015). Instant searches are keystrokes, not queries.
 */
export async function listSearchesAfter(
  db: Executor,
  shopId: string,
  after: { readonly did: string; readonly time: number; readonly id: number } | null,
  from: number,
  until: number,
  limit: number,
): Promise<SearchRow[]> {
  let query = db
    .selectFrom('search_queries')
    .select(['did', 'time', 'id', 'query'])
    .where('shop_id', '=', shopId)
    .where('did', 'is not', null)
    .where('time', '>', from)
    .where('time', '<=', until)
    .where('type', 'in', ['full_search', 'push']);
  if (after !== null) query = query.where((eb) => eb(eb.refTuple('did', 'time', 'id'), '>', eb.tuple(after.did, after.time, after.id)));
  const rows = await query.orderBy('did').orderBy('time').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ did: r.did as string, time: Number(r.time), id: Number(r.id), query: r.query }));
}

export interface ViewRow {
  readonly sid: string;
  readonly time: number;
  readonly id: number;
  readonly items: string;
  readonly profileId: number;
}

export interface ViewCursor {
  readonly sid: string;
  readonly time: number;
  readonly id: number;
}

/**
 * Product views after the cursor in (session, time, id) order, in (`from`, `until`]: a keyset page
 * of events_shop_view_sid_idx (0043). Its predicate is written as literals, as the index's
 * is, so that both planners see the query is covered by it.
 */
export async function listViewsAfter(
  db: Executor,
  shopId: string,
  after: ViewCursor | null,
  from: number,
  until: number,
  limit: number,
): Promise<ViewRow[]> {
  let query = db
    .selectFrom('events')
    .select(['sid', 'time', 'id', 'items', 'profile_id'])
    .where('shop_id', '=', shopId)
    .where(sql<boolean>`event = 'view' and custom = 0 and sid is not null`)
    .where('time', '>', from)
    .where('time', '<=', until);
  // A row-value comparison: both databases seek the index to it rather than filter an OR.
  if (after !== null) query = query.where((eb) => eb(eb.refTuple('sid', 'time', 'id'), '>', eb.tuple(after.sid, after.time, after.id)));
  const rows = await query.orderBy('sid').orderBy('time').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({
    sid: r.sid as string,
    time: Number(r.time),
    id: Number(r.id),
    items: r.items,
    profileId: Number(r.profile_id),
  }));
}

export interface CartRow {
  readonly time: number;
  readonly id: number;
  readonly profileId: number;
}

/**
 * Cart events in (`from`, `until`] after the cursor, in (time, id) order: a keyset page of
 * events_shop_cart_time_idx (0044), whose predicate is written as literals as the index's is.
 */
export async function listCartsAfter(
  db: Executor,
  shopId: string,
  after: { readonly time: number; readonly id: number } | null,
  from: number,
  until: number,
  limit: number,
): Promise<CartRow[]> {
  let query = db
    .selectFrom('events')
    .select(['time', 'id', 'profile_id'])
    .where('shop_id', '=', shopId)
    .where(sql<boolean>`event = 'cart' and custom = 0`)
    .where('time', '>', from)
    .where('time', '<=', until);
  if (after !== null) query = query.where((eb) => eb(eb.refTuple('time', 'id'), '>', eb.tuple(after.time, after.id)));
  const rows = await query.orderBy('time').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ time: Number(r.time), id: Number(r.id), profileId: Number(r.profile_id) }));
}

/** The first category of each of these products in the generation the catalog serves. */
export async function findFirstCategories(db: Executor, shopId: string, itemIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let from = 0; from < itemIds.length; from += IN_CHUNK) {
    const rows = await db
      .selectFrom('catalogs as c')
      .innerJoin('catalog_products as p', (join) => join.onRef('p.shop_id', '=', 'c.shop_id').onRef('p.generation', '=', 'c.generation'))
      .select(['p.id', 'p.category_ids'])
      .where('c.shop_id', '=', shopId)
      .where('p.id', 'in', itemIds.slice(from, from + IN_CHUNK))
      .execute();
    for (const row of rows) {
      const [first] = JSON.parse(row.category_ids) as unknown[];
      if (typeof first === 'string' || typeof first === 'number') out.set(row.id, String(first));
    }
  }
  return out;
}

/** Makes the shop's state row exist (no read before the write). */
export async function ensureBuildRow(db: Executor, shopId: string): Promise<void> {
  await db
    .insertInto('recommendation_builds')
    .values({ shop_id: shopId, orders_read: 0, sessions_read: 0, items_with_neighbours: 0 })
    .onConflict((oc) => oc.column('shop_id').doNothing())
    .execute();
}

/**
 * Takes the shop's build claim when none is held or the holder's lease ran out: one
 * conditional UPDATE, so of two racing builds one wins. False when another build holds it.
 */
export async function claimBuild(db: Executor, shopId: string, token: string, now: number, leaseUntil: number): Promise<boolean> {
  const result = await db
    .updateTable('recommendation_builds')
    .set({ build_token: token, building_since: now, lease_until: leaseUntil, rows_read: 0 })
    .where('shop_id', '=', shopId)
    .where((eb) => eb.or([eb('build_token', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Extends this build's lease; false when its claim was taken over (it counted as dead). */
export async function renewBuild(db: Executor, shopId: string, token: string, leaseUntil: number, rowsRead?: number): Promise<boolean> {
  const result = await db
    .updateTable('recommendation_builds')
    .set({ lease_until: leaseUntil, ...(rowsRead !== undefined && { rows_read: rowsRead }) })
    .where('shop_id', '=', shopId)
    .where('build_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface BuildCounts {
  readonly ordersRead: number;
  readonly sessionsRead: number;
  readonly itemsWithNeighbours: number;
  readonly durationMs: number;
}

/** Records a finished build and releases its claim; false when the claim is no longer this build's. */
export async function finishBuild(db: Executor, shopId: string, token: string, builtAt: number, counts: BuildCounts): Promise<boolean> {
  const result = await db
    .updateTable('recommendation_builds')
    .set({
      built_at: builtAt,
      build_token: null,
      building_since: null,
      lease_until: null,
      last_error: null,
      last_error_at: null,
      orders_read: counts.ordersRead,
      sessions_read: counts.sessionsRead,
      items_with_neighbours: counts.itemsWithNeighbours,
      duration_ms: counts.durationMs,
    })
    .where('shop_id', '=', shopId)
    .where('build_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records why this build failed and releases its claim; the previous lists stay. */
export async function failBuild(db: Executor, shopId: string, token: string, error: string, at: number): Promise<void> {
  await db
    .updateTable('recommendation_builds')
    .set({ build_token: null, building_since: null, lease_until: null, last_error: error, last_error_at: at })
    .where('shop_id', '=', shopId)
    .where('build_token', '=', token)
    .execute();
}

export async function findBuild(db: Executor, shopId: string): Promise<BuildRow | undefined> {
  return db.selectFrom('recommendation_builds').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
}

/** Replaces every neighbour list of the shop (in the caller's transaction). */
export async function replaceNeighbours(
  trx: Transaction<Database>,
  shopId: string,
  rows: Iterable<{ readonly kind: NeighbourKind; readonly itemId: string; readonly items: string }>,
): Promise<void> {
  await trx.deleteFrom('recommendation_neighbours').where('shop_id', '=', shopId).execute();
  let chunk: RecommendationNeighboursTable[] = [];
  const flush = async () => {
    if (chunk.length > 0) await trx.insertInto('recommendation_neighbours').values(chunk).execute();
    chunk = [];
  };
  for (const row of rows) {
    chunk.push({ shop_id: shopId, kind: row.kind, item_id: row.itemId, items: row.items });
    if (chunk.length >= INSERT_CHUNK) await flush();
  }
  await flush();
}

/** Replaces every shop-wide list of the shop (in the caller's transaction). */
export async function replaceLists(
  trx: Transaction<Database>,
  shopId: string,
  lists: ReadonlyArray<{ readonly kind: ListKind; readonly items: string }>,
): Promise<void> {
  await trx.deleteFrom('recommendation_lists').where('shop_id', '=', shopId).execute();
  if (lists.length > 0) {
    await trx
      .insertInto('recommendation_lists')
      .values(lists.map((l) => ({ shop_id: shopId, kind: l.kind, items: l.items })))
      .execute();
  }
}

export async function findNeighbours(db: Executor, shopId: string, kind: NeighbourKind, itemId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('recommendation_neighbours')
    .select('items')
    .where('shop_id', '=', shopId)
    .where('kind', '=', kind)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  return row?.items;
}

export async function findList(db: Executor, shopId: string, kind: ListKind): Promise<string | undefined> {
  const row = await db
    .selectFrom('recommendation_lists')
    .select('items')
    .where('shop_id', '=', shopId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.items;
}

/** Several items' stored lists of a kind, by item id; an item without one is absent. */
export async function findNeighboursMany(
  db: Executor,
  shopId: string,
  kind: NeighbourKind,
  itemIds: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < itemIds.length; i += IN_CHUNK) {
    const rows = await db
      .selectFrom('recommendation_neighbours')
      .select(['item_id', 'items'])
      .where('shop_id', '=', shopId)
      .where('kind', '=', kind)
      .where('item_id', 'in', itemIds.slice(i, i + IN_CHUNK))
      .execute();
    for (const row of rows) found.set(row.item_id, row.items);
  }
  return found;
}
