import type { IdentityInput } from '../identity/index.js';

/** interface.md "Product counters": `triggers.back_in_stock` and `triggers.price_drop`. */
export const SUBSCRIPTION_KINDS = ['back_in_stock', 'price_drop'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

export interface SubscribeInput {
  readonly shopId: string;
  readonly kind: SubscriptionKind;
  readonly itemId: string;
  /** did, email, phone … as the request gave them (identity normalises). */
  readonly identity: IdentityInput;
  /**
   * price_drop: the price the customer saw or wants, in minor units; absent = the
   * product's current price. Ignored for back_in_stock.
   */
  readonly price?: number;
}

export interface UnsubscribeInput {
  readonly shopId: string;
  readonly kind: SubscriptionKind;
  /** The items to unsubscribe from; empty = every item of this kind. */
  readonly itemIds: readonly string[];
  readonly identity: IdentityInput;
}

export type SubscribeResult =
  | { readonly ok: true; readonly profileId: number }
  /** A did GET /init never registered (only /init registers a device). */
  | { readonly ok: false; readonly reason: 'unknown_device' }
  /** The served catalog has no such product. */
  | { readonly ok: false; readonly reason: 'unknown_product' }
  /** price_drop without a price, for a product that has none either. */
  | { readonly ok: false; readonly reason: 'price_required' };

export type UnsubscribeResult =
  | { readonly ok: true; readonly cancelled: number }
  | { readonly ok: false; readonly reason: 'unknown_device' };

export interface ProductSubscription {
  readonly kind: SubscriptionKind;
  readonly itemId: string;
  readonly profileId: number;
  readonly price: number | null;
  readonly status: 'active' | 'fired' | 'cancelled';
  readonly createdAt: number;
  readonly firedAt: number | null;
}

/** A subscription that fired: messaging turns it into a message. Prices in minor units. */
export interface ProductAlert {
  readonly generation: number;
  readonly kind: SubscriptionKind;
  readonly itemId: string;
  readonly profileId: number;
  readonly oldPrice: number | null;
  readonly newPrice: number | null;
  readonly subscribedPrice: number | null;
  readonly status: string;
  readonly createdAt: number;
}
