import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/types.js';
import { TtlCache } from '../../ttl-cache.js';
import { dateInTimezone } from '../shops/index.js';
import { allowanceOf, NO_USAGE, type BenefitAllowance, type PromosBenefit } from './domain/benefits.js';
import { isPaid, periodOf } from './domain/periods.js';
import * as repo from './subscriptions.repo.js';
import { toPlan } from './subscriptions.rows.js';

/** The shop as usage needs it: periods are days of its time zone. */
export interface UsageShop {
  readonly shopId: string;
  readonly timezone: string;
}

/** What an order takes of one promos benefit: minor units of discount and applications. */
export interface BenefitAmount {
  readonly benefit: string;
  readonly savings: number;
  readonly uses: number;
}

export interface UsageHoldRequest {
  readonly subscription: string;
  readonly profileId: number;
  readonly amounts: readonly BenefitAmount[];
}

export type UsageRefusal = 'not_subscribed' | 'not_active' | 'unknown_benefit' | 'limit_reached';

export type UsageHoldOutcome =
  | { readonly ok: true; readonly periodStart: string }
  | { readonly ok: false; readonly reason: UsageRefusal; readonly benefit?: string };

/** A promos benefit the member may use now, with what is left of it for one order. */
export interface UsableBenefit {
  readonly code: string;
  readonly promotionIds: readonly number[];
  readonly allowance: BenefitAllowance;
}

export interface MemberAllowances {
  readonly periodStart: string;
  readonly benefits: readonly UsableBenefit[];
}

/**
 * How long the checkout uses the benefit-only promotions it read before (every order
 * reads them): a plan written through this process is seen at once, one written through
 * another process within this time.
 */
export const BENEFIT_ONLY_CACHE_TTL_MS = 1_000;
const BENEFIT_ONLY_CACHE_MAX_SHOPS = 10_000;

/**
 * The checkout's side of promos benefits (docs/subscriptions.md, "Holds"): what a member
 * has left, and the holds an applied order places, counts at confirm and gives back at
 * cancel. Every operation takes the caller's transaction, so the checkout's own holds and
 * these commit or roll back together; every limit is one conditional UPDATE.
 */
export class SubscriptionUsageService {
  private readonly benefitOnly: TtlCache<string, ReadonlySet<number>>;

  constructor(private readonly deps: { readonly clock: Clock }) {
    this.benefitOnly = new TtlCache({ max: BENEFIT_ONLY_CACHE_MAX_SHOPS, ttlMs: BENEFIT_ONLY_CACHE_TTL_MS, clock: deps.clock });
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.benefitOnly.clear();
  }

  /**
   * The member's usable promos benefits and what is left of each this period, not
   * counting `orderId`'s own hold (a repeat apply replaces it). Null when the member
   * gets no benefits now: not subscribed, unpaid, or the subscription or plan paused.
   */
  async allowances(
    db: repo.Executor,
    shop: UsageShop,
    subscription: string,
    profileId: number,
    orderId?: string,
  ): Promise<MemberAllowances | null> {
    const state = await this.usable(db, shop, subscription, profileId);
    if (!state.ok) return null;
    const { periodStart, benefits } = state;
    const rows = new Map((await repo.listUsage(db, shop.shopId, subscription, profileId, periodStart)).map((u) => [u.benefit, u]));
    const own =
      orderId === undefined
        ? []
        : (await repo.listHolds(db, shop.shopId, orderId)).filter((h) => h.status === 'held' && h.period_start === periodStart);
    return {
      periodStart,
      benefits: benefits.map((b) => {
        const u = rows.get(b.code);
        const mine = own.find((h) => h.benefit === b.code);
        const usage = u
          ? {
              savingsUsed: Number(u.savings_used),
              savingsHeld: Number(u.savings_held) - Number(mine?.savings ?? 0),
              usageUsed: Number(u.usage_used),
              usageHeld: Number(u.usage_held) - Number(mine?.uses ?? 0),
            }
          : NO_USAGE;
        return { code: b.code, promotionIds: b.promotionIds, allowance: allowanceOf(b, usage) };
      }),
    };
  }

  /**
   * Whether the member is in the subscription, paid or not: its orders that name the
   * subscription are the subscription's orders (contract-notes "Loyalty checkout").
   */
  async isSubscribed(db: repo.Executor, shopId: string, subscription: string, profileId: number): Promise<boolean> {
    return (await repo.findMember(db, shopId, subscription, profileId)) !== undefined;
  }

  /**
   * The promotions that apply only through a benefit: every promotion a promos benefit of
   * one of the shop's plans names (docs/subscriptions.md, "In the checkout").
   * The checkout leaves them out of play unless the order's member holds the benefit.
   */
  async benefitPromotionIds(db: repo.Executor, shopId: string): Promise<ReadonlySet<number>> {
    const kept = this.benefitOnly.get(shopId);
    if (kept) return kept;
    const ids = new Set<number>();
    for (const row of await repo.listShopPlans(db, shopId)) {
      for (const b of toPlan(row).benefits) if (b.dataType === 'promos') for (const id of b.promotionIds) ids.add(id);
    }
    this.benefitOnly.set(shopId, ids);
    return ids;
  }

  /** A plan of the shop was created or changed (SubscriptionsService): its benefit-only promotions are read again. */
  forgetPlans(shopId: string): void {
    this.benefitOnly.delete(shopId);
  }

  /**
   * Holds the amounts for the order in the current period, replacing the order's earlier
   * hold. All or nothing: on a refusal the order's earlier hold is put back as it was
   * and nothing else is written, so the caller may recalculate or roll back as it likes.
   */
  async hold(trx: Transaction<Database>, shop: UsageShop, orderId: string, request: UsageHoldRequest): Promise<UsageHoldOutcome> {
    const now = this.deps.clock.now();
    const released = await this.releaseHeld(trx, shop.shopId, orderId, now);
    const state = await this.usable(trx, shop, request.subscription, request.profileId);
    if (!state.ok) {
      await this.restore(trx, released, now);
      return { ok: false, reason: state.reason };
    }
    const byCode = new Map(state.benefits.map((b) => [b.code, b]));
    const amounts = [...request.amounts].sort((a, b) => (a.benefit < b.benefit ? -1 : a.benefit > b.benefit ? 1 : 0));
    const taken: { key: repo.UsageKey; amount: BenefitAmount }[] = [];
    for (const amount of amounts) {
      const benefit = byCode.get(amount.benefit);
      const key = {
        shopId: shop.shopId,
        subscription: request.subscription,
        profileId: request.profileId,
        benefit: amount.benefit,
        periodStart: state.periodStart,
      };
      let ok = false;
      if (benefit !== undefined && isAmount(amount)) {
        await repo.ensureUsage(trx, key, now);
        ok = await repo.takeHold(trx, key, amount, { savingsLimit: benefit.savingsLimit, usageLimit: benefit.usageLimit }, now);
      }
      if (!ok) {
        for (const t of taken)
          await repo.moveUsage(
            trx,
            t.key,
            { savingsHeld: -t.amount.savings, usageHeld: -t.amount.uses, savingsUsed: 0, usageUsed: 0 },
            now,
          );
        await this.restore(trx, released, now);
        return { ok: false, reason: benefit === undefined ? 'unknown_benefit' : 'limit_reached', benefit: amount.benefit };
      }
      taken.push({ key, amount });
    }
    for (const { key, amount } of taken) {
      await repo.saveHold(trx, {
        shop_id: shop.shopId,
        order_id: orderId,
        benefit: key.benefit,
        subscription: key.subscription,
        profile_id: key.profileId,
        period_start: key.periodStart,
        savings: amount.savings,
        uses: amount.uses,
        status: 'held',
        created_at: now,
        updated_at: now,
      });
    }
    return { ok: true, periodStart: state.periodStart };
  }

  /** Confirm: the order's holds become counted use of the period they were placed in, once. Answers how many moved. */
  async capture(trx: Transaction<Database>, shopId: string, orderId: string): Promise<number> {
    const now = this.deps.clock.now();
    const rows = await repo.settleHolds(trx, shopId, orderId, 'held', 'captured', now);
    for (const h of rows) {
      const s = Number(h.savings);
      const u = Number(h.uses);
      await repo.moveUsage(trx, keyOf(h), { savingsHeld: -s, usageHeld: -u, savingsUsed: s, usageUsed: u }, now);
    }
    return rows.length;
  }

  /** Cancel: held amounts are given back and captured ones counted no more, in their own periods, once. */
  async release(trx: Transaction<Database>, shopId: string, orderId: string): Promise<number> {
    const now = this.deps.clock.now();
    const released = await this.releaseHeld(trx, shopId, orderId, now);
    const uncounted = await repo.settleHolds(trx, shopId, orderId, 'captured', 'released', now);
    for (const h of uncounted) {
      await repo.moveUsage(
        trx,
        keyOf(h),
        { savingsHeld: 0, usageHeld: 0, savingsUsed: -Number(h.savings), usageUsed: -Number(h.uses) },
        now,
      );
    }
    return released.length + uncounted.length;
  }

  private async releaseHeld(trx: Transaction<Database>, shopId: string, orderId: string, now: number): Promise<repo.HoldRow[]> {
    const rows = await repo.settleHolds(trx, shopId, orderId, 'held', 'released', now);
    for (const h of rows) {
      await repo.moveUsage(
        trx,
        keyOf(h),
        { savingsHeld: -Number(h.savings), usageHeld: -Number(h.uses), savingsUsed: 0, usageUsed: 0 },
        now,
      );
    }
    return rows;
  }

  /** Puts back holds released in this transaction: their room cannot have been taken, as this transaction holds their rows. */
  private async restore(trx: Transaction<Database>, rows: readonly repo.HoldRow[], now: number): Promise<void> {
    for (const h of rows) {
      await repo.saveHold(trx, { ...h, status: 'held', updated_at: now });
      await repo.moveUsage(trx, keyOf(h), { savingsHeld: Number(h.savings), usageHeld: Number(h.uses), savingsUsed: 0, usageUsed: 0 }, now);
    }
  }

  /** Whether the member gets benefits now, and which: subscribed, paid, the subscription active and the plan not paused. */
  private async usable(
    db: repo.Executor,
    shop: UsageShop,
    subscription: string,
    profileId: number,
  ): Promise<{ ok: true; periodStart: string; benefits: PromosBenefit[] } | { ok: false; reason: UsageRefusal }> {
    const member = await repo.findMember(db, shop.shopId, subscription, profileId);
    if (!member) return { ok: false, reason: 'not_subscribed' };
    const owner = await repo.findSubscription(db, shop.shopId, subscription);
    const planRow = await repo.findPlan(db, shop.shopId, subscription, member.plan);
    const today = dateInTimezone(this.deps.clock.now(), shop.timezone);
    if (!owner || owner.status !== 'active' || !planRow || planRow.status === 'inactive' || !isPaid(member.paid_till, today)) {
      return { ok: false, reason: 'not_active' };
    }
    const plan = toPlan(planRow);
    const benefits = plan.benefits.filter((b): b is PromosBenefit => b.dataType === 'promos');
    return { ok: true, periodStart: periodOf(member.started_on, plan.periodDays, today).start, benefits };
  }
}

function isAmount(a: BenefitAmount): boolean {
  return Number.isSafeInteger(a.savings) && a.savings >= 0 && Number.isSafeInteger(a.uses) && a.uses >= 0;
}

function keyOf(h: repo.HoldRow): repo.UsageKey {
  return {
    shopId: h.shop_id,
    subscription: h.subscription,
    profileId: Number(h.profile_id),
    benefit: h.benefit,
    periodStart: h.period_start,
  };
}
