import { AppError } from '../../errors.js';
import type { Product } from '../catalog/index.js';
import type { ShopCurrency } from '../catalog/index.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import type { TrackedItem } from '../tracking/index.js';
import type { ProfileLists, TrackedOrder } from '../tracking/index.js';

/**
 * What a shopper's app reads of its own customer (GET /products/cart, GET
 * /orders/by_user, GET /orders/last_for_user): the cart and the orders tracking keeps,
 * with the served catalog's product data. A read model over identity, tracking and the
 * catalog; it writes nothing and owns no table. Decisions: docs/shopper-reads.md.
 */

/** What the view reads of tracking; TrackingService satisfies it. */
export interface ShopperTrackingReads {
  getLists(shopId: string, profileId: number): Promise<ProfileLists>;
  listRecentOrders(
    shopId: string,
    profileId: number,
    options: { readonly since?: number; readonly limit: number },
  ): Promise<TrackedOrder[]>;
}

/** The served catalog's product views by offer id; ProductsService satisfies it. */
export interface ShopperProductSource {
  viewServedItems(shop: ShopCurrency, itemIds: readonly string[]): Promise<ReadonlyMap<string, Product>>;
}

export interface ShopperViewDeps {
  readonly identity: Pick<IdentityService, 'requireDevice' | 'findProfiles'>;
  readonly tracking: ShopperTrackingReads;
  readonly products: ShopperProductSource;
}

/** A customer as an app names it: its device, and/or identifiers (raw; identity normalises them). */
export type CustomerLookup = Pick<IdentityInput, 'did' | 'email' | 'phone' | 'externalId' | 'loyaltyId' | 'telegramId'>;

export interface CartLine {
  readonly item: TrackedItem;
  /** null when the served catalog lacks the product. */
  readonly product: Product | null;
}

export interface CustomerOrders {
  /** Newest first. */
  readonly orders: readonly TrackedOrder[];
  /** The served products of the orders' items, by offer id; a product the feed lacks is absent. */
  readonly products: ReadonlyMap<string, Product>;
}

/** Most orders GET /orders/by_user answers (the newest ones since date_from). */
export const MAX_ORDERS_ANSWERED = 100;

export const CUSTOMER_NOT_FOUND = 'Customer not found';

export class ShopperViewService {
  constructor(private readonly deps: ShopperViewDeps) {}

  /** The device's cart, in its order, each line with its product when the catalog serves it. NOT_FOUND for an unknown device. */
  async cartOf(shop: ShopCurrency, did: string): Promise<CartLine[]> {
    const device = await this.deps.identity.requireDevice(shop.shopId, did);
    const { cart } = await this.deps.tracking.getLists(shop.shopId, device.profileId);
    const products = await this.deps.products.viewServedItems(
      shop,
      cart.map((item) => item.id),
    );
    return cart.map((item) => ({ item, product: products.get(item.id) ?? null }));
  }

  /** The customer's newest orders (at most MAX_ORDERS_ANSWERED) since `since` (ms), with the product data of their items. */
  async ordersOf(shop: ShopCurrency, lookup: CustomerLookup, since: number | undefined): Promise<CustomerOrders> {
    const profileId = await this.customerOf(shop.shopId, lookup);
    const orders = await this.deps.tracking.listRecentOrders(shop.shopId, profileId, {
      ...(since !== undefined && { since }),
      limit: MAX_ORDERS_ANSWERED,
    });
    const ids = [...new Set(orders.flatMap((order) => order.items.map((item) => item.id)))];
    return { orders, products: await this.deps.products.viewServedItems(shop, ids) };
  }

  /**
   * The products of the customer's newest order, in the order's item order, each once;
   * products the served catalog lacks are left out. No order: an empty list.
   */
  async lastOrderProducts(shop: ShopCurrency, lookup: CustomerLookup): Promise<Product[]> {
    const profileId = await this.customerOf(shop.shopId, lookup);
    const [last] = await this.deps.tracking.listRecentOrders(shop.shopId, profileId, { limit: 1 });
    if (!last) return [];
    const ids = [...new Set(last.items.map((item) => item.id))];
    const products = await this.deps.products.viewServedItems(shop, ids);
    return ids.flatMap((id) => {
      const product = products.get(id);
      return product ? [product] : [];
    });
  }

  /**
   * The customer's profile: by its identifiers when any is given (every given one must
   * match: the same rule as the admin lookup), otherwise by the device. An SDK sends its
   * did with every call, so an email names the customer even from a device not yet linked.
   */
  private async customerOf(shopId: string, lookup: CustomerLookup): Promise<number> {
    const { did, ...identifiers } = lookup;
    if (Object.values(identifiers).some((value) => value !== undefined && value !== null)) {
      const [profile] = await this.deps.identity.findProfiles(shopId, identifiers);
      if (!profile) throw new AppError('NOT_FOUND', CUSTOMER_NOT_FOUND);
      return profile.id;
    }
    if (did === undefined || did === null) throw new Error('A customer lookup needs a did or an identifier');
    return (await this.deps.identity.requireDevice(shopId, did)).profileId;
  }
}
