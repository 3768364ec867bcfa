/** Small builders of checkout inputs: each test states only what it is about. */
import type {
  CartLine,
  CertificateRequest,
  CheckoutInput,
  MemberFacts,
  ProductFacts,
  PromoCodeRequest,
  Promotion,
  PromotionConditions,
} from '../../../src/modules/checkout/domain/types.js';

/** 2025-03-14 12:00 UTC: 15:00 in Moscow. */
export const NOW = Date.UTC(2025, 2, 14, 12, 0);

export function line(productId: string, price: number, quantity = 1, flags: Partial<CartLine> = {}): CartLine {
  return { productId, price, quantity, discountable: true, bonusable: true, rewardable: true, ...flags };
}

export function product(productId: string, categoryIds: string[] = [], name = `Product ${productId}`): ProductFacts {
  return { productId, name, categoryIds };
}

export function member(over: Partial<MemberFacts> = {}): MemberFacts {
  return { identifier: '79001234567', balance: 0, levelCode: null, rewardPercent: null, isFirstOrder: false, ...over };
}

export const NO_CONDITIONS: PromotionConditions = {
  productIds: [],
  categoryIds: [],
  minOrderTotal: null,
  streams: [],
  paymentTypes: [],
  locationIds: [],
  timeOfDay: null,
  memberLevels: [],
  firstOrderOnly: false,
};

export function promotion(
  id: number,
  over: Partial<Omit<Promotion, 'conditions'>> & { conditions?: Partial<PromotionConditions> } = {},
): Promotion {
  const { conditions, ...rest } = over;
  return {
    id,
    status: 'active',
    startsAt: null,
    endsAt: null,
    priority: 0,
    byPromoCode: false,
    discount: null,
    bonusRewardPercent: 0,
    ...rest,
    conditions: { ...NO_CONDITIONS, ...conditions },
  };
}

export function code(
  codeText: string,
  promotionId: number,
  over: Partial<Extract<PromoCodeRequest['state'], { found: true }>> = {},
): PromoCodeRequest {
  return {
    code: codeText,
    state: { found: true, promotionId, endsAt: null, usageLeft: null, perMemberLimit: null, memberUses: 0, ...over },
  };
}

export function certificate(
  codeText: string,
  id: number,
  balance: number,
  over: Partial<Extract<CertificateRequest['state'], { found: true }>> = {},
): CertificateRequest {
  return { code: codeText, state: { found: true, id, poolId: null, balance, expiresAt: null, active: true, ...over } };
}

export function input(over: Partial<CheckoutInput> = {}): CheckoutInput {
  const cart = over.cart ?? [line('A', 10_000)];
  return {
    cart,
    products: over.products ?? cart.map((l) => product(l.productId)),
    member: null,
    settings: { rewardPercent: 0, maxBonusSharePercent: 10_000, bonusValue: 100 },
    promotions: [],
    promoCodes: [],
    certificates: [],
    chargeBonuses: false,
    bonusesAmount: null,
    paymentType: null,
    stream: null,
    locationId: null,
    currentTime: null,
    now: NOW,
    timezone: 'Europe/Moscow',
    ...over,
  };
}
