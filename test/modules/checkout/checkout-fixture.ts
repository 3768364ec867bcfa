import { newCheckoutRequest, type CheckoutRequest } from '../../../src/modules/checkout/checkout.types.js';
import type { CartLine } from '../../../src/modules/checkout/domain/types.js';
import type { Services } from '../../../src/services.js';
import { PROMOTION } from '../promotions/fixtures.js';

/** A cart line with every flag true; price in minor units. */
export const line = (productId: string, price: number, quantity = 1, flags: Partial<CartLine> = {}): CartLine => ({
  productId,
  price,
  quantity,
  discountable: true,
  bonusable: true,
  rewardable: true,
  ...flags,
});

export function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return newCheckoutRequest({ cart: [line('A', 100_00, 2), line('B', 50_00)], ...overrides });
}

/**
 * A programme rewarding 5% with bonuses paying up to 50% at 1.00 each; a member with
 * 100.00 bonuses; an active 10% promotion; a promo code SPRING (10.00 off the order, by
 * code) with `codeUses` uses; a certificate GIFT of 50.00.
 */
export async function programme(
  services: Services,
  shopId: string,
  options: { phone: string; codeUses?: number | null; pendingDays?: number },
) {
  await services.loyalty.putSettings(shopId, {
    rewardPercent: 500,
    maxBonusSharePercent: 5000,
    bonusValue: 100,
    bonusLifetimeDays: 365,
    rewardPendingDays: options.pendingDays ?? 0,
  });
  const member = await services.loyalty.joinMember(shopId, { phone: options.phone });
  await services.loyalty.creditManual(shopId, member.identifier, { amount: 100_00 });
  const sale = await services.promotions.createPromotion(shopId, PROMOTION);
  const byCode = await services.promotions.createPromotion(shopId, {
    ...PROMOTION,
    name: 'Spring code',
    byPromoCode: true,
    priority: -1,
    discount: { type: 'fixed', value: 10_00 },
  });
  await services.promoCodes.createCode(shopId, 'SPRING', byCode.id, { usageLimit: options.codeUses === undefined ? 10 : options.codeUses });
  const gift = await services.certificates.createCertificate(shopId, { code: 'GIFT', amount: 50_00 });
  return { member, sale, byCode, gift };
}

/** What a member, the code and the certificate hold right now. */
export async function balances(services: Services, shopId: string, identifier: string) {
  const member = await services.loyalty.viewMember(shopId, identifier);
  const code = await services.promoCodes.getCode(shopId, 'SPRING');
  const gift = await services.certificates.getCertificate(shopId, 'GIFT');
  return {
    bonuses: member.balance,
    pending: member.pending,
    codeUsed: code.used,
    codeBlocked: code.blocked,
    giftBalance: gift.balance,
    giftHeld: gift.held,
  };
}
