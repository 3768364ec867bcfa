/**
 * Promo codes at the checkout (docs/checkout.md "Promo codes"): which requested codes
 * bring their promotion into play, and why the others fail. A code that passes here still
 * fails with `conditions_not_met` when its promotion ends up changing nothing.
 */
import { isPromotionLive, orderConditionsHold, type OrderFacts } from './conditions.js';
import type { CodeFailure, PromoCodeFailureReason } from './result.js';
import type { MemberFacts, PromoCodeRequest, Promotion } from './types.js';

/** `promo_codes_failed[].message`, one sentence each. */
export const PROMO_CODE_MESSAGES: Readonly<Record<PromoCodeFailureReason, string>> = {
  unknown: 'Promo code is not found',
  expired: 'Promo code has expired',
  inactive: 'Promo code promotion is not active',
  exhausted: 'Promo code usage limit is reached',
  member_required: 'Promo code is only for loyalty program members',
  member_limit: 'Promo code usage limit per member is reached',
  conditions_not_met: 'Order does not meet the promo code conditions',
  already_applied: 'Promo code promotion is already applied',
};

/** One requested code, screened: it brings its promotion into play, or it fails. */
export type ScreenedCode =
  | { readonly ok: true; readonly code: string; readonly promotion: Promotion }
  | { readonly ok: false; readonly failure: CodeFailure<PromoCodeFailureReason> };

export function promoCodeFailure(code: string, reason: PromoCodeFailureReason): CodeFailure<PromoCodeFailureReason> {
  return { code, reason, message: PROMO_CODE_MESSAGES[reason] };
}

function screenOne(
  request: PromoCodeRequest,
  promotion: Promotion | undefined,
  member: MemberFacts | null,
  order: OrderFacts,
  now: number,
): PromoCodeFailureReason | null {
  const state = request.state;
  if (!state.found) return 'unknown';
  if (state.endsAt !== null && now >= state.endsAt) return 'expired';
  if (promotion === undefined || !isPromotionLive(promotion, now)) return 'inactive';
  if (state.usageLeft !== null && state.usageLeft <= 0) return 'exhausted';
  if (state.perMemberLimit !== null) {
    // A limit per member cannot be kept for a buyer nobody knows.
    if (member === null) return 'member_required';
    if (state.memberUses >= state.perMemberLimit) return 'member_limit';
  }
  if (!orderConditionsHold(promotion, order)) return 'conditions_not_met';
  return null;
}

/**
 * Screens the requested codes in the order given. The same code twice, or a second code
 * of a promotion an earlier code already brought in, fails as `already_applied`: a
 * promotion applies once, and only one code is used for it.
 */
export function screenPromoCodes(
  requests: readonly PromoCodeRequest[],
  promotions: ReadonlyMap<number, Promotion>,
  member: MemberFacts | null,
  order: OrderFacts,
  now: number,
): ScreenedCode[] {
  const screened: ScreenedCode[] = [];
  const fail = (code: string, reason: PromoCodeFailureReason) => screened.push({ ok: false, failure: promoCodeFailure(code, reason) });
  const seenCodes = new Set<string>();
  const seenPromotions = new Set<number>();
  for (const request of requests) {
    if (seenCodes.has(request.code)) {
      fail(request.code, 'already_applied');
      continue;
    }
    seenCodes.add(request.code);
    const promotion = request.state.found ? promotions.get(request.state.promotionId) : undefined;
    const reason = screenOne(request, promotion, member, order, now);
    if (reason !== null) {
      fail(request.code, reason);
    } else if (promotion === undefined || seenPromotions.has(promotion.id)) {
      fail(request.code, 'already_applied');
    } else {
      seenPromotions.add(promotion.id);
      screened.push({ ok: true, code: request.code, promotion });
    }
  }
  return screened;
}
