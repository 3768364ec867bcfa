import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';

/**
 * The seam between what notices a chain's trigger and the chain engine that runs chains
 * (docs/chains.md). The engine (chains.service.ts) implements it; the trigger detectors
 * (custom events, abandoned cart and wish list, back in stock and price drop, segment
 * entry, purchases) call it, in the transaction of what they record where they have one,
 * so that a trigger noticed is never lost and a trigger noticed twice starts one run.
 */

export type Executor = Kysely<Database> | Transaction<Database>;

/** A trigger as admin-api.md "Chains and bulk mailings" spells it, in module terms. */
export type ChainTrigger =
  | { readonly kind: 'event'; readonly code: string }
  | { readonly kind: 'abandoned_cart'; readonly afterSeconds: number }
  | { readonly kind: 'abandoned_wish'; readonly afterSeconds: number }
  | { readonly kind: 'back_in_stock' }
  | { readonly kind: 'price_drop' }
  | { readonly kind: 'segment_entry'; readonly segmentId: number };

export type TriggerKind = ChainTrigger['kind'];

/**
 * A product of a cart, wish list or product trigger, as templates read it under `products`.
 * The feed may lack a product's price, link or picture (or the product itself, for a cart
 * line the served catalog no longer has): those are then absent, and `name` is ''.
 */
export interface ChainProduct {
  readonly id: string;
  readonly name: string;
  /** Whole currency units as a number (admin-api.md: `"price" (number)`). */
  readonly price?: number;
  readonly url?: string;
  readonly picture?: string;
}

export interface ActiveChain {
  readonly chainId: number;
  readonly trigger: ChainTrigger;
}

export interface RunStart {
  readonly shopId: string;
  readonly chainId: number;
  readonly profileId: number;
  /** The trigger's variables: the template variables and what `if` conditions read. */
  readonly variables: Readonly<Record<string, unknown>>;
  readonly products?: readonly ChainProduct[];
  /**
   * Unique per chain and firing (an event's id, a cart's last change): a firing handed
   * over twice starts one run.
   */
  readonly key: string;
  readonly at: number;
}

export type StartOutcome = 'started' | 'duplicate' | 'refused_reentry' | 'chain_inactive';

export interface ChainStarter {
  /** The shop's active chains with a trigger of this kind; cheap (cached briefly), so detectors may ask per event. */
  activeChains(shopId: string, kind: TriggerKind): Promise<readonly ActiveChain[]>;
  /** Starts a run of one chain for one profile under the chain's re-entry rule. */
  startRun(executor: Executor, start: RunStart): Promise<StartOutcome>;
  /** Ends the profile's waiting runs of chains with a trigger of this kind (a purchase ends abandoned-cart runs). */
  endRuns(executor: Executor, shopId: string, profileId: number, kind: TriggerKind, at: number): Promise<number>;
}
