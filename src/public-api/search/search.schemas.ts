// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type, type Static } from '@sinclair/typebox';
import { StatusErrorSchema } from '../../http/envelopes.js';
import { ProductSchema } from '../../modules/catalog/domain/product.schema.js';
import { MAX_SEARCH_QUERY_LENGTH, SEARCH_TYPES } from '../../modules/search/domain/query.js';
import { MAX_NO_RESULT_QUERIES } from '../../modules/search/domain/search-log.js';
import { BLANK_PRODUCTS, BLANK_QUERIES, MAX_SEARCH_LIMIT } from '../../modules/search/search.service.js';
import { ListingFacetProperties, ListingQueryProperties } from '../common/listing.schemas.js';
import { versionedResponses } from '../common/envelopes.schemas.js';
import { DeviceIdSchema, SessionIdSchema, ShopIdSchema } from '../common/common.schemas.js';
import { PopupFieldSchema } from '../common/popup.js';

/**
 * The OpenAPI description of GET /search and GET /search/no_result_queries. Parameters
 * are checked by search.params.ts after the credentials, so these schemas document; the
 * routes compile them with noSchemaValidation.
 */

export const SEARCH_TAGS = ['search'];

export const SearchQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    type: Type.Union(
      SEARCH_TYPES.map((t) => Type.Literal(t)),
      { description: '`full_search`: every word must match. `instant_search`: the last word may be the start of a word.' },
    ),
    search_query: Type.String({
      minLength: 1,
      maxLength: MAX_SEARCH_QUERY_LENGTH,
      description: `What the user typed: not blank, at most ${MAX_SEARCH_QUERY_LENGTH} characters.`,
    }),
    ...ListingQueryProperties(MAX_SEARCH_LIMIT),
    did: Type.Optional(DeviceIdSchema('Device id the query is logged for.')),
    sid: Type.Optional(SessionIdSchema('Session id the query is logged for (legacy alias `seance`).')),
  },
  { additionalProperties: true },
);

export const SearchResultSchema = Type.Object(
  {
    search_query: Type.String({ description: 'The query as given.' }),
    ...ListingFacetProperties,
    products: Type.Array(ProductSchema, { description: 'The page of the matches that meet the filters, best first.' }),
    // The React Native SDK shows a popup found in a search answer too (docs/popups.md).
    ...PopupFieldSchema,
  },
  { description: 'Search results (no envelope).' },
);
export type SearchResultBody = Static<typeof SearchResultSchema>;

export const SearchResponses = { 200: SearchResultSchema, '4xx': StatusErrorSchema, '5xx': StatusErrorSchema };

export const NoResultQueriesQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    shop_secret: Type.String({ description: 'The secret API key.' }),
    v: Type.Optional(Type.String({ description: '`2` answers in the standard envelope (or header `Accept-Version: 2`).' })),
  },
  { additionalProperties: true },
);

export const NoResultQuerySchema = Type.Object({
  query: Type.String({ description: 'The query, normalised: trimmed, lower-cased, whitespace collapsed.' }),
  quantity: Type.Integer({ description: 'Times it was searched with `full_search` and found nothing in the last two weeks.' }),
});

export const NoResultQueriesResponses = versionedResponses(
  'no_result_queries',
  Type.Array(NoResultQuerySchema, { description: `Most frequent first; at most ${MAX_NO_RESULT_QUERIES}.` }),
);

export const BlankSearchQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Type.Optional(DeviceIdSchema('Device whose last queries are answered.')),
  },
  { additionalProperties: true },
);

export const BlankSearchSchema = Type.Object(
  {
    suggests: Type.Array(
      Type.Object({
        name: Type.String({ description: 'A query, normalised (lower-cased, whitespace collapsed).' }),
        url: Type.Null({ description: 'No page of its own: search for the name.' }),
      }),
      { description: `The shop's most frequent queries of the last two weeks that found something; at most ${BLANK_QUERIES}.` },
    ),
    last_queries: Type.Array(Type.Object({ name: Type.String() }), {
      description: `The device's last distinct queries, newest first; at most ${BLANK_QUERIES}, none without \`did\`.`,
    }),
    products: Type.Array(ProductSchema, {
      description: `Popular products: the first ${BLANK_PRODUCTS} of GET /products (the feed's sales rate).`,
    }),
  },
  { description: 'What a search box shows before the user types (no envelope).' },
);
export type BlankSearchBody = Static<typeof BlankSearchSchema>;

export const BlankSearchResponses = { 200: BlankSearchSchema, '4xx': StatusErrorSchema, '5xx': StatusErrorSchema };
