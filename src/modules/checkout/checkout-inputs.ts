import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ProductFacts } from '../catalog/index.js';
import type { SubscriptionUsageService } from '../subscriptions/index.js';
import { PUBLIC_MEMBER_NOT_FOUND } from '../loyalty/index.js';
import type { LoyaltySettings } from '../loyalty/index.js';
import type { LoyaltyLedger } from '../loyalty/index.js';
import type { LoyaltyLevelsService } from '../loyalty/index.js';
import type { LoyaltyReferralService } from '../loyalty/index.js';
import type { FoundMember, LoyaltyService } from '../loyalty/index.js';
import type { CertificatesService } from '../promotions/index.js';
import { normalizeCode } from '../promotions/index.js';
import { minuteOfDay, type Promotion as StoredPromotion } from '../promotions/index.js';
import type { PromoCodesService } from '../promotions/index.js';
import type { PromotionsService } from '../promotions/index.js';
import * as repo from './checkout.repo.js';
import type { CheckoutRequest, CheckoutShop } from './checkout.types.js';
import type { CheckoutResult } from './domain/result.js';
import type { CertificateRequest, CheckoutInput, MemberFacts, PromoCodeRequest, PromoCodeState, Promotion } from './domain/types.js';

export interface CheckoutInputsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly members: Pick<LoyaltyService, 'findMemberWithLevelOf' | 'settingsOf' | 'balanceAt'>;
  readonly levels: Pick<LoyaltyLevelsService, 'levelOf'>;
  readonly ledger: Pick<LoyaltyLedger, 'activeHoldAmount'>;
  readonly referrals: Pick<LoyaltyReferralService, 'referralOf'>;
  readonly promotions: Pick<PromotionsService, 'activePromotionsAt'>;
  readonly promoCodes: Pick<PromoCodesService, 'findCodes' | 'blockedCodesOf' | 'memberUsesOf'>;
  readonly certificates: Pick<CertificatesService, 'findCertificates' | 'heldOf'>;
  readonly products: Pick<ProductFacts, 'productFacts'>;
  readonly subscriptions: Pick<SubscriptionUsageService, 'allowances' | 'benefitPromotionIds' | 'isSubscribed'>;
}

/** The order being applied again, whose own holds must not count against it. */
export interface OwnHolds {
  readonly orderId: string;
  /** The order is stored: it may hold codes and certificates (holds are written only with their order's row). */
  readonly stored: boolean;
  readonly profileId: number | null;
  readonly bonusHoldId: number | null;
}

export interface LoadedInput {
  readonly input: CheckoutInput;
  readonly member: { readonly profileId: number; readonly identifier: string } | null;
  readonly settings: LoyaltySettings;
  /** The paid subscription the order is computed with: the request's, when the member is subscribed to it; else null. */
  readonly subscription: string | null;
}

/**
 * Loads what the calculation takes (docs/checkout.md "Inputs"): the member, the settings,
 * the live promotions, the requested codes and certificates with what *other* orders hold
 * of them, and the products from the served catalog. `forced` overrides the state of codes
 * a block refused in an earlier round, so a lost race ends in `promo_codes_failed`.
 */
export class CheckoutInputs {
  constructor(private readonly deps: CheckoutInputsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async load(
    shop: CheckoutShop,
    request: CheckoutRequest,
    own: OwnHolds | null,
    forced: ReadonlyMap<string, PromoCodeState>,
  ): Promise<LoadedInput> {
    const { shopId } = shop;
    const now = this.deps.clock.now();
    const settings = await this.deps.members.settingsOf(shopId);
    const member = await this.resolveMember(shopId, request);
    const mine = own !== null && member !== null && own.profileId === member.profileId ? own : null;
    const promotions = await this.deps.promotions.activePromotionsAt(shopId, now);
    // Whether this is the member's first order is read only when a promotion asks: the
    // read walks the member's orders, and nothing else in the calculation looks at it.
    const firstOrderMatters = promotions.some((p) => p.firstOrderOnly);
    const [facts, promoCodes, certificates, products, { benefits, subscription }] = await Promise.all([
      member ? this.memberFacts(shopId, member, mine, now, firstOrderMatters) : Promise.resolve(null),
      this.codeRequests(shopId, request.promoCodes, member?.profileId ?? null, own, forced),
      this.certificateRequests(shopId, request.certificates, own),
      this.deps.products.productFacts(
        shopId,
        request.cart.map((l) => l.productId),
      ),
      this.benefits(shop, request, member?.profileId ?? null),
    ]);
    const input: CheckoutInput = {
      cart: request.cart,
      products: [...products].map(([productId, p]) => ({ productId, name: p.name ?? '---', categoryIds: p.categoryIds })),
      member: facts,
      settings,
      promotions: promotions.map(toCalculationPromotion),
      promoCodes,
      certificates,
      chargeBonuses: request.chargeBonuses,
      bonusesAmount: request.bonusesAmount,
      paymentType: request.paymentType,
      stream: request.stream,
      locationId: request.locationId,
      currentTime: request.currentTime,
      now,
      timezone: shop.timezone,
      benefits,
    };
    return { input, member, settings, subscription };
  }

  /**
   * Paid subscriptions' promos benefits (docs/subscriptions.md "In the checkout"): the
   * promotions that apply only through a benefit are known for every order, so that a
   * guest or a member without the benefit never gets them; a member's grants, with what
   * is left of them this period (not counting this order's own hold), only when the
   * request names a subscription the member is in. That subscription is the one the
   * order is computed with, and the order records it.
   */
  private async benefits(
    shop: CheckoutShop,
    request: CheckoutRequest,
    profileId: number | null,
  ): Promise<{ benefits: CheckoutInput['benefits']; subscription: string | null }> {
    const benefitOnly = await this.deps.subscriptions.benefitPromotionIds(this.db, shop.shopId);
    const named = request.subscription ?? null;
    const subscription =
      named !== null && profileId !== null && (await this.deps.subscriptions.isSubscribed(this.db, shop.shopId, named, profileId))
        ? named
        : null;
    const allowances =
      subscription !== null && profileId !== null
        ? await this.deps.subscriptions.allowances(this.db, shop, subscription, profileId, request.orderId ?? undefined)
        : null;
    const grants = (allowances?.benefits ?? []).map((b) => ({
      benefit: b.code,
      promotionIds: b.promotionIds,
      savingsLeft: b.allowance.savingsLeft,
      usageLeft: b.allowance.usageLeft,
    }));
    return { benefits: benefitOnly.size === 0 && grants.length === 0 ? undefined : { grants, benefitOnly }, subscription };
  }

  /**
   * The referral fields of the answer (`referrer_identifier`, `referral_program`,
   * `bonuses_referrer_reward`): the member's referrer while its referral waits for the
   * first purchase, rewarded on what the order pays for.
   */
  async withReferral(shopId: string, profileId: number | null, result: CheckoutResult): Promise<CheckoutResult> {
    if (profileId === null) return result;
    const referral = await this.deps.referrals.referralOf(shopId, profileId);
    if (!referral) return result;
    return {
      ...result,
      referrerIdentifier: referral.referrerIdentifier,
      referralProgram: referral.program.id,
      bonusesReferrerReward: referral.rewardFor(purchaseAmount(result)),
    };
  }

  /**
   * No identifier: a guest. An identifier that names no member is a guest too, unless
   * bonuses are to be charged: then the member must exist (contract-notes "Loyalty checkout").
   */
  private async resolveMember(shopId: string, request: CheckoutRequest): Promise<FoundMember | null> {
    if (request.identifier === null) {
      if (request.chargeBonuses)
        throw new AppError('VALIDATION_FAILED', 'Parameter `identifier` is required to charge bonuses.', { field: 'identifier' });
      return null;
    }
    try {
      return await this.deps.members.findMemberWithLevelOf(shopId, request.identifier);
    } catch (error) {
      // The shop is the request's authenticated one: a NOT_FOUND here is the member's.
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      if (request.chargeBonuses) throw new AppError('NOT_FOUND', PUBLIC_MEMBER_NOT_FOUND);
      return null;
    }
  }

  private async memberFacts(
    shopId: string,
    member: FoundMember,
    own: OwnHolds | null,
    now: number,
    firstOrderMatters: boolean,
  ): Promise<MemberFacts> {
    const [balance, ownHold, level, completed] = await Promise.all([
      this.deps.members.balanceAt(shopId, member.profileId, now),
      own?.bonusHoldId == null ? Promise.resolve(0) : this.deps.ledger.activeHoldAmount(shopId, own.bonusHoldId),
      this.deps.levels.levelOf(shopId, member.profileId, member.storedLevel),
      firstOrderMatters ? repo.hasCompletedOrder(this.db, shopId, member.profileId) : Promise.resolve(false),
    ]);
    return {
      identifier: member.identifier,
      balance: balance + ownHold,
      levelCode: level?.code ?? null,
      rewardPercent: level?.rewardPercent ?? null,
      isFirstOrder: !completed,
    };
  }

  private async codeRequests(
    shopId: string,
    texts: readonly string[],
    profileId: number | null,
    own: OwnHolds | null,
    forced: ReadonlyMap<string, PromoCodeState>,
  ): Promise<PromoCodeRequest[]> {
    if (texts.length === 0) return [];
    const found = await this.deps.promoCodes.findCodes(shopId, texts);
    const ownBlocks = own?.stored ? await this.deps.promoCodes.blockedCodesOf(shopId, own.orderId) : [];
    // The member's uses count only against a per-member limit (domain/codes.ts): read only for codes that have one.
    const limited = [...found.values()].filter((c) => c.perMemberLimit !== null).map((c) => c.code);
    const taken =
      profileId === null || limited.length === 0
        ? new Map<string, number>()
        : await this.deps.promoCodes.memberUsesOf(shopId, profileId, limited);
    return texts.map((text) => {
      const code = normalizeCode(text);
      const row = code === null ? undefined : found.get(code);
      if (code === null || !row) return { code: code ?? text, state: { found: false } };
      const forcedState = forced.get(code);
      if (forcedState) return { code, state: forcedState };
      const mine = ownBlocks.find((b) => b.code === code);
      const ownUse = mine ? 1 : 0;
      const ownMemberUse = mine && profileId !== null && mine.profileId === profileId ? 1 : 0;
      return {
        code,
        state: {
          found: true,
          promotionId: row.promotionId,
          endsAt: row.endsAt,
          usageLeft: row.usageLimit === null ? null : row.usageLimit - row.used - row.blocked + ownUse,
          perMemberLimit: row.perMemberLimit,
          memberUses: Math.max(0, (taken.get(code) ?? 0) - ownMemberUse),
        },
      };
    });
  }

  private async certificateRequests(shopId: string, texts: readonly string[], own: OwnHolds | null): Promise<CertificateRequest[]> {
    if (texts.length === 0) return [];
    const found = await this.deps.certificates.findCertificates(shopId, texts);
    const held = own?.stored ? await this.deps.certificates.heldOf(shopId, own.orderId) : new Map<string, number>();
    return texts.map((text) => {
      const code = normalizeCode(text);
      const row = code === null ? undefined : found.get(code);
      if (code === null || !row) return { code: code ?? text, state: { found: false } };
      return {
        code,
        state: {
          found: true,
          id: row.id,
          poolId: row.poolId,
          balance: row.balance - row.held + (held.get(code) ?? 0),
          expiresAt: row.expiresAt,
          active: true,
        },
      };
    });
  }
}

/**
 * What an order counts for levels and the referrer's reward: its price after promotions
 * (what the buyer pays by any means: money, bonuses, certificates).
 */
export function purchaseAmount(result: CheckoutResult): number {
  return result.orderTotal - result.savedByOffers - result.savedByDiscounts;
}

/**
 * A promotion of the admin core as the calculation takes it (docs/checkout.md
 * "Actions"): `percent` is per line and `fixed` per order; special prices, when a
 * promotion lists any, are its action in place of the discount; a percent of 0 is no
 * discount (a promotion that only rewards).
 */
export function toCalculationPromotion(p: StoredPromotion): Promotion {
  const specials = Object.entries(p.specialPrices);
  const discount: Promotion['discount'] =
    specials.length > 0
      ? { kind: 'special_price', prices: specials.map(([productId, price]) => ({ productId, price })) }
      : p.discount.type === 'percent'
        ? p.discount.value > 0
          ? { kind: 'percent', percent: p.discount.value, per: 'line' }
          : null
        : { kind: 'fixed', amount: p.discount.value, per: 'order' };
  const from = p.timeOfDay ? minuteOfDay(p.timeOfDay.from) : null;
  const to = p.timeOfDay ? minuteOfDay(p.timeOfDay.to) : null;
  return {
    id: p.id,
    status: p.status,
    startsAt: p.startsAt,
    endsAt: p.endsAt,
    priority: p.priority,
    byPromoCode: p.byPromoCode,
    conditions: {
      productIds: p.productIds,
      categoryIds: p.categoryIds,
      minOrderTotal: p.minOrderTotal,
      streams: p.streams,
      paymentTypes: p.paymentTypes,
      locationIds: p.locations,
      timeOfDay: from !== null && to !== null ? { from, to } : null,
      memberLevels: p.memberLevels,
      firstOrderOnly: p.firstOrderOnly,
    },
    discount,
    bonusRewardPercent: p.bonusRewardPercent,
  };
}
