import { expressionBuilder, sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { PreparedQuery } from '../../db/prepared-query.js';
import type { Database, PromotionsTable } from '../../db/types.js';
import type { Promotion, PromotionInput, PromotionStatus } from './domain/promotion.js';
import { takeShopSequence } from '../../db/sequences.js';

export type Executor = Kysely<Database> | Transaction<Database>;
type PromotionRow = Selectable<PromotionsTable>;

/** The next number of a kind (promotion, certificate, pool ids; the revision) in the shop: one upsert, no read. */
export async function nextId(db: Executor, shopId: string, kind: 'promotion' | 'certificate' | 'pool' | 'revision'): Promise<number> {
  return takeShopSequence(db, 'promotion_sequences', shopId, { column: 'kind', value: kind });
}

/**
 * Counts the writes of the shop's promotions, in each write's transaction: the revision
 * the checkout's kept list of live promotions is checked against (the row of kind
 * `revision` beside the id counters).
 */
export async function advanceRevision(db: Executor, shopId: string): Promise<number> {
  return nextId(db, shopId, 'revision');
}

// Compiled once (db/prepared-query.ts): the checkout reads the revision on every request.
const revisionRow = new PreparedQuery(1, (db, shopId: string) =>
  db.selectFrom('promotion_sequences').select('last_id').where('shop_id', '=', shopId).where('kind', '=', sql.lit('revision')),
);

/** The shop's promotions revision (advanceRevision); 0 before its first promotion. */
export async function revisionOf(db: Kysely<Database>, shopId: string): Promise<number> {
  const row = (await revisionRow.execute(db, shopId))[0];
  return row ? Number(row.last_id) : 0;
}

/** The lists and actions, kept as one JSON document. */
interface Terms {
  productIds: readonly string[];
  categoryIds: readonly string[];
  streams: readonly string[];
  paymentTypes: readonly string[];
  locations: readonly string[];
  timeOfDay: PromotionInput['timeOfDay'];
  memberLevels: readonly string[];
  firstOrderOnly: boolean;
  specialPrices: Readonly<Record<string, number>>;
}

function columnsOf(p: PromotionInput) {
  const terms: Terms = {
    productIds: p.productIds,
    categoryIds: p.categoryIds,
    streams: p.streams,
    paymentTypes: p.paymentTypes,
    locations: p.locations,
    timeOfDay: p.timeOfDay,
    memberLevels: p.memberLevels,
    firstOrderOnly: p.firstOrderOnly,
    specialPrices: p.specialPrices,
  };
  return {
    name: p.name,
    status: p.status,
    starts_at: p.startsAt,
    ends_at: p.endsAt,
    priority: p.priority,
    discount_type: p.discount.type,
    discount_value: p.discount.value,
    min_order_total: p.minOrderTotal,
    by_promo_code: p.byPromoCode ? 1 : 0,
    bonus_reward_percent: p.bonusRewardPercent,
    terms: JSON.stringify(terms),
  };
}

export function toPromotion(row: PromotionRow): Promotion {
  const terms = JSON.parse(row.terms) as Terms;
  const value = Number(row.discount_value);
  return {
    id: Number(row.id),
    name: row.name,
    status: row.status as PromotionStatus,
    startsAt: row.starts_at === null ? null : Number(row.starts_at),
    endsAt: row.ends_at === null ? null : Number(row.ends_at),
    priority: row.priority,
    discount: row.discount_type === 'fixed' ? { type: 'fixed', value } : { type: 'percent', value },
    minOrderTotal: row.min_order_total === null ? null : Number(row.min_order_total),
    byPromoCode: row.by_promo_code === 1,
    bonusRewardPercent: row.bonus_reward_percent,
    ...terms,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function insertPromotion(db: Executor, shopId: string, id: number, p: PromotionInput, now: number): Promise<Promotion> {
  const row = await db
    .insertInto('promotions')
    .values({ shop_id: shopId, id, ...columnsOf(p), version: 0, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPromotion(row);
}

export async function findPromotion(
  db: Executor,
  shopId: string,
  id: number,
): Promise<{ promotion: Promotion; version: number } | undefined> {
  const row = await db.selectFrom('promotions').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return row ? { promotion: toPromotion(row), version: Number(row.version) } : undefined;
}

/** Writes the whole promotion if nobody changed it since `version` was read; undefined otherwise. */
export async function updatePromotion(
  db: Executor,
  shopId: string,
  id: number,
  version: number,
  p: PromotionInput,
  now: number,
): Promise<Promotion | undefined> {
  const row = await db
    .updateTable('promotions')
    .set({ ...columnsOf(p), version: version + 1, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst();
  return row ? toPromotion(row) : undefined;
}

export interface PromotionFilter {
  readonly status?: PromotionStatus | undefined;
  /** Only the promotions active at this instant (domain/promotion.ts isActiveAt, in SQL). */
  readonly activeAt?: number | undefined;
  /** A piece of the name, any case. */
  readonly q?: string | undefined;
  /** Keyset: ids after this one. */
  readonly afterId?: number | undefined;
  readonly limit: number;
}

/** Promotions by id, ascending, a page at a time. */
export async function listPromotions(db: Executor, shopId: string, filter: PromotionFilter): Promise<Promotion[]> {
  let query = db.selectFrom('promotions').selectAll().where('shop_id', '=', shopId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.activeAt !== undefined) query = query.where(activeAt(filter.activeAt));
  if (filter.q !== undefined && filter.q !== '') {
    const escaped = filter.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
    query = query.where(sql<boolean>`lower(name) like ${`%${escaped}%`} escape '\\'`);
  }
  if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
  const rows = await query.orderBy('id').limit(filter.limit).execute();
  return rows.map(toPromotion);
}

/** The promotions that apply at `now`: the same rule as isActiveAt, so the checkout reads only those. */
export async function listActiveAt(db: Executor, shopId: string, now: number): Promise<Promotion[]> {
  const rows = await db
    .selectFrom('promotions')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where(activeAt(now))
    .orderBy('priority', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toPromotion);
}

/**
 * The promotions that are or may become active from `now` on (active or scheduled, not
 * ended): what the checkout's cache holds, filtering each request by isActiveAt.
 */
export async function listLive(db: Executor, shopId: string, now: number): Promise<Promotion[]> {
  const rows = await db
    .selectFrom('promotions')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('status', 'in', ['active', 'scheduled'])
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .orderBy('priority', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toPromotion);
}

/** isActiveAt (domain/promotion.ts) as a condition on the row. */
function activeAt(now: number) {
  const eb = expressionBuilder<Database, 'promotions'>();
  return eb.and([
    eb('status', 'in', ['active', 'scheduled']),
    eb.or([eb.and([eb('starts_at', 'is', null), eb('status', '=', 'active')]), eb('starts_at', '<=', now)]),
    eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]),
  ]);
}
