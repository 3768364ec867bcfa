import { newCheckoutRequest } from '../modules/checkout/checkout.types.js';
import { newPromotion } from '../modules/promotions/domain/promotion.js';
import { dateInTimezone } from '../modules/shops/domain/shop.js';
import { addDays } from '../modules/subscriptions/domain/periods.js';
import type { DemoContext } from './demo.js';

/** The demo's paid subscription and its plan (docs/subscriptions.md). */
export const DEMO_SUBSCRIPTION = 'plus';
export const DEMO_PLAN = 'monthly';
/** The order the demo member made with the subscription, confirmed. */
export const DEMO_SUBSCRIPTION_ORDER = 'demo-plus-1';

/**
 * A paid subscription "Plus, monthly" with a flag, a number and a promos benefit (10% off
 * clothing, at most 1,000.00 and 3 orders a month), the demo member subscribed for a year
 * from today, and one confirmed order of a linen T-shirt that took the benefit, so that
 * the welcome block's status and orders lines have something to show.
 */
export async function seedDemoSubscription({ services, shop }: DemoContext, memberPhone: string): Promise<void> {
  const sale = await services.promotions.createPromotion(
    shop.shopId,
    newPromotion({ name: 'Plus: 10% off clothing', status: 'active', discount: { type: 'percent', value: 1_000 }, categoryIds: ['10'] }),
  );
  await services.subscriptions.createSubscription(shop.shopId, { code: DEMO_SUBSCRIPTION, name: 'Plus' });
  await services.subscriptions.createPlan(shop.shopId, DEMO_SUBSCRIPTION, {
    code: DEMO_PLAN,
    name: 'Plus, monthly',
    periodDays: 30,
    benefits: [
      { code: 'free_delivery', name: 'Free delivery', dataType: 'boolean', value: true },
      { code: 'bonus_multiplier', name: 'Bonus multiplier', dataType: 'integer', value: 2 },
      { code: 'members_sale', name: 'Members sale', dataType: 'promos', promotionIds: [sale.id], savingsLimit: 1_000_00, usageLimit: 3 },
    ],
  });
  const today = dateInTimezone(services.clock.now(), shop.timezone);
  await services.subscriptionMembers.subscribe(shop.shopId, DEMO_SUBSCRIPTION, {
    identifier: memberPhone,
    plan: DEMO_PLAN,
    paidTill: addDays(today, 365),
  });
  const order = newCheckoutRequest({
    orderId: DEMO_SUBSCRIPTION_ORDER,
    identifier: memberPhone,
    paymentType: 'card',
    subscription: DEMO_SUBSCRIPTION,
    cart: [{ productId: '1003', price: 1_490_00, quantity: 1, discountable: true, bonusable: true, rewardable: true }],
  });
  await services.checkout.apply({ shopId: shop.shopId, timezone: shop.timezone }, order);
  await services.checkout.confirm(shop.shopId, DEMO_SUBSCRIPTION_ORDER);
}
