import type { Kysely } from 'kysely';
import { LISTED_PRODUCT } from '../../db/search-index.js';
import type { Database } from '../../db/types.js';
import type { FacetSource } from './domain/facet-index.js';
import { parseParams, parseStringArray } from './products.repo.js';

/**
 * The catalog listing's SQL (GET /products, GET /category/{id}, the filters and facets of
 * GET /search): the columns the facet index reads, of the products a storefront may list.
 * Rows in, rows out.
 */
export type Executor = Kysely<Database>;

/**
 * Every listed product of the generation (widgetable, not ignored, in stock: the products
 * the search index holds, db/search-index.ts LISTED_PRODUCT) with what filters and facets
 * read. One statement; the caller orders them.
 */
export async function listFacetSources(db: Executor, shopId: string, generation: number): Promise<FacetSource[]> {
  const rows = await db
    .selectFrom('catalog_products')
    .select(['id', 'vendor', 'price', 'oldprice', 'sales_rate', 'category_ids', 'location_ids', 'params'])
    .where('shop_id', '=', shopId)
    .where('generation', '=', generation)
    .where('widgetable', '=', LISTED_PRODUCT.widgetable)
    .where('ignored', '=', LISTED_PRODUCT.ignored)
    .where('available', '=', LISTED_PRODUCT.available)
    .where('price', 'is not', null)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    vendor: row.vendor,
    price: Number(row.price),
    oldprice: row.oldprice === null ? null : Number(row.oldprice),
    salesRate: row.sales_rate === null ? null : Number(row.sales_rate),
    categoryIds: parseStringArray(row.category_ids),
    locationIds: parseStringArray(row.location_ids),
    params: parseParams(row.params),
  }));
}
