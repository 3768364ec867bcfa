import { statusSuccess } from '../../http/envelopes.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { toListingBody } from '../common/listing.schemas.js';
import { wantsEnvelope } from '../common/common.params.js';
import { readOptionalId } from '../common/identity.params.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { popupField } from '../common/popup.js';
import { toSearchInput } from './search.params.js';
import {
  BlankSearchQuerySchema,
  BlankSearchResponses,
  type BlankSearchBody,
  NoResultQueriesQuerySchema,
  NoResultQueriesResponses,
  SEARCH_TAGS,
  SearchQuerySchema,
  SearchResponses,
} from './search.schemas.js';

/**
 * Search of the public API: GET /search (products of the served catalog; shop_id only)
 * and GET /search/no_result_queries (interface.md endpoint 12; shop_id and shop_secret).
 * Both answer errors in the status envelope with the statuses of contract-notes
 * "Secrets and errors". Decisions: docs/search.md.
 */
export const searchRoutes: PublicRouteModule = (scope) => {
  const search = scope.services.search;

  scope.get(
    '/search',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SEARCH_TAGS,
        summary: 'Search the products of the feed',
        description:
          'Products of the served catalog matching every word of `search_query` (with `instant_search`, the last ' +
          'word may be unfinished), best first, narrowed by the filters and paged, with the facets of the matches ' +
          '(brands, categories, feed params, price range). Every query is logged. Bare answer; errors in the ' +
          'status envelope.',
        querystring: SearchQuerySchema,
        response: SearchResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const result = await search.search(toSearchInput(request.input, shop));
      return { search_query: result.query, ...toListingBody(result), ...(await popupField(request)) };
    },
  );

  scope.get(
    '/search/blank',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SEARCH_TAGS,
        summary: 'The empty search box',
        description:
          'What a search box shows before the user types: the shop’s popular queries (`suggests`), the device’s ' +
          'last queries (`last_queries`, with `did`) and popular products. Bare answer; errors in the status envelope.',
        querystring: BlankSearchQuerySchema,
        response: BlankSearchResponses,
      },
    },
    async (request): Promise<BlankSearchBody> => {
      const shop = authenticatedShop(request);
      // Attribution only, as on GET /search: an empty did is absent.
      const did = readOptionalId(request.input, 'did', { emptyIsAbsent: true });
      const blank = await search.blank(shop, did);
      return {
        suggests: blank.popularQueries.map((name) => ({ name, url: null })),
        last_queries: blank.lastQueries.map((name) => ({ name })),
        products: [...blank.products],
      };
    },
  );

  scope.get(
    '/search/no_result_queries',
    {
      config: { envelope: 'bare', auth: 'shop+secret' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: SEARCH_TAGS,
        summary: 'Search queries that found nothing',
        description:
          'Full searches of the last two weeks that found no product, with their counts, most frequent first. ' +
          'A bare array; with `v=2` or `Accept-Version: 2`, the status envelope with payload.no_result_queries.',
        querystring: NoResultQueriesQuerySchema,
        response: NoResultQueriesResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const queries = await search.noResultQueries(shop.shopId);
      return wantsEnvelope(request) ? statusSuccess({ payload: { no_result_queries: queries } }) : queries;
    },
  );
};
