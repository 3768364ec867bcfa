import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobHandlers } from '../../jobs/job-handlers.js';
import type { JobQueue } from '../../jobs/queue.js';
import { Late } from '../../late.js';
import type { ShopsService } from '../shops/index.js';
import type { ProductActivityCounters } from '../tracking/index.js';
import { CatalogBrowserService } from './catalog-browser.service.js';
import { CatalogService } from './catalog.service.js';
import type { CatalogLandedListener, CatalogServedListener } from './catalog.types.js';
import { ListingService } from './listing.service.js';
import { ProductFacts } from './product-facts.js';
import type { ProductImageSource, ProductTriggerCounts } from './catalog.types.js';
import { ProductsService } from './products.service.js';

/** Active product subscriptions of items (the product-subscriptions module, above the catalog). */
export interface ProductTriggerSource {
  countActiveOf(shopId: string, itemIds: readonly string[]): Promise<ReadonlyMap<string, ProductTriggerCounts>>;
}

export interface CatalogServices {
  /** The product feed: imports by generation; the composition root hands it the modules that follow landings. */
  readonly catalog: CatalogService;
  /** The public catalog reads: products, counters, the category tree, hidden products. */
  readonly products: ProductsService;
  /** The catalog as a storefront lists it: GET /products, GET /category/{id}, search's filters and facets. */
  readonly listing: ListingService;
  /** The admin UI's catalog lists: products with filters, the category tree, hidden products. */
  readonly catalogBrowser: CatalogBrowserService;
}

export interface CatalogModule {
  readonly services: CatalogServices;
  /** The products as the checkout's conditions read them. */
  readonly productFacts: ProductFacts;
  readonly jobs: Pick<JobHandlers, 'catalog.fetch'>;
}

export function createCatalogModule(deps: {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly config: Config;
  readonly jobs: JobQueue;
  readonly shops: ShopsService;
  /** Each read names many items of a shop (the tracking service). */
  readonly tracking: {
    productCountersOf(shopId: string, itemIds: readonly string[]): Promise<ReadonlyMap<string, ProductActivityCounters>>;
  };
  readonly images: ProductImageSource;
  /** The product subscriptions, built after the catalog (src/services.ts binds them). */
  readonly productTriggers: Late<ProductTriggerSource>;
  /** The modules that follow landings, in the order they run in the landing's transaction. */
  readonly catalogListeners: Late<readonly CatalogLandedListener[]>;
}): CatalogModule {
  const { db, clock, config } = deps;
  // The products' caches hear of the landings of the catalog, which they read.
  const servedListeners = new Late<readonly CatalogServedListener[]>('the catalog served listeners');
  const catalog = new CatalogService({
    db,
    clock,
    config,
    shops: deps.shops,
    jobs: deps.jobs,
    landedListeners: deps.catalogListeners,
    servedListeners,
  });
  const products = new ProductsService({
    db,
    clock,
    catalog,
    tracking: deps.tracking,
    triggers: { countActiveOf: (shopId, itemIds) => deps.productTriggers.get().countActiveOf(shopId, itemIds) },
    images: deps.images,
    answerCacheBytes: config.productCacheBytes,
  });
  servedListeners.bind([products.servedListener()]);
  return {
    services: {
      catalog,
      products,
      listing: new ListingService({ db, clock, catalog, products }),
      catalogBrowser: new CatalogBrowserService({ db, shops: deps.shops, catalog, images: deps.images }),
    },
    productFacts: new ProductFacts({ clock, catalog, products }),
    jobs: {
      // The shop's feed URL, fetched and imported; each run schedules the next (one chain per shop).
      // A redelivered run (its worker was killed) imports again what the dead run left unfinished.
      'catalog.fetch': { handler: (payload, ctx) => catalog.runScheduledFetch(payload, { signal: ctx.signal, attempt: ctx.attempt }) },
    },
  };
}
