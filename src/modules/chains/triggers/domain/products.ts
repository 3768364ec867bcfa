/**
 * The `products` a cart, wish-list or product trigger gives its run (admin-api.md
 * "Chains and bulk mailings": `[{"id", "name", "price" (number), "url", "picture"}]`).
 * Pure: the served catalog's views in, the run's products out.
 */
import type { Product } from '../../../catalog/index.js';
import type { ChainProduct } from '../../chain-starter.js';

/** Products one run carries at most: a template lists a few, and a run's state stays small. */
export const MAX_TRIGGER_PRODUCTS = 50;

/** An item as a trigger names it: its id, and the price the shop sent with it (currency units), if any. */
export interface TriggerItem {
  readonly id: string;
  readonly price?: number;
}

/**
 * The run's products in the items' order, the newest MAX_TRIGGER_PRODUCTS of them (lists
 * keep their newest entries last). A product the served catalog lacks keeps its id, an
 * empty name and the price the shop sent; a field the feed lacks is left out.
 */
export function chainProductsOf(items: readonly TriggerItem[], served: ReadonlyMap<string, Product>): ChainProduct[] {
  return items.slice(-MAX_TRIGGER_PRODUCTS).map((item) => {
    const product = served.get(item.id);
    const price = product?.price_full ?? item.price;
    return {
      id: item.id,
      name: product?.name ?? '',
      ...(price !== undefined && price !== null && { price }),
      ...(product?.url && { url: product.url }),
      ...(product?.picture && { picture: product.picture }),
    };
  });
}
