import { assertHalfLife, compareScored, decayWeight, type ScoredItem } from './popularity.js';

/**
 * interesting: personal recommendations as the customer's affinity to the items of their
 * own history (recent and strong actions weigh more) times those items' neighbours.
 * No training loop: it reads the neighbour lists the rebuild job wrote. Pure: the history,
 * the lookup and `now` come in as arguments.
 */

export type HistoryKind = 'view' | 'cart' | 'purchase';

export interface HistoryEvent {
  readonly item: string;
  readonly kind: HistoryKind;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** An item's neighbours with their similarity, as co-occurrence ranked them. */
export type NeighbourLookup = (item: string) => readonly (readonly [string, number])[];

export const DEFAULT_KIND_WEIGHTS: Readonly<Record<HistoryKind, number>> = { view: 1, cart: 3, purchase: 5 };

export interface InterestingOptions {
  readonly now: number;
  readonly limit: number;
  readonly halfLifeDays: number;
  readonly kindWeights?: Readonly<Record<HistoryKind, number>>;
  /** Fewer scored candidates than this is not enough signal; defaults to `limit`. */
  readonly minItems?: number;
}

export interface InterestingResult {
  readonly items: ScoredItem[];
  /** False when the history gave fewer than `minItems` candidates: the caller tops up with popular. */
  readonly enough: boolean;
}

/**
 * score(c) = Σ over history items h of affinity(h) × similarity(h, c), where affinity(h)
 * sums recency × kind weight over h's events. Affinity is summed per item first, so each
 * distinct item is looked up once however often it was viewed. Purchased items are left
 * out: recommending what the customer just bought is the complaint this avoids.
 */
export function interesting(
  history: Iterable<HistoryEvent>,
  neighboursOf: NeighbourLookup,
  options: InterestingOptions,
): InterestingResult {
  assertHalfLife(options.halfLifeDays);
  const weights = options.kindWeights ?? DEFAULT_KIND_WEIGHTS;
  const affinity = new Map<string, number>();
  const purchased = new Set<string>();
  for (const event of history) {
    if (event.kind === 'purchase') purchased.add(event.item);
    const weight = decayWeight(event.at, options.now, options.halfLifeDays) * weights[event.kind];
    affinity.set(event.item, (affinity.get(event.item) ?? 0) + weight);
  }
  const scores = new Map<string, number>();
  for (const [item, weight] of affinity) {
    if (!(weight > 0)) continue;
    for (const [neighbour, similarity] of neighboursOf(item)) {
      if (!(similarity > 0) || purchased.has(neighbour)) continue;
      scores.set(neighbour, (scores.get(neighbour) ?? 0) + weight * similarity);
    }
  }
  // A history decades old weighs so little that a product's score can underflow to 0: no signal.
  const ranked = [...scores]
    .filter(([, score]) => score > 0)
    .map(([id, score]) => ({ id, score }))
    .sort(compareScored);
  const minItems = options.minItems ?? options.limit;
  return { items: ranked.slice(0, Math.max(0, options.limit)), enough: ranked.length >= minItems };
}
