import type { Clock } from '../../clock.js';
import { TtlCache } from '../../ttl-cache.js';
import type { CatalogService } from './catalog.service.js';
import type { ProductFact } from './catalog.types.js';
import type { ProductsService } from './products.service.js';

/** Offers kept over all shops and generations (an entry is an id, a name and a few category ids). */
const FACTS_MAX_ENTRIES = 100_000;
/** Long: an entry is never wrong (see below); the TTL only lets an idle shop's entries go. */
const FACTS_TTL_MS = 10 * 60_000;

/**
 * The checkout's product facts (ProductsService.productFactsIn) of the generation served
 * at the moment, kept per (shop, generation, offer id). A generation's names and
 * categories never change once staged and generation numbers are never reused in a shop,
 * so an entry stays right for as long as its generation is asked; the served generation
 * is read on every call (one primary-key read), so a landing in any process is seen at
 * once. An id the generation lacks is kept too, as null.
 */
export class ProductFacts {
  private readonly kept: TtlCache<string, ProductFact | null>;

  constructor(
    private readonly deps: {
      readonly clock: Clock;
      readonly catalog: Pick<CatalogService, 'currentGeneration'>;
      readonly products: Pick<ProductsService, 'productFactsIn'>;
    },
  ) {
    this.kept = new TtlCache({ max: FACTS_MAX_ENTRIES, ttlMs: FACTS_TTL_MS, clock: deps.clock });
  }

  /** By offer id; an id the served catalog lacks is absent from the map. */
  async productFacts(shopId: string, itemIds: readonly string[]): Promise<Map<string, ProductFact>> {
    if (itemIds.length === 0) return new Map();
    const generation = await this.deps.catalog.currentGeneration(shopId);
    if (generation === 0) return new Map();
    const facts = new Map<string, ProductFact>();
    const missing: string[] = [];
    for (const id of new Set(itemIds)) {
      const fact = this.kept.get(keyOf(shopId, generation, id));
      if (fact === undefined) missing.push(id);
      else if (fact !== null) facts.set(id, fact);
    }
    if (missing.length === 0) return facts;
    const read = await this.deps.products.productFactsIn(shopId, generation, missing);
    for (const id of missing) {
      const fact = read.get(id) ?? null;
      this.kept.set(keyOf(shopId, generation, id), fact);
      if (fact !== null) facts.set(id, fact);
    }
    return facts;
  }
}

function keyOf(shopId: string, generation: number, id: string): string {
  return `${shopId}\n${generation}\n${id}`;
}
