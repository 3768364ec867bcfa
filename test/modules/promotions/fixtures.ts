import { newPromotion, type PromotionInput } from '../../../src/modules/promotions/domain/promotion.js';

/** An active 10% promotion on every line, with nothing else set. */
export const PROMOTION: PromotionInput = newPromotion({
  name: 'Winter sale',
  status: 'active',
  discount: { type: 'percent', value: 1000 },
});
