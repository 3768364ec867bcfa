/**
 * What the catalog module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { CatalogLandedListener, CatalogLanding } from './catalog.types.js';
export { hasListingFilters } from './domain/facets.js';
export type { ListingFilters } from './domain/facet-filters.js';
export type { FacetLimits, ListingSort } from './domain/facets.js';
export type { Product } from './domain/product.schema.js';
export { EMPTY_LISTING } from './listing.service.js';
export type { Listing, ListingQuery } from './listing.service.js';
export type { ProductFacts } from './product-facts.js';
export type { ShopCurrency } from './catalog.types.js';
export { PromiseCache } from './promise-cache.js';
export type { FacetIndex } from './domain/facet-index.js';
export { compile as compileListingFilters, failedFilters, type CompiledFilters } from './domain/facet-filters.js';
export { brandKey } from './domain/facet-index.js';
export { priceFields } from './domain/price.js';
