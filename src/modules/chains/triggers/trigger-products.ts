import type { Product } from '../../catalog/index.js';
import type { ShopCurrency } from '../../catalog/index.js';
import type { Shop } from '../../shops/index.js';
import type { ChainProduct } from '../chain-starter.js';
import { chainProductsOf, MAX_TRIGGER_PRODUCTS, type TriggerItem } from './domain/products.js';

export interface TriggerProductsDeps {
  readonly shops: { getShop(shopId: string): Promise<Shop | undefined> };
  readonly products: { viewServedItems(shop: ShopCurrency, itemIds: readonly string[]): Promise<ReadonlyMap<string, Product>> };
}

/** The `products` of triggers' runs, from the served catalog (domain/products.ts). */
export class TriggerProducts {
  constructor(private readonly deps: TriggerProductsDeps) {}

  async of(shopId: string, items: readonly TriggerItem[]): Promise<ChainProduct[]> {
    return (await this.ofGroups(shopId, new Map([[0, items]]))).get(0) ?? [];
  }

  /** The products of several runs of one shop, the catalog read once for all. */
  async ofGroups<K>(shopId: string, groups: ReadonlyMap<K, readonly TriggerItem[]>): Promise<Map<K, ChainProduct[]>> {
    const newest = new Map([...groups].map(([key, items]) => [key, items.slice(-MAX_TRIGGER_PRODUCTS)]));
    const ids = [...new Set([...newest.values()].flatMap((items) => items.map((item) => item.id)))];
    const shop = await this.deps.shops.getShop(shopId);
    const served = shop && ids.length > 0 ? await this.deps.products.viewServedItems(shop, ids) : new Map<string, Product>();
    return new Map([...newest].map(([key, items]) => [key, chainProductsOf(items, served)]));
  }
}
