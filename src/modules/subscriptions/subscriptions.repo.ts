import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  Database,
  SubscriptionHoldsTable,
  SubscriptionMembersTable,
  SubscriptionPlansTable,
  SubscriptionStatus,
  SubscriptionsTable,
  SubscriptionUsageTable,
} from '../../db/types.js';

/** Paid subscriptions' rows (docs/subscriptions.md). Kysely only; every query names its shop. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type PlanRow = Selectable<SubscriptionPlansTable>;
export type MemberRow = Selectable<SubscriptionMembersTable>;
export type UsageRow = Selectable<SubscriptionUsageTable>;
export type HoldRow = Selectable<SubscriptionHoldsTable>;

// --- subscriptions and plans ---------------------------------------------------------

/** False when the shop has the code already (the key decides, not a read). */
export async function insertSubscription(db: Executor, row: SubscriptionRow): Promise<boolean> {
  const inserted = await db
    .insertInto('subscriptions')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code']).doNothing())
    .returning('code')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findSubscription(db: Executor, shopId: string, code: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
}

export async function listSubscriptions(db: Executor, shopId: string, status: SubscriptionStatus | undefined): Promise<SubscriptionRow[]> {
  let query = db.selectFrom('subscriptions').selectAll().where('shop_id', '=', shopId);
  if (status !== undefined) query = query.where('status', '=', status);
  return query.orderBy('code').limit(1000).execute();
}

export async function updateSubscription(
  db: Executor,
  shopId: string,
  code: string,
  change: { name?: string; status?: SubscriptionStatus; updated_at: number },
): Promise<SubscriptionRow | undefined> {
  return db
    .updateTable('subscriptions')
    .set(change)
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirst();
}

export async function insertPlan(db: Executor, row: PlanRow): Promise<boolean> {
  const inserted = await db
    .insertInto('subscription_plans')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'subscription', 'code']).doNothing())
    .returning('code')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findPlan(db: Executor, shopId: string, subscription: string, code: string): Promise<PlanRow | undefined> {
  return db
    .selectFrom('subscription_plans')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('subscription', '=', subscription)
    .where('code', '=', code)
    .executeTakeFirst();
}

export async function listPlans(db: Executor, shopId: string, subscription: string): Promise<PlanRow[]> {
  return db
    .selectFrom('subscription_plans')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('subscription', '=', subscription)
    .orderBy('code')
    .limit(1000)
    .execute();
}

/** Every plan of the shop, of every subscription and status (the checkout's set of benefit promotions). */
export async function listShopPlans(db: Executor, shopId: string): Promise<PlanRow[]> {
  return db
    .selectFrom('subscription_plans')
    .selectAll()
    .where('shop_id', '=', shopId)
    .orderBy('subscription')
    .orderBy('code')
    .limit(10_000)
    .execute();
}

export async function updatePlan(
  db: Executor,
  shopId: string,
  subscription: string,
  code: string,
  change: { name?: string; status?: SubscriptionStatus; period_days?: number; benefits?: string; updated_at: number },
): Promise<PlanRow | undefined> {
  return db
    .updateTable('subscription_plans')
    .set(change)
    .where('shop_id', '=', shopId)
    .where('subscription', '=', subscription)
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirst();
}

// --- members -------------------------------------------------------------------------

/**
 * Subscribes, or changes the plan and paid_till of a member already subscribed. The
 * insert's key rules out two rows for one member; `started_on` stays the first
 * subscription's, so the periods keep their anchor. Answers the row and whether it is new.
 */
export async function upsertMember(trx: Transaction<Database>, row: MemberRow): Promise<{ row: MemberRow; created: boolean }> {
  const inserted = await trx
    .insertInto('subscription_members')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'subscription', 'profile_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const updated = await trx
    .updateTable('subscription_members')
    .set({ plan: row.plan, paid_till: row.paid_till, identifier: row.identifier, updated_at: row.updated_at })
    .where('shop_id', '=', row.shop_id)
    .where('subscription', '=', row.subscription)
    .where('profile_id', '=', row.profile_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row: updated, created: false };
}

export async function findMember(db: Executor, shopId: string, subscription: string, profileId: number): Promise<MemberRow | undefined> {
  return db
    .selectFrom('subscription_members')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('subscription', '=', subscription)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
}

export async function deleteMember(db: Executor, shopId: string, subscription: string, profileId: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('subscription_members')
    .where('shop_id', '=', shopId)
    .where('subscription', '=', subscription)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** A page of members by identifier, after the keyset `after`. */
export async function listMembers(
  db: Executor,
  shopId: string,
  subscription: string,
  after: string | undefined,
  limit: number,
): Promise<MemberRow[]> {
  let query = db.selectFrom('subscription_members').selectAll().where('shop_id', '=', shopId).where('subscription', '=', subscription);
  if (after !== undefined) query = query.where('identifier', '>', after);
  return query.orderBy('identifier').limit(limit).execute();
}

// --- usage and holds -----------------------------------------------------------------

export interface UsageKey {
  readonly shopId: string;
  readonly subscription: string;
  readonly profileId: number;
  readonly benefit: string;
  readonly periodStart: string;
}

/** The period's row of a benefit, created at zero if it is the period's first use (the key makes it once). */
export async function ensureUsage(trx: Executor, key: UsageKey, now: number): Promise<void> {
  await trx
    .insertInto('subscription_usage')
    .values({
      shop_id: key.shopId,
      subscription: key.subscription,
      profile_id: key.profileId,
      benefit: key.benefit,
      period_start: key.periodStart,
      savings_used: 0,
      savings_held: 0,
      usage_used: 0,
      usage_held: 0,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['shop_id', 'subscription', 'profile_id', 'benefit', 'period_start']).doNothing())
    .execute();
}

/**
 * Holds `savings` and `uses` if the period stays within both limits: the single
 * conditional UPDATE that keeps used + held ≤ limit under any concurrency (PostgreSQL
 * re-checks the condition on the row it waited for; SQLite writes one at a time).
 * False: refused, nothing written.
 */
export async function takeHold(
  trx: Transaction<Database>,
  key: UsageKey,
  amounts: { savings: number; uses: number },
  limits: { savingsLimit: number; usageLimit: number },
  now: number,
): Promise<boolean> {
  const query = trx
    .updateTable('subscription_usage')
    .set((eb) => ({
      savings_held: eb('savings_held', '+', amounts.savings),
      usage_held: eb('usage_held', '+', amounts.uses),
      updated_at: now,
    }))
    .where((eb) => eb(eb(eb('savings_used', '+', eb.ref('savings_held')), '+', amounts.savings), '<=', limits.savingsLimit))
    .where((eb) => eb(eb(eb('usage_used', '+', eb.ref('usage_held')), '+', amounts.uses), '<=', limits.usageLimit));
  const result = await query
    .where('shop_id', '=', key.shopId)
    .where('subscription', '=', key.subscription)
    .where('profile_id', '=', key.profileId)
    .where('benefit', '=', key.benefit)
    .where('period_start', '=', key.periodStart)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Moves a period's counters by a settled hold: given back (held −), counted (held − used +), un-counted (used −). */
export async function moveUsage(
  trx: Transaction<Database>,
  key: UsageKey,
  change: { savingsHeld: number; usageHeld: number; savingsUsed: number; usageUsed: number },
  now: number,
): Promise<void> {
  const query = trx.updateTable('subscription_usage').set((eb) => ({
    savings_held: eb('savings_held', '+', change.savingsHeld),
    usage_held: eb('usage_held', '+', change.usageHeld),
    savings_used: eb('savings_used', '+', change.savingsUsed),
    usage_used: eb('usage_used', '+', change.usageUsed),
    updated_at: now,
  }));
  await query
    .where('shop_id', '=', key.shopId)
    .where('subscription', '=', key.subscription)
    .where('profile_id', '=', key.profileId)
    .where('benefit', '=', key.benefit)
    .where('period_start', '=', key.periodStart)
    .execute();
}

export async function listUsage(
  db: Executor,
  shopId: string,
  subscription: string,
  profileId: number,
  periodStart: string,
): Promise<UsageRow[]> {
  return db
    .selectFrom('subscription_usage')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('subscription', '=', subscription)
    .where('profile_id', '=', profileId)
    .where('period_start', '=', periodStart)
    .execute();
}

/** Records the order's hold of a benefit, replacing a released one (the order's own earlier hold). */
export async function saveHold(trx: Transaction<Database>, row: HoldRow): Promise<void> {
  await trx
    .insertInto('subscription_holds')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['shop_id', 'order_id', 'benefit']).doUpdateSet({
        subscription: row.subscription,
        profile_id: row.profile_id,
        period_start: row.period_start,
        savings: row.savings,
        uses: row.uses,
        status: row.status,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Moves the order's holds in `from` to `to`, each once (the conditional UPDATE), and answers those it moved. */
export async function settleHolds(
  trx: Transaction<Database>,
  shopId: string,
  orderId: string,
  from: 'held' | 'captured',
  to: 'captured' | 'released',
  now: number,
): Promise<HoldRow[]> {
  const rows = await trx
    .updateTable('subscription_holds')
    .set({ status: to, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .where('status', '=', from)
    .returningAll()
    .execute();
  // One lock order for every multi-row settle, so two never deadlock.
  return rows.sort((a, b) => (a.benefit < b.benefit ? -1 : a.benefit > b.benefit ? 1 : 0));
}

export async function listHolds(db: Executor, shopId: string, orderId: string): Promise<HoldRow[]> {
  return db
    .selectFrom('subscription_holds')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('order_id', '=', orderId)
    .orderBy('benefit')
    .execute();
}
