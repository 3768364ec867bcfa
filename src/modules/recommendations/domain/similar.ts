/**
 * similar: products like the current one, from its categories, near its price. The price
 * band widens step by step until the block is full, so a product with few close
 * neighbours still gets a full list, the closest first. Pure: products come in as arguments.
 */

export interface ProductFacts {
  readonly id: string;
  /** Integer minor units; null for a product without a price. */
  readonly price: number | null;
  readonly categories: readonly string[];
  readonly params: Readonly<Record<string, readonly string[]>>;
}

/** Percent of the current price either side; past the last band any price will do. */
export const PRICE_BANDS_PERCENT: readonly number[] = [10, 25, 50];

export interface SimilarOptions {
  readonly limit: number;
  readonly bandsPercent?: readonly number[];
}

interface Ranked {
  readonly id: string;
  readonly band: number;
  readonly shared: number;
  readonly distance: number;
}

/**
 * Up to `limit` ids: candidates sharing a category with `current`, never `current` itself,
 * each once. Ranked by the narrowest band that holds them, then by params shared, then by
 * price distance, then id. Sorting by band first is the same as widening band by band
 * and filling the list from each before the next.
 */
export function similarProducts(current: ProductFacts, candidates: Iterable<ProductFacts>, options: SimilarOptions): string[] {
  const bands = options.bandsPercent ?? PRICE_BANDS_PERCENT;
  const categories = new Set(current.categories);
  const seen = new Set<string>([current.id]);
  const params = paramSets(current);
  const ranked: Ranked[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.id) || !candidate.categories.some((category) => categories.has(category))) continue;
    seen.add(candidate.id);
    const distance = current.price === null || candidate.price === null ? Infinity : Math.abs(candidate.price - current.price);
    ranked.push({ id: candidate.id, band: bandOf(distance, current.price, bands), shared: countShared(params, candidate), distance });
  }
  ranked.sort(compareRanked);
  return ranked.slice(0, Math.max(0, options.limit)).map((item) => item.id);
}

/**
 * The index of the narrowest band holding the distance, compared in integers (distance ×
 * 100 against percent × price) so that a band's edge is exact; bands.length for any price.
 */
export function bandOf(distance: number, price: number | null, bandsPercent: readonly number[]): number {
  if (price === null || !Number.isFinite(distance)) return bandsPercent.length;
  const index = bandsPercent.findIndex((percent) => distance * 100 <= percent * Math.abs(price));
  return index < 0 ? bandsPercent.length : index;
}

/** Params (by name) on which both products have at least one value in common. */
export function sharedParams(a: ProductFacts, b: ProductFacts): number {
  return countShared(paramSets(a), b);
}

// The current product's values as sets, built once: a feed allows hundreds of params of
// dozens of values each, and every candidate is compared with them.
function paramSets(product: ProductFacts): Map<string, Set<string>> {
  return new Map(Object.entries(product.params).map(([name, values]) => [name, new Set(values)]));
}

function countShared(params: ReadonlyMap<string, ReadonlySet<string>>, candidate: ProductFacts): number {
  let shared = 0;
  for (const [name, values] of Object.entries(candidate.params)) {
    const own = params.get(name);
    if (own !== undefined && values.some((value) => own.has(value))) shared++;
  }
  return shared;
}

function compareRanked(a: Ranked, b: Ranked): number {
  if (a.band !== b.band) return a.band - b.band;
  if (a.shared !== b.shared) return b.shared - a.shared;
  if (a.distance !== b.distance) return a.distance < b.distance ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
