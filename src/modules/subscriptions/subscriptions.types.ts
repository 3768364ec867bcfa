import type { SubscriptionStatus } from '../../db/types.js';
import type { Benefit, BenefitAllowance } from './domain/benefits.js';

/**
 * The subscriptions module's contract with its callers (admin API, public edge, the
 * checkout): plain typed objects, money in minor units, dates YYYY-MM-DD of the shop's zone.
 */

export type { SubscriptionStatus };

export interface Subscription {
  readonly code: string;
  readonly name: string;
  readonly status: SubscriptionStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface Plan {
  readonly subscription: string;
  readonly code: string;
  readonly name: string;
  readonly status: SubscriptionStatus;
  readonly periodDays: number;
  readonly benefits: readonly Benefit[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface PlanInput {
  readonly code: string;
  readonly name: string;
  readonly periodDays: number;
  readonly status?: SubscriptionStatus | undefined;
  readonly benefits: readonly Benefit[];
}

export interface SubscriptionMember {
  readonly identifier: string;
  readonly subscription: string;
  readonly plan: string;
  /** False once paid_till is past (computed at read time from the clock). */
  readonly active: boolean;
  readonly paidTill: string;
  /** The first day of the current billing period. */
  readonly periodStart: string;
  /** The first day of the next billing period. */
  readonly limitsResetDate: string;
  readonly startedOn: string;
}

export interface PromotionRef {
  readonly id: number;
  readonly name: string;
  readonly status: string;
}

/** A benefit with what it has used and left this period (promos benefits). */
export type BenefitState =
  | Exclude<Benefit, { dataType: 'promos' }>
  | (Extract<Benefit, { dataType: 'promos' }> & { readonly promotions: readonly PromotionRef[]; readonly allowance: BenefitAllowance });

export interface MemberStatus {
  readonly member: SubscriptionMember;
  readonly benefits: readonly BenefitState[];
}

export interface SubscriptionOrder {
  readonly orderId: string;
  readonly status: string;
  readonly createdAt: number;
  /** The stored calculation's result (CheckoutResult). */
  readonly result: unknown;
}

/** Where a member's orders computed with a subscription come from: the checkout (CheckoutService), which keeps orders. */
export interface SubscriptionOrders {
  /** Newest first, created within [from, to) when given. */
  subscriptionOrders(
    shopId: string,
    filter: { subscription: string; profileId: number; from: number | undefined; to: number | undefined; limit: number },
  ): Promise<SubscriptionOrder[]>;
}

export const SUBSCRIPTION_NOT_FOUND = 'Subscription is not found';
export const NOT_SUBSCRIBED = 'Loyalty program member is not subscribed to this subscription';
