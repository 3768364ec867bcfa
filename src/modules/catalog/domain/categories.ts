/**
 * The category tree of an import: parents resolved, loops broken, levels computed, and the
 * per-category counts of direct products that GET /products/categories filters by. Pure.
 */
import { hasDiscount, type ProductDraft } from './feed-offer.js';
import { FEED_LIMITS, type RawCategory } from './feed-types.js';

export interface ResolvedCategory {
  readonly externalId: string;
  /** null for a root. */
  readonly parentExternalId: string | null;
  readonly name: string;
  readonly url: string | null;
  /** 1 for a root. */
  readonly level: number;
}

export interface CategoryNote {
  readonly id: string;
  readonly reason: string;
}

/**
 * Resolves parents: a category whose parent is not in the feed (or is itself) becomes a
 * root; in each loop of parents the member with the smallest id (by code unit order, so
 * the choice does not depend on the feed's order) becomes a root. Both are noted.
 */
export function resolveCategories(categories: readonly RawCategory[]): {
  categories: ResolvedCategory[];
  notes: CategoryNote[];
} {
  const notes: CategoryNote[] = [];
  const parentOf = new Map<string, string | null>();
  const unique: RawCategory[] = [];
  for (const category of categories) {
    if (parentOf.has(category.id)) {
      notes.push({ id: category.id, reason: 'category id appears twice; the later one is ignored' });
      continue;
    }
    unique.push(category);
    const parent = category.parentId;
    if (parent === undefined) {
      parentOf.set(category.id, null);
    } else if (parent === category.id) {
      parentOf.set(category.id, null);
      notes.push({ id: category.id, reason: 'category is its own parent; it became a root' });
    } else {
      parentOf.set(category.id, parent);
    }
  }
  for (const [id, parent] of parentOf) {
    if (parent !== null && !parentOf.has(parent)) {
      parentOf.set(id, null);
      notes.push({ id, reason: `parent category ${parent} is not in the feed; it became a root` });
    }
  }
  breakLoops(parentOf, notes);

  const levels = new Map<string, number>();
  for (const id of parentOf.keys()) levelOf(id, parentOf, levels);
  return {
    categories: unique.map((c) => ({
      externalId: c.id,
      parentExternalId: parentOf.get(c.id) ?? null,
      name: c.name,
      url: c.url ?? null,
      level: levels.get(c.id) ?? 1,
    })),
    notes,
  };
}

/** Walks each chain once (white/grey/black marking); a chain that meets itself is a loop. */
function breakLoops(parentOf: Map<string, string | null>, notes: CategoryNote[]): void {
  const state = new Map<string, 'walking' | 'done'>();
  for (const start of parentOf.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    let at: string | null = start;
    while (at !== null && !state.has(at)) {
      state.set(at, 'walking');
      path.push(at);
      at = parentOf.get(at) ?? null;
    }
    if (at !== null && state.get(at) === 'walking') {
      const loop = path.slice(path.indexOf(at));
      const root = loop.reduce((min, id) => (id < min ? id : min));
      parentOf.set(root, null);
      notes.push({ id: root, reason: `categories ${loop.join(', ')} form a loop of parents; ${root} became a root` });
    }
    for (const id of path) state.set(id, 'done');
  }
}

function levelOf(id: string, parentOf: ReadonlyMap<string, string | null>, levels: Map<string, number>): number {
  // Iterative: a feed may nest thousands deep, past the call stack.
  const chain: string[] = [];
  let at: string | null = id;
  while (at !== null && !levels.has(at)) {
    chain.push(at);
    at = parentOf.get(at) ?? null;
  }
  let level = at === null ? 0 : (levels.get(at) ?? 0);
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    level += 1;
    levels.set(chain[i] as string, level);
  }
  return levels.get(id) ?? 1;
}

export interface CategoryStats {
  readonly productCount: number;
  readonly discountProductCount: number;
  /** The locations where the direct products are sold, sorted. */
  readonly locationIds: readonly string[];
  /** The locations where discounted direct products are sold, sorted (only_discount with locations). */
  readonly discountLocationIds: readonly string[];
}

const MAX_TRACKED_CATEGORY_IDS = FEED_LIMITS.categories * 2;
const MAX_LOCATIONS_PER_CATEGORY = 10_000;

interface LocationSet {
  readonly ids: Set<string>;
  /** A product without locations is sold in every location of the feed. */
  everywhere: boolean;
}

interface CategoryEntry {
  count: number;
  discount: number;
  readonly locations: LocationSet;
  readonly discountLocations: LocationSet;
}

/**
 * Counts the direct products of each category as offers stream by. A product without
 * locations is sold everywhere, so it puts every location of the feed on its categories.
 */
export class CategoryStatsCollector {
  private readonly stats = new Map<string, CategoryEntry>();

  add(product: Pick<ProductDraft, 'categoryIds' | 'price' | 'oldprice' | 'locationIds'>): void {
    const discount = hasDiscount(product);
    for (const id of product.categoryIds) {
      let entry = this.stats.get(id);
      if (entry === undefined) {
        // Ids that no category carries are counted only up to a bound: they are thrown away.
        if (this.stats.size >= MAX_TRACKED_CATEGORY_IDS) continue;
        const none = (): LocationSet => ({ ids: new Set(), everywhere: false });
        entry = { count: 0, discount: 0, locations: none(), discountLocations: none() };
        this.stats.set(id, entry);
      }
      entry.count += 1;
      addLocations(entry.locations, product.locationIds);
      if (discount) {
        entry.discount += 1;
        addLocations(entry.discountLocations, product.locationIds);
      }
    }
  }

  statsOf(categoryId: string, feedLocationIds: readonly string[]): CategoryStats {
    const entry = this.stats.get(categoryId);
    if (entry === undefined) return { productCount: 0, discountProductCount: 0, locationIds: [], discountLocationIds: [] };
    return {
      productCount: entry.count,
      discountProductCount: entry.discount,
      locationIds: listLocations(entry.locations, feedLocationIds),
      discountLocationIds: listLocations(entry.discountLocations, feedLocationIds),
    };
  }
}

function addLocations(set: LocationSet, productLocations: readonly string[]): void {
  if (productLocations.length === 0) set.everywhere = true;
  for (const location of productLocations) {
    if (set.ids.size >= MAX_LOCATIONS_PER_CATEGORY) break;
    set.ids.add(location);
  }
}

function listLocations(set: LocationSet, feedLocationIds: readonly string[]): string[] {
  const ids = set.everywhere ? [...new Set([...feedLocationIds, ...set.ids])] : [...set.ids];
  return ids.sort().slice(0, MAX_LOCATIONS_PER_CATEGORY);
}
