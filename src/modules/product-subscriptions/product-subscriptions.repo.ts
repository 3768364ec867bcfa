import { sql, type Kysely, type Selectable } from 'kysely';
import { PreparedQuery, PreparedQueryFamily } from '../../db/prepared-query.js';
import { inListSlices } from '../../db/statement-slices.js';
import type { Database, ProductAlertsTable, ProductSubscriptionsTable } from '../../db/types.js';
import type { SubscriptionKind } from './product-subscriptions.types.js';

/** Kysely only: rows in, rows out. Every statement is scoped by shop_id. */
export type Executor = Kysely<Database>;
export type SubscriptionRow = Selectable<ProductSubscriptionsTable>;
export type AlertRow = Selectable<ProductAlertsTable>;

/** Availability and price of an offer in one generation (the catalog's own table). */
export async function findCatalogOffer(
  db: Executor,
  shopId: string,
  generation: number,
  itemId: string,
): Promise<{ available: boolean; price: number | null } | undefined> {
  const row = await db
    .selectFrom('catalog_products')
    .select(['available', 'price'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('id', '=', itemId)
    .executeTakeFirst();
  return row ? { available: row.available === 1, price: row.price === null ? null : Number(row.price) } : undefined;
}

/** Subscribing again re-arms the row: active, with the new price, as if new. */
export async function upsertSubscription(
  db: Executor,
  row: { shopId: string; kind: SubscriptionKind; itemId: string; profileId: number; price: number | null; now: number },
): Promise<void> {
  await db
    .insertInto('product_subscriptions')
    .values({
      shop_id: row.shopId,
      kind: row.kind,
      item_id: row.itemId,
      profile_id: row.profileId,
      price: row.price,
      status: 'active',
      created_at: row.now,
      updated_at: row.now,
      fired_at: null,
    })
    .onConflict((oc) =>
      oc.columns(['shop_id', 'kind', 'item_id', 'profile_id']).doUpdateSet({
        price: row.price,
        status: 'active',
        updated_at: row.now,
        fired_at: null,
      }),
    )
    .execute();
}

/** Cancels the active subscriptions of these profiles to these items (all items when none are given). */
export async function cancelSubscriptions(
  db: Executor,
  shopId: string,
  kind: SubscriptionKind,
  profileIds: readonly number[],
  itemIds: readonly string[],
  now: number,
): Promise<number> {
  if (profileIds.length === 0) return 0;
  let query = db
    .updateTable('product_subscriptions')
    .set({ status: 'cancelled', updated_at: now })
    .where('shop_id', '=', shopId)
    .where('kind', '=', kind)
    .where('profile_id', 'in', profileIds)
    .where('status', '=', 'active');
  if (itemIds.length > 0) query = query.where('item_id', 'in', itemIds);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * GET /products/counters asks it on every request: prepared once per padded IN list size
 * (db/prepared-query.ts, db/statement-slices.ts).
 */
const activeCounts = new PreparedQueryFamily(
  (size: number) =>
    new PreparedQuery(1 + size, (db, shopId: string, ...itemIds: string[]) =>
      db
        .selectFrom('product_subscriptions')
        .select(['item_id', 'kind', (eb) => eb.fn.countAll<number | string>().as('count')])
        .where('shop_id', '=', shopId)
        .where('kind', 'in', [sql.lit<SubscriptionKind>('back_in_stock'), sql.lit<SubscriptionKind>('price_drop')])
        .where('item_id', 'in', itemIds)
        .where('status', '=', sql.lit('active'))
        .groupBy(['item_id', 'kind']),
    ),
);

/** Active subscriptions of each of these items, by kind: every item asked is in the map. */
export async function countActive(
  db: Executor,
  shopId: string,
  itemIds: readonly string[],
): Promise<Map<string, Record<SubscriptionKind, number>>> {
  const counts = new Map<string, Record<SubscriptionKind, number>>(itemIds.map((id) => [id, { back_in_stock: 0, price_drop: 0 }]));
  for (const slice of inListSlices([...new Set(itemIds)])) {
    for (const row of await activeCounts.of(slice.length).execute(db, shopId, ...slice)) {
      const item = counts.get(row.item_id);
      if (item) item[row.kind] = Number(row.count);
    }
  }
  return counts;
}

export async function listSubscriptionsOf(db: Executor, shopId: string, profileId: number): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('product_subscriptions')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .orderBy('kind')
    .orderBy('item_id')
    .execute();
}

/**
 * The alerts of one landing, set-wise: every active subscription whose product the new
 * generation makes available (back_in_stock: available now, and unavailable or absent
 * before) or cheaper below the subscribed price (price_drop: available now, priced below
 * the subscription's price, and lower than before or new). Returns how many were written.
 */
export async function insertLandingAlerts(
  db: Executor,
  landing: { shopId: string; previousGeneration: number; generation: number; now: number },
): Promise<number> {
  const { shopId, previousGeneration, generation, now } = landing;
  const candidates = db
    .selectFrom('product_subscriptions as s')
    .innerJoin('catalog_products as n', (join) =>
      join.onRef('n.id', '=', 's.item_id').on('n.shop_id', '=', shopId).on('n.generation', '=', generation),
    )
    .leftJoin('catalog_products as o', (join) =>
      join.onRef('o.id', '=', 's.item_id').on('o.shop_id', '=', shopId).on('o.generation', '=', previousGeneration),
    )
    .where('s.shop_id', '=', shopId)
    .where('s.status', '=', 'active')
    .where('n.available', '=', 1)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.kind', '=', 'back_in_stock'), eb.or([eb('o.id', 'is', null), eb('o.available', '=', 0)])]),
        eb.and([
          eb('s.kind', '=', 'price_drop'),
          eb('n.price', 'is not', null),
          eb('n.price', '<', eb.ref('s.price')),
          eb.or([eb('o.price', 'is', null), eb('n.price', '<', eb.ref('o.price'))]),
        ]),
      ]),
    )
    .select([
      's.shop_id',
      // Typed casts: PostgreSQL cannot infer a bare parameter's type through INSERT … SELECT.
      sql<number>`cast(${generation} as bigint)`.as('generation'),
      's.kind',
      's.item_id',
      's.profile_id',
      'o.price as old_price',
      'n.price as new_price',
      's.price as subscribed_price',
      sql<'pending'>`cast(${'pending'} as text)`.as('status'),
      sql<number>`cast(${now} as bigint)`.as('created_at'),
    ]);
  const result = await db
    .insertInto('product_alerts')
    .columns([
      'shop_id',
      'generation',
      'kind',
      'item_id',
      'profile_id',
      'old_price',
      'new_price',
      'subscribed_price',
      'status',
      'created_at',
    ])
    .expression(candidates)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** A subscription fires once: the ones this landing alerted are no longer active. */
export async function markFired(db: Executor, shopId: string, generation: number, now: number): Promise<void> {
  await db
    .updateTable('product_subscriptions')
    .set({ status: 'fired', fired_at: now, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_alerts as a')
          .select(sql`1`.as('one'))
          .where('a.shop_id', '=', shopId)
          .where('a.generation', '=', generation)
          .whereRef('a.kind', '=', 'product_subscriptions.kind')
          .whereRef('a.item_id', '=', 'product_subscriptions.item_id')
          .whereRef('a.profile_id', '=', 'product_subscriptions.profile_id'),
      ),
    )
    .execute();
}

export async function listAlerts(db: Executor, shopId: string, options: { status?: string; limit: number }): Promise<AlertRow[]> {
  let query = db.selectFrom('product_alerts').selectAll().where('shop_id', '=', shopId);
  if (options.status !== undefined) query = query.where('status', '=', options.status as AlertRow['status']);
  return query
    .orderBy('created_at')
    .orderBy('generation')
    .orderBy('kind')
    .orderBy('item_id')
    .orderBy('profile_id')
    .limit(options.limit)
    .execute();
}

/**
 * Merge participant: the subscriptions and alerts of profile `fromId` move to `intoId`.
 * Where both hold the same (kind, item), the survivor's row stays and the other goes.
 */
export async function moveProfileRows(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  await db
    .deleteFrom('product_subscriptions')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_subscriptions as kept')
          .select(sql`1`.as('one'))
          .where('kept.shop_id', '=', shopId)
          .where('kept.profile_id', '=', intoId)
          .whereRef('kept.kind', '=', 'product_subscriptions.kind')
          .whereRef('kept.item_id', '=', 'product_subscriptions.item_id'),
      ),
    )
    .execute();
  await db
    .updateTable('product_subscriptions')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
  await db
    .deleteFrom('product_alerts')
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_alerts as kept')
          .select(sql`1`.as('one'))
          .where('kept.shop_id', '=', shopId)
          .where('kept.profile_id', '=', intoId)
          .whereRef('kept.generation', '=', 'product_alerts.generation')
          .whereRef('kept.kind', '=', 'product_alerts.kind')
          .whereRef('kept.item_id', '=', 'product_alerts.item_id'),
      ),
    )
    .execute();
  await db
    .updateTable('product_alerts')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}

/** Profiles with pending alerts of one landing and kind, ascending, after `afterProfileId`. */
export async function findPendingAlertProfiles(
  db: Executor,
  page: { shopId: string; generation: number; kind: SubscriptionKind; afterProfileId: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('product_alerts')
    .select('profile_id')
    .distinct()
    .where('shop_id', '=', page.shopId)
    .where('generation', '=', page.generation)
    .where('kind', '=', page.kind)
    .where('status', '=', 'pending')
    .where('profile_id', '>', page.afterProfileId)
    .orderBy('profile_id')
    .limit(page.limit)
    .execute();
  return rows.map((row) => Number(row.profile_id));
}

/** The pending alerts of one landing and kind for these profiles, by profile then item. */
export async function findPendingAlertsOf(
  db: Executor,
  shopId: string,
  generation: number,
  kind: SubscriptionKind,
  profileIds: readonly number[],
): Promise<{ profile_id: number; item_id: string }[]> {
  if (profileIds.length === 0) return [];
  return db
    .selectFrom('product_alerts')
    .select(['profile_id', 'item_id'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('profile_id', 'in', profileIds)
    .orderBy('profile_id')
    .orderBy('item_id')
    .execute();
}

/** The alerts of these profiles were handed to chains. */
export async function markAlertsChained(
  db: Executor,
  shopId: string,
  generation: number,
  kind: SubscriptionKind,
  profileIds: readonly number[],
): Promise<void> {
  if (profileIds.length === 0) return;
  await db
    .updateTable('product_alerts')
    .set({ status: 'chained' })
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .where('profile_id', 'in', profileIds)
    .execute();
}
