import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { TrackedItem } from './domain/items.js';
import type { RecommendedBy } from './domain/source.js';

/**
 * The tracking module's contract with its callers (public-api routes, the admin read
 * API, and subscribers in other modules). Inputs are already validated and normalised by
 * the scope; the service decides and stores.
 */

/**
 * contract-notes.md, "POST /push": the events of the endpoint, and `recone_view` /
 * `recone_click` ("Beyond interface.md": a recommendation block or in-app campaign shown
 * and clicked).
 */
export const PUSH_EVENTS = [
  'view',
  'category',
  'search',
  'cart',
  'remove_from_cart',
  'wish',
  'remove_wish',
  'purchase',
  'recone_view',
  'recone_click',
] as const;
export type PushEventName = (typeof PUSH_EVENTS)[number];

/** Identifiers an event may carry beside the device (normalised by the identity service). */
export interface EventIdentifiers {
  readonly email?: string;
  readonly phone?: string;
  readonly external_id?: string;
  readonly loyalty_id?: string;
  readonly telegram_id?: string;
}

/** Where the event came from, stored for later attribution (interface.md, POST /push). */
export interface EventAttribution {
  readonly stream?: string;
  readonly referer?: string;
  readonly segment?: 'A' | 'B';
  /** null when a `source` was given but ignored (source rule 2). */
  readonly recommendedBy?: RecommendedBy | null;
  readonly recommendedCode?: string | null;
}

export interface PurchaseDetails {
  readonly orderId?: string;
  /** Order total as sent by the client, in currency units. */
  readonly orderPrice?: number;
  readonly deliveryType?: string;
  readonly paymentType?: string;
  readonly promocode?: string;
  /**
   * What the mobile SDK's trackPurchase also sends (contract-notes "POST /push"): the
   * parts of the total in currency units (paid in cash, paid with bonuses, delivery,
   * discount), the sales channel, flags and the customer's order properties.
   */
  readonly orderCash?: number;
  readonly orderBonuses?: number;
  readonly orderDelivery?: number;
  readonly orderDiscount?: number;
  readonly channel?: string;
  readonly taxFree?: boolean;
  readonly giftPackage?: boolean;
  readonly deliveryAddress?: string;
  readonly custom?: Readonly<Record<string, CustomVariableValue>>;
}

/**
 * A recommendation block or in-app campaign shown (recone_view) or clicked (recone_click),
 * as the React Native SDK's track() sends it: `campaign` is what the app passed as the
 * block's `id` (GET /recommend answers it; a block's code is read too), `inventory` what
 * was shown, `position` where. At least one of campaign and inventory is given.
 */
export interface ReconeDetails {
  readonly campaign?: string;
  readonly inventory?: readonly string[];
  readonly position?: number;
}

export interface PushEventInput {
  readonly shopId: string;
  readonly did: string;
  readonly sid?: string;
  readonly event: PushEventName;
  /** Normalised items (domain/items.ts); empty only for full_cart / full_wish replacement. */
  readonly items: readonly TrackedItem[];
  /** cart: replace the whole cart with `items`. */
  readonly fullCart?: boolean;
  /** wish: replace the whole wish list with `items`. */
  readonly fullWish?: boolean;
  /** event `category`. */
  readonly categoryId?: string;
  /** event `search`. */
  readonly searchQuery?: string;
  /** event `search`: the offer ids the shop's own search showed (the SDK's `results`), in order. */
  readonly searchResults?: readonly string[];
  readonly purchase?: PurchaseDetails;
  /** recone_view / recone_click: what was shown or clicked. */
  readonly recone?: ReconeDetails;
  readonly attribution: EventAttribution;
  readonly identifiers?: EventIdentifiers;
}

export type CustomVariableValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

export interface CustomEventInput {
  readonly shopId: string;
  readonly did?: string;
  readonly sid?: string;
  readonly identifiers: EventIdentifiers;
  /** A code created for the shop in the admin API (checked by the service). */
  readonly code: string;
  readonly category?: string;
  readonly label?: string;
  readonly value?: number;
  /** Milliseconds since the epoch; an event in the past. Default: now. */
  readonly time?: number;
  /** Extra `[a-z0-9_]+` parameters, passed to triggered chains. */
  readonly variables: Readonly<Record<string, CustomVariableValue>>;
  /** The JS SDK's `payload` object: scalars or arrays of scalars. */
  readonly payload?: Readonly<Record<string, CustomVariableValue>>;
  /** From `source` (interface.md source rules 1-3): applied, or both null when ignored. */
  readonly source?: { readonly recommendedBy: RecommendedBy | null; readonly recommendedCode: string | null };
}

export interface InitInput {
  readonly shopId: string;
  readonly did?: string;
  readonly sid?: string;
  readonly stream?: string;
  readonly tz?: string;
  readonly referrer?: string;
}

export interface InitResult {
  readonly did: string;
  readonly sid: string;
}

/** One stored event, as subscribers and the admin read API see it. */
export interface StoredEvent {
  readonly id: number;
  readonly shopId: string;
  readonly profileId: number;
  readonly did: string | null;
  /** A PushEventName, or the custom event's code for custom events. */
  readonly event: string;
  readonly custom: boolean;
  readonly time: number;
  readonly items: readonly TrackedItem[];
  /**
   * The event's other parameters under their contract names (admin-api.md, Events):
   * stream, segment, recommended_by, recommended_code, order_id, category_id,
   * search_query, custom category, label, value and variables.
   */
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * A module that reacts to stored events (loyalty rewards, message chains). Delivery is
 * at least once, through a job enqueued in the same transaction as the event, so a
 * crash between commit and delivery loses nothing; `handle` must be idempotent (the
 * event id is the natural key).
 */
export interface TrackingSubscriber {
  readonly name: string;
  accepts(event: StoredEvent): boolean;
  handle(event: StoredEvent): Promise<void>;
}

/**
 * A module that keeps figures of stored events in the batch's own transaction (the
 * recommendation blocks' daily figures), so that they never disagree with what was
 * committed. It must not throw for data it cannot use: a throw fails the whole batch.
 */
export interface TrackedBatchListener {
  readonly name: string;
  /** `newOrders`: the purchase events of the batch that created an order (a repeated order_id creates none). */
  storedBatch(trx: Transaction<Database>, events: readonly StoredEvent[], newOrders: ReadonlySet<StoredEvent>): Promise<void>;
}

export interface ViewAttribution {
  readonly recommendedBy: RecommendedBy;
  readonly recommendedCode: string;
}

/**
 * A module that may attribute a device's next product view (the stories' last click,
 * docs/stories.md "Clicks"): in a batch's transaction it gives up, once, what it holds for
 * these devices of the shop, by did. The device's first view of the batch takes it and
 * applies it when it names no recommended_by.
 */
export interface ViewAttributionSource {
  readonly name: string;
  takeForViews(
    trx: Transaction<Database>,
    shopId: string,
    dids: readonly string[],
    now: number,
  ): Promise<ReadonlyMap<string, ViewAttribution>>;
}

export interface ProductCounterWindow {
  readonly view: number;
  readonly cart: number;
  readonly purchase: number;
}

/** The tracking half of GET /products/counters: `now` is the last 30 minutes, `daily` 24 hours. */
export interface ProductActivityCounters {
  readonly now: ProductCounterWindow;
  readonly daily: ProductCounterWindow;
}

export interface ProfileLists {
  readonly cart: readonly TrackedItem[];
  readonly wish: readonly TrackedItem[];
}

/** What trackPurchase tells of an order beside its items and amounts; each null when not sent. */
export interface OrderDetails {
  readonly channel: string | null;
  readonly taxFree: boolean | null;
  readonly giftPackage: boolean | null;
  readonly deliveryAddress: string | null;
  readonly custom: Readonly<Record<string, CustomVariableValue>> | null;
  /** The purchase event's stream. */
  readonly stream: string | null;
}

/** An order recorded from a purchase event (the platform's own order store). */
export interface TrackedOrder extends OrderDetails {
  readonly id: number;
  /** null when the purchase had no order_id (an empty one counts as none). */
  readonly orderId: string | null;
  readonly eventId: number;
  readonly profileId: number;
  readonly did: string | null;
  readonly items: readonly TrackedItem[];
  readonly deliveryType: string | null;
  readonly paymentType: string | null;
  readonly promocode: string | null;
  /** Minor units (kopecks): Σ price × amount, each price rounded to kopecks once. */
  readonly itemsTotal: number;
  /** Minor units: the client's order_price, when given. */
  readonly orderPrice: number | null;
  readonly createdAt: number;
  /** Minor units, each when given (trackPurchase). */
  readonly orderCash: number | null;
  readonly orderBonuses: number | null;
  readonly orderDelivery: number | null;
  readonly orderDiscount: number | null;
}
