/**
 * What one incoming event will write, decided before the batch that stores it: the
 * event row's fields, its list operations, counter hit and order. Pure: the batch only
 * adds ids, profiles and the database.
 */
import type { CustomEventInput, EventIdentifiers, OrderDetails, PushEventInput } from '../tracking.types.js';
import type { CounterKind } from './counters.js';
import type { TrackedItem } from './items.js';
import type { ListName, ListOperation } from './lists.js';
import { orderParts, orderTotals, type OrderPartField } from './money.js';

export interface OrderDraft extends OrderDetails {
  /** null when absent; an empty order_id counts as absent. */
  readonly orderId: string | null;
  readonly deliveryType: string | null;
  readonly paymentType: string | null;
  readonly promocode: string | null;
  /** Minor units. */
  readonly itemsTotal: number;
  /** Minor units. */
  readonly orderPrice: number | null;
  /** Minor units, each null when not given. */
  readonly parts: Readonly<Record<OrderPartField, number | null>>;
}

export interface ListChange {
  readonly list: ListName;
  readonly op: ListOperation;
}

export interface EventDraft {
  readonly shopId: string;
  readonly did: string | null;
  readonly sid: string | null;
  /** A push event name or the custom event's code. */
  readonly event: string;
  readonly custom: boolean;
  /** When the event happened (a custom event may be in the past). */
  readonly time: number;
  /** When the server received it: session activity and created_at. */
  readonly receivedAt: number;
  readonly items: readonly TrackedItem[];
  readonly params: Readonly<Record<string, unknown>>;
  readonly stream: string | null;
  readonly segment: string | null;
  readonly recommendedBy: string | null;
  readonly recommendedCode: string | null;
  /** Identifiers beside the device; undefined when none is given. */
  readonly identifiers: EventIdentifiers | undefined;
  readonly listChanges: readonly ListChange[];
  readonly counter: CounterKind | undefined;
  readonly order: OrderDraft | undefined;
}

export type PushDraft =
  | { readonly ok: true; readonly draft: EventDraft }
  /** An amount too large to count exactly: an item's price, order_price or a part of the order. */
  | { readonly ok: false; readonly field: 'price' | 'order_price' | OrderPartField };

/**
 * List effects of the push events (interface.md, "Events"). A purchase also takes the
 * bought items out of the cart: they are no longer waiting to be bought.
 */
function listChangesOf(input: PushEventInput): ListChange[] {
  const ids = input.items.map((item) => item.id);
  switch (input.event) {
    case 'cart':
      return [{ list: 'cart', op: input.fullCart ? { kind: 'replace', items: input.items } : { kind: 'add', items: input.items } }];
    case 'remove_from_cart':
      return [{ list: 'cart', op: { kind: 'remove', ids } }];
    case 'wish':
      return [{ list: 'wish', op: input.fullWish ? { kind: 'replace', items: input.items } : { kind: 'add', items: input.items } }];
    case 'remove_wish':
      return [{ list: 'wish', op: { kind: 'remove', ids } }];
    case 'purchase':
      return ids.length > 0 ? [{ list: 'cart', op: { kind: 'remove', ids } }] : [];
    default:
      return [];
  }
}

/**
 * Product counters count views, additions to the cart and purchases. A full_cart event
 * restates the whole cart rather than adding to it, so it counts nothing.
 */
function counterOf(input: PushEventInput): CounterKind | undefined {
  if (input.event === 'view') return 'view';
  if (input.event === 'cart' && !input.fullCart) return 'cart';
  if (input.event === 'purchase') return 'purchase';
  return undefined;
}

export function draftPushEvent(input: PushEventInput, now: number): PushDraft {
  const { attribution: a, purchase: p } = input;
  const orderId = p?.orderId === undefined || p.orderId === '' ? undefined : p.orderId;
  const amounts = orderParts({
    ...(p?.orderCash !== undefined && { order_cash: p.orderCash }),
    ...(p?.orderBonuses !== undefined && { order_bonuses: p.orderBonuses }),
    ...(p?.orderDelivery !== undefined && { order_delivery: p.orderDelivery }),
    ...(p?.orderDiscount !== undefined && { order_discount: p.orderDiscount }),
  });
  if (!amounts.ok) return { ok: false, field: amounts.field };
  // The event shows the parts in currency units as the order keeps them: rounded to kopecks.
  const shown = (minor: number | null) => (minor === null ? undefined : minor / 100);
  const params = withoutUndefined({
    stream: a.stream,
    segment: a.segment,
    recommended_by: a.recommendedBy,
    recommended_code: a.recommendedCode,
    referer: a.referer,
    order_id: orderId,
    category_id: input.categoryId,
    search_query: input.searchQuery,
    results: input.searchResults,
    full_cart: input.fullCart === true ? true : undefined,
    full_wish: input.fullWish === true ? true : undefined,
    delivery_type: p?.deliveryType,
    payment_type: p?.paymentType,
    promocode: p?.promocode,
    order_price: p?.orderPrice,
    order_cash: shown(amounts.parts.order_cash),
    order_bonuses: shown(amounts.parts.order_bonuses),
    order_delivery: shown(amounts.parts.order_delivery),
    order_discount: shown(amounts.parts.order_discount),
    channel: p?.channel,
    tax_free: p?.taxFree,
    gift_package: p?.giftPackage,
    delivery_address: p?.deliveryAddress,
    custom: p?.custom,
    campaign: input.recone?.campaign,
    inventory: input.recone?.inventory,
    position: input.recone?.position,
  });

  let order: OrderDraft | undefined;
  if (input.event === 'purchase') {
    const totals = orderTotals(input.items, p?.orderPrice);
    if (!totals.ok) return { ok: false, field: totals.field };
    order = {
      orderId: orderId ?? null,
      deliveryType: p?.deliveryType ?? null,
      paymentType: p?.paymentType ?? null,
      promocode: p?.promocode ?? null,
      itemsTotal: totals.itemsTotal,
      orderPrice: totals.orderPrice,
      parts: amounts.parts,
      channel: p?.channel ?? null,
      taxFree: p?.taxFree ?? null,
      giftPackage: p?.giftPackage ?? null,
      deliveryAddress: p?.deliveryAddress ?? null,
      custom: p?.custom ?? null,
      stream: a.stream ?? null,
    };
  }

  return {
    ok: true,
    draft: {
      shopId: input.shopId,
      did: input.did,
      sid: input.sid ?? null,
      event: input.event,
      custom: false,
      time: now,
      receivedAt: now,
      items: input.items,
      params,
      stream: a.stream ?? null,
      segment: a.segment ?? null,
      recommendedBy: a.recommendedBy ?? null,
      recommendedCode: a.recommendedCode ?? null,
      identifiers: givenIdentifiers(input.identifiers),
      listChanges: listChangesOf(input),
      counter: counterOf(input),
      order,
    },
  };
}

/** A custom event's params: its variables, then category, label, value and the SDK's payload. */
export function draftCustomEvent(input: CustomEventInput, now: number): EventDraft {
  const params = withoutUndefined({
    ...input.variables,
    category: input.category,
    label: input.label,
    value: input.value,
    payload: input.payload,
    // A source's attribution wins over extra variables of the same names.
    ...(input.source && { recommended_by: input.source.recommendedBy, recommended_code: input.source.recommendedCode }),
  });
  return {
    shopId: input.shopId,
    did: input.did ?? null,
    sid: input.sid ?? null,
    event: input.code,
    custom: true,
    time: input.time ?? now,
    receivedAt: now,
    items: [],
    params,
    stream: null,
    segment: null,
    recommendedBy: input.source?.recommendedBy ?? null,
    recommendedCode: input.source?.recommendedCode ?? null,
    identifiers: givenIdentifiers(input.identifiers),
    listChanges: [],
    counter: undefined,
    order: undefined,
  };
}

function givenIdentifiers(identifiers: EventIdentifiers | undefined): EventIdentifiers | undefined {
  if (!identifiers) return undefined;
  const given = withoutUndefined({ ...identifiers }) as EventIdentifiers;
  return Object.keys(given).length > 0 ? given : undefined;
}

/** Absent parameters are left out; null (an ignored `source`) is kept. */
function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) result[key] = value;
  return result;
}
