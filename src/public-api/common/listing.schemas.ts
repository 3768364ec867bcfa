// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { StatusErrorSchema } from '../../http/envelopes.js';
import { linkHandle } from '../../modules/catalog/domain/link-handle.js';
import { fullUnits } from '../../modules/catalog/domain/price.js';
import { ProductSchema } from '../../modules/catalog/domain/product.schema.js';
import { LISTING_SORT_KEYS, MAX_FACET_ENTRIES } from '../../modules/catalog/domain/facets.js';
import type { Listing } from '../../modules/catalog/listing.service.js';
import {
  DEFAULT_LISTING_LIMIT,
  MAX_FILTER_IDS,
  MAX_FILTER_PARAMS,
  MAX_FILTER_VALUES,
  MAX_FACET_LIMIT,
  MAX_LISTING_LIMIT,
  MAX_LISTING_OFFSET,
  MAX_LISTING_PAGE,
} from './listing.params.js';

/**
 * The filter parameters and the facets of a listing answer (GET /search, GET /products,
 * GET /category/{id}) as the platform's SDKs read them: `products_total`, `products`,
 * `brands`, `categories`, `filters`, `price_range`. One schema per shape, for the OpenAPI
 * document; toListingBody maps a listing to it.
 */

export const ListingQueryProperties = (maxLimit: number = MAX_LISTING_LIMIT) =>
  ({
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LISTING_PAGE, description: 'The page, from 1 (default 1).' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: maxLimit, description: `Products per page (default ${DEFAULT_LISTING_LIMIT}).` }),
    ),
    brands: Type.Optional(Type.String({ description: `Comma-separated brands (the feed's vendor, any case); at most ${MAX_FILTER_IDS}.` })),
    categories: Type.Optional(
      Type.String({ description: `Comma-separated feed category ids: products in them or below; at most ${MAX_FILTER_IDS}.` }),
    ),
    locations: Type.Optional(
      Type.String({ description: `Comma-separated location ids: products sold there or everywhere; at most ${MAX_FILTER_IDS}.` }),
    ),
    price_min: Type.Optional(Type.Number({ minimum: 0, description: 'Lowest price, in currency units (inclusive).' })),
    price_max: Type.Optional(
      Type.Number({ minimum: 0, description: 'Highest price, in currency units (inclusive); not below price_min.' }),
    ),
    filters: Type.Optional(
      Type.String({
        description:
          'A JSON object of feed param names to accepted values, e.g. `{"Цвет":["red","blue"]}` (or brackets: ' +
          '`filters[Цвет][]=red`, `filters[Цвет][0]=red`); ' +
          `at most ${MAX_FILTER_PARAMS} names and ${MAX_FILTER_VALUES} values each.`,
      }),
    ),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LISTING_OFFSET,
        description: 'Products skipped before the page; given, it wins over `page`.',
      }),
    ),
    sort_by: Type.Optional(
      Type.Union(
        LISTING_SORT_KEYS.map((key) => Type.Literal(key)),
        {
          description:
            'Order by `popular` or `sales_rate` (the feed’s sales rate), `price` or `discount`; `relevance` or absent: ' +
            'the rank (search) or popularity.',
        },
      ),
    ),
    sort_dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Default `desc`.' })),
    order: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
        description: 'The name of `sort_dir` in the SDKs’ docs; `sort_dir` wins.',
      }),
    ),
    category_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_FACET_LIMIT,
        description: `Entries of the category facet at most (never above ${MAX_FACET_ENTRIES}).`,
      }),
    ),
    brand_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_FACET_LIMIT,
        description: `Entries of the brand facet at most (never above ${MAX_FACET_ENTRIES}).`,
      }),
    ),
    exclude: Type.Optional(Type.String({ description: 'Comma-separated offer ids left out of the answer and its facets; at most 1000.' })),
  }) satisfies TProperties;

const BrandFacetSchema = Type.Object({
  name: Type.String({ description: "The brand (the feed's vendor, as first spelled)." }),
  count: Type.Integer({ description: 'Products of the brand that meet the other filters.' }),
});

const CategoryFacetSchema = Type.Object({
  id: Type.String({ description: 'The feed category id.' }),
  name: Type.String(),
  parent: Type.Union([Type.String(), Type.Null()], { description: "The parent's feed id; null for a root." }),
  url: Type.Union([Type.String(), Type.Null()]),
  url_handle: Type.Union([Type.String(), Type.Null()], { description: 'The link without scheme and host.' }),
  count: Type.Integer({ description: 'Products in the category or below it that meet the other filters.' }),
});

const ParamFacetSchema = Type.Object({
  count: Type.Integer({ description: 'Products having the param that meet the other filters.' }),
  values: Type.Record(Type.String(), Type.Integer(), {
    description: 'Value → products having it (a JSON object: its key order is not meaningful).',
  }),
});

const PriceRangeSchema = Type.Object(
  {
    min: Type.Number({ description: 'Lowest price, in currency units with the fraction.' }),
    max: Type.Number({ description: 'Highest price.' }),
  },
  { description: 'Prices of the products meeting the other filters; both 0 when none is left.' },
);

export const ListingFacetProperties = {
  products_total: Type.Integer({ description: 'Products meeting every filter, beyond the page.' }),
  products: Type.Array(ProductSchema, { description: 'The page.' }),
  brands: Type.Array(BrandFacetSchema, { description: 'Most products first.' }),
  categories: Type.Array(CategoryFacetSchema, { description: 'Most products first.' }),
  filters: Type.Record(Type.String(), ParamFacetSchema, { description: 'Feed param name → its facet, most products first.' }),
  price_range: PriceRangeSchema,
} satisfies TProperties;

export const ListingBodySchema = Type.Object(ListingFacetProperties, {
  description: 'A page of the catalog with its facets (no envelope).',
});
export type ListingBody = Static<typeof ListingBodySchema>;

export const ListingResponses = { 200: ListingBodySchema, '4xx': StatusErrorSchema, '5xx': StatusErrorSchema };

export function toListingBody(listing: Listing): ListingBody {
  // fromEntries defines own properties, so a param named `__proto__` is data like any other.
  const filters: ListingBody['filters'] = Object.fromEntries(
    listing.filters.map((facet) => [facet.key, { count: facet.count, values: Object.fromEntries(facet.values) }]),
  );
  return {
    products_total: listing.total,
    products: listing.products,
    brands: listing.brands.map((brand) => ({ name: brand.name, count: brand.count })),
    categories: listing.categories.map(({ category, count }) => ({
      id: category.externalId,
      name: category.name,
      parent: category.parentExternalId,
      url: category.url,
      url_handle: category.url === null ? null : linkHandle(category.url),
      count,
    })),
    filters,
    price_range:
      listing.priceRange === null ? { min: 0, max: 0 } : { min: fullUnits(listing.priceRange.min), max: fullUnits(listing.priceRange.max) },
  };
}
