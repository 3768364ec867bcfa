import { ShopperViewService, type ShopperViewDeps } from './shopper-view.service.js';

export interface ShopperViewServices {
  /** A customer's cart and orders with product data (GET /products/cart, /orders/…). */
  readonly shopperView: ShopperViewService;
}

export function createShopperViewModule(deps: ShopperViewDeps): { readonly services: ShopperViewServices } {
  return { services: { shopperView: new ShopperViewService(deps) } };
}
