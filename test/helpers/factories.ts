import type { Shop } from '../../src/modules/shops/domain/shop.js';
import type { Services } from '../../src/services.js';

export interface ShopFixture {
  readonly shop: Shop;
  readonly shopId: string;
  readonly secret: string;
}

let counter = 0;

/** A fresh shop per call, so test files never share tenants. */
export async function createShopFixture(
  services: Pick<Services, 'shops'>,
  overrides: { name?: string; currency?: string; timezone?: string } = {},
): Promise<ShopFixture> {
  counter += 1;
  const { shop, secret } = await services.shops.createShop({ name: `Test shop ${counter}`, ...overrides });
  return { shop, shopId: shop.shopId, secret };
}
