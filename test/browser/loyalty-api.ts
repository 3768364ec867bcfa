import { call } from './admin-api.js';

/** Seeding for the loyalty browser tests: the admin API with the admin token, and the public checkout. */

export async function createMember(shopId: string, phone: string): Promise<string> {
  const made = await call<{ identifier: string }>('POST', `/admin/v1/shops/${shopId}/loyalty/members`, { phone });
  return made.identifier;
}

export async function createPromotion(shopId: string, name: string): Promise<number> {
  const made = await call<{ id: number }>('POST', `/admin/v1/shops/${shopId}/promotions`, {
    name,
    status: 'active',
    discount: { type: 'percent', value: 10 },
  });
  return made.id;
}

/** A promotion as the admin API answers it. */
export async function getPromotion(shopId: string, id: number): Promise<Record<string, unknown>> {
  return call<Record<string, unknown>>('GET', `/admin/v1/shops/${shopId}/promotions/${id}`);
}

export async function createSubscription(shopId: string, code: string): Promise<void> {
  await call('POST', `/admin/v1/shops/${shopId}/subscriptions`, { code, name: `Plan ${code}`, status: 'active' });
}

/** POST /loyalty/checkout/estimate (docs/checkout.md) with one pair of boots at 200 (the checkout needs no catalog) and the promo codes given. */
export async function estimate(
  shop: { shop_id: string; shop_secret: string },
  promoCodes: string[],
): Promise<{ status: string; payload: { saved_by_offers: number; promo_codes: string[]; promo_codes_failed: unknown[] } }> {
  return call('POST', '/loyalty/checkout/estimate', {
    shop_id: shop.shop_id,
    shop_secret: shop.shop_secret,
    promo_codes: promoCodes,
    cart_items: [{ product_id: 'boots', price: 200, quantity: 1 }],
  });
}
