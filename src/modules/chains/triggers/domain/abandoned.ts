/**
 * Abandoned carts and wish lists (admin-api.md "Chains and bulk mailings": the
 * `abandoned_cart` and `abandoned_wish` triggers, `{"after_seconds": N}`). Pure: which
 * events move a watched list, which chains are due, when to look again.
 *
 * A list is abandoned when it is left unchanged for a chain's after_seconds. Its state is
 * named by the event that changed it last (per-shop event ids only grow), so a firing is
 * keyed by that event: a list fires once per state, and any later change (another event)
 * is a new state that re-arms it. A purchase is a change that does not arm: it ends the
 * abandoned cart (and its run, through the engine) until the cart changes again.
 */
import type { ActiveChain } from '../../chain-starter.js';

export type WatchedList = 'cart' | 'wish';
export type ListTriggerKind = 'abandoned_cart' | 'abandoned_wish';

export const LIST_TRIGGER: Readonly<Record<WatchedList, ListTriggerKind>> = {
  cart: 'abandoned_cart',
  wish: 'abandoned_wish',
};

/** What a stored event does to a watched list: moves it (`armed`), or ends it (a purchase). */
export interface ListSignal {
  readonly list: WatchedList;
  readonly armed: boolean;
  readonly purchase: boolean;
}

/** The list an event changes (interface.md "Events"); undefined for events that leave lists alone. */
export function listSignalOf(event: { readonly event: string; readonly custom: boolean }): ListSignal | undefined {
  if (event.custom) return undefined;
  switch (event.event) {
    case 'cart':
    case 'remove_from_cart':
      return { list: 'cart', armed: true, purchase: false };
    case 'wish':
    case 'remove_wish':
      return { list: 'wish', armed: true, purchase: false };
    case 'purchase':
      return { list: 'cart', armed: false, purchase: true };
    default:
      return undefined;
  }
}

function delayMs(chain: ActiveChain): number | undefined {
  const trigger = chain.trigger;
  if (trigger.kind !== 'abandoned_cart' && trigger.kind !== 'abandoned_wish') return undefined;
  return trigger.afterSeconds * 1000;
}

/** The chains whose delay has passed at `now` for a list last changed at `changedAt`. */
export function dueChains(chains: readonly ActiveChain[], changedAt: number, now: number): ActiveChain[] {
  return chains.filter((chain) => {
    const delay = delayMs(chain);
    return delay !== undefined && changedAt + delay <= now;
  });
}

/**
 * When to look at the list again: the earliest time one of the chains becomes due after
 * `now` (pass -Infinity for the first check after a change); undefined when none will.
 */
export function nextCheckAt(chains: readonly ActiveChain[], changedAt: number, now: number): number | undefined {
  let next: number | undefined;
  for (const chain of chains) {
    const delay = delayMs(chain);
    if (delay === undefined) continue;
    const at = changedAt + delay;
    if (at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

/** The run key of a list state: one run per chain and state, however often it is checked. */
export function listFiringKey(kind: ListTriggerKind, eventId: number): string {
  return `${kind}/${eventId}`;
}
