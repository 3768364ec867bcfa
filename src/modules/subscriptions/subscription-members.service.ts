import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { PUBLIC_MEMBER_NOT_FOUND } from '../loyalty/index.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { PromotionsService } from '../promotions/index.js';
import { dateInTimezone, isValidCalendarDate } from '../shops/index.js';
import type { ShopsService } from '../shops/index.js';
import { startOfDayIn } from '../shopper-view/index.js';
import { addDays, isPaid, periodOf } from './domain/periods.js';
import { allowanceOf, NO_USAGE } from './domain/benefits.js';
import * as repo from './subscriptions.repo.js';
import { toPlan } from './subscriptions.rows.js';
import {
  NOT_SUBSCRIBED,
  SUBSCRIPTION_NOT_FOUND,
  type BenefitState,
  type MemberStatus,
  type PromotionRef,
  type SubscriptionMember,
  type SubscriptionOrder,
  type SubscriptionOrders,
} from './subscriptions.types.js';

export interface SubscriptionMembersDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  /** Finds the loyalty member a public identifier names (NOT_FOUND otherwise). */
  readonly members: Pick<LoyaltyService, 'findMember'>;
  readonly promotions: Pick<PromotionsService, 'getPromotion'>;
  readonly orders: SubscriptionOrders;
}

/** A shop as this service needs it: the time zone its dates and periods are in. */
export interface SubscriptionShop {
  readonly shopId: string;
  readonly timezone: string;
}

export const ORDERS_LIMIT = 500;

/**
 * Members of paid subscriptions: subscribe, change plan, prolong, leave, the admin's
 * list, and the two public reads (docs/subscriptions.md). `active` and the current
 * period are computed at read time from the clock in the shop's time zone.
 */
export class SubscriptionMembersService {
  constructor(private readonly deps: SubscriptionMembersDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /**
   * Subscribes the loyalty member to a plan until `paidTill`, or, for a member already
   * subscribed, changes the plan and/or paid_till (prolong). The first subscription's day
   * anchors the billing periods for good.
   */
  async subscribe(
    shopId: string,
    code: string,
    input: { identifier: string; plan: string; paidTill: string },
  ): Promise<SubscriptionMember & { created: boolean }> {
    const shop = await this.deps.shops.requireShop(shopId);
    if (!isValidCalendarDate(input.paidTill)) {
      throw new AppError('VALIDATION_FAILED', 'Field `paid_till` must be a calendar date YYYY-MM-DD.', { field: 'paid_till' });
    }
    const subscription = await repo.findSubscription(this.db, shopId, code);
    if (!subscription) throw new AppError('NOT_FOUND', 'Subscription not found.');
    if (subscription.status === 'archived') throw new AppError('CONFLICT', 'An archived subscription takes no members.');
    const plan = await repo.findPlan(this.db, shopId, code, input.plan);
    if (!plan) throw new AppError('VALIDATION_FAILED', `Field \`plan\` names no plan of subscription \`${code}\`.`, { field: 'plan' });
    if (plan.status === 'archived') throw new AppError('CONFLICT', 'An archived plan takes no members.');
    const member = await this.deps.members.findMember(shopId, input.identifier);
    const now = this.deps.clock.now();
    const today = dateInTimezone(now, shop.timezone);
    const saved = await this.db.transaction().execute((trx) =>
      repo.upsertMember(trx, {
        shop_id: shopId,
        subscription: code,
        profile_id: member.profileId,
        identifier: member.identifier,
        plan: input.plan,
        started_on: today,
        paid_till: input.paidTill,
        created_at: now,
        updated_at: now,
      }),
    );
    await this.deps.db.durable();
    return { ...toMember(saved.row, Number(plan.period_days), today), created: saved.created };
  }

  /** The member leaves: the membership row goes; its usage rows stay for the record. Not subscribed: NOT_FOUND. */
  async leave(shopId: string, code: string, identifier: string): Promise<void> {
    await this.requireSubscription(shopId, code);
    const member = await this.deps.members.findMember(shopId, identifier);
    if (!(await repo.deleteMember(this.db, shopId, code, member.profileId))) throw new AppError('NOT_FOUND', 'Member is not subscribed.');
    await this.deps.db.durable();
  }

  async listMembers(
    shopId: string,
    code: string,
    page: { after?: string | undefined; limit: number },
  ): Promise<{ members: SubscriptionMember[]; nextAfter: string | null }> {
    const shop = await this.deps.shops.requireShop(shopId);
    await this.requireSubscription(shopId, code);
    const rows = await repo.listMembers(this.db, shopId, code, page.after, page.limit + 1);
    const plans = new Map((await repo.listPlans(this.db, shopId, code)).map((p) => [p.code, Number(p.period_days)]));
    const today = dateInTimezone(this.deps.clock.now(), shop.timezone);
    const members = rows.slice(0, page.limit).map((r) => toMember(r, plans.get(r.plan) ?? 1, today));
    return { members, nextAfter: rows.length > page.limit ? (members.at(-1)?.identifier ?? null) : null };
  }

  /**
   * GET /loyalty/subscriptions/members/status (interface.md endpoint 2): the member, and
   * each benefit of its plan with, for promos benefits, the current period's use.
   */
  async status(shop: SubscriptionShop, code: string, identifier: string): Promise<MemberStatus> {
    const { member: row, plan } = await this.requireSubscribed(shop.shopId, code, identifier);
    const today = dateInTimezone(this.deps.clock.now(), shop.timezone);
    const member = toMember(row, plan.periodDays, today);
    const usage = new Map(
      (await repo.listUsage(this.db, shop.shopId, code, Number(row.profile_id), member.periodStart)).map((u) => [
        u.benefit,
        {
          savingsUsed: Number(u.savings_used),
          savingsHeld: Number(u.savings_held),
          usageUsed: Number(u.usage_used),
          usageHeld: Number(u.usage_held),
        },
      ]),
    );
    const benefits: BenefitState[] = [];
    for (const b of plan.benefits) {
      if (b.dataType !== 'promos') benefits.push(b);
      else
        benefits.push({
          ...b,
          promotions: await this.promotionRefs(shop.shopId, b.promotionIds),
          allowance: allowanceOf(b, usage.get(b.code) ?? NO_USAGE),
        });
    }
    return { member, benefits };
  }

  /**
   * GET /loyalty/subscriptions/orders (interface.md endpoint 4): the member's checkout
   * orders applied with this subscription, newest first, every status; `dateFrom` and
   * `dateTo` are whole days of the shop's time zone, both included.
   */
  async orders(
    shop: SubscriptionShop,
    code: string,
    identifier: string,
    range: { dateFrom?: string | undefined; dateTo?: string | undefined },
  ): Promise<SubscriptionOrder[]> {
    const { member } = await this.requireSubscribed(shop.shopId, code, identifier);
    return this.deps.orders.subscriptionOrders(shop.shopId, {
      subscription: code,
      profileId: Number(member.profile_id),
      from: range.dateFrom === undefined ? undefined : startOfDayIn(range.dateFrom, shop.timezone),
      to: range.dateTo === undefined ? undefined : startOfDayIn(addDays(range.dateTo, 1), shop.timezone),
      limit: ORDERS_LIMIT,
    });
  }

  /**
   * The subscription, the loyalty member and its membership, each refused in the public
   * contract's words: an unknown member first (interface.md's sentence), then the rest.
   */
  private async requireSubscribed(shopId: string, code: string, identifier: string) {
    const subscription = await repo.findSubscription(this.db, shopId, code);
    if (!subscription) throw new AppError('NOT_FOUND', SUBSCRIPTION_NOT_FOUND);
    const found = await this.deps.members.findMember(shopId, identifier).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', PUBLIC_MEMBER_NOT_FOUND);
      throw error;
    });
    const member = await repo.findMember(this.db, shopId, code, found.profileId);
    if (!member) throw new AppError('NOT_FOUND', NOT_SUBSCRIBED);
    const planRow = await repo.findPlan(this.db, shopId, code, member.plan);
    if (!planRow) throw new Error(`Subscription member of ${code} names a missing plan ${member.plan}.`);
    return { subscription, member, plan: toPlan(planRow) };
  }

  private async requireSubscription(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!(await repo.findSubscription(this.db, shopId, code))) throw new AppError('NOT_FOUND', 'Subscription not found.');
  }

  private async promotionRefs(shopId: string, ids: readonly number[]): Promise<PromotionRef[]> {
    const refs: PromotionRef[] = [];
    for (const id of ids) {
      const found = await this.deps.promotions.getPromotion(shopId, id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
        throw error;
      });
      if (found) refs.push({ id: found.id, name: found.name, status: found.status });
    }
    return refs;
  }
}

export function toMember(row: repo.MemberRow, periodDays: number, today: string): SubscriptionMember {
  const period = periodOf(row.started_on, periodDays, today);
  return {
    identifier: row.identifier,
    subscription: row.subscription,
    plan: row.plan,
    active: isPaid(row.paid_till, today),
    paidTill: row.paid_till,
    periodStart: period.start,
    limitsResetDate: period.next,
    startedOn: row.started_on,
  };
}
