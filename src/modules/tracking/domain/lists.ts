/**
 * Carts and wish lists (interface.md, "Events": cart, wish). Pure: the batch loads the
 * lists a batch touches, applies its operations in order here, and stores the result.
 *
 * Adding an item whose id is already in the list REPLACES that entry (amount, price,
 * sizes) where it stands; it does not sum the amounts. Delivery is at least once, so a
 * client that retries a cart event must not double its amounts, and SDKs send the amount
 * now in the cart, not a difference.
 */
import type { TrackedItem } from './items.js';

export const LIST_NAMES = ['cart', 'wish'] as const;
export type ListName = (typeof LIST_NAMES)[number];

/** A list keeps its newest entries up to this many; older ones drop off the front. */
export const MAX_LIST_ITEMS = 1000;

export type ListOperation =
  /** cart / wish: add or replace entries by item id. */
  | { readonly kind: 'add'; readonly items: readonly TrackedItem[] }
  /** full_cart / full_wish: the list becomes exactly these items. */
  | { readonly kind: 'replace'; readonly items: readonly TrackedItem[] }
  /** remove_from_cart / remove_wish (and purchase, from the cart): drop these ids. */
  | { readonly kind: 'remove'; readonly ids: readonly string[] };

export function applyListOperation(current: readonly TrackedItem[], op: ListOperation): TrackedItem[] {
  return applyListOperations(current, [op]);
}

/**
 * Applies the operations in order. The list is kept as a Map from item id, whose
 * insertion order is the list order: setting an id that is present keeps its place.
 */
export function applyListOperations(current: readonly TrackedItem[], ops: readonly ListOperation[]): TrackedItem[] {
  let list = new Map(current.map((item) => [item.id, item]));
  for (const op of ops) {
    if (op.kind === 'remove') {
      for (const id of op.ids) list.delete(id);
      continue;
    }
    if (op.kind === 'replace') list = new Map();
    for (const item of op.items) list.set(item.id, item);
    // Drop the oldest entries past the cap after each addition, as a lone event would.
    for (const id of list.keys()) {
      if (list.size <= MAX_LIST_ITEMS) break;
      list.delete(id);
    }
  }
  return [...list.values()];
}

/** A merge of two profiles' lists: the union by item id, the survivor's entries winning. */
export function mergeLists(survivor: readonly TrackedItem[], merged: readonly TrackedItem[]): TrackedItem[] {
  const ids = new Set(survivor.map((item) => item.id));
  const union = [...merged.filter((item) => !ids.has(item.id)), ...survivor];
  return union.length > MAX_LIST_ITEMS ? union.slice(union.length - MAX_LIST_ITEMS) : union;
}
