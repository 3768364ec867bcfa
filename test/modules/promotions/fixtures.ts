import type { PromotionInput } from '../../../src/modules/promotions/domain/promotion.js';

/** An active 10% promotion on every line, with nothing else set. */
export const PROMOTION: PromotionInput = {
  name: 'Winter sale',
  status: 'active',
  startsAt: null,
  endsAt: null,
  priority: 0,
  discount: { type: 'percent', value: 1000 },
  productIds: [],
  categoryIds: [],
  minOrderTotal: null,
  streams: [],
  paymentTypes: [],
  byPromoCode: false,
  bonusRewardPercent: 0,
  locations: [],
  timeOfDay: null,
  memberLevels: [],
  firstOrderOnly: false,
  specialPrices: {},
};
