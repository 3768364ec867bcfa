import { Type } from '@sinclair/typebox';
import { StatusErrorSchema } from '../../http/envelopes.js';
import { validationError } from '../../http/readers.js';
import { linkHandle } from '../../modules/catalog/domain/link-handle.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { MAX_ITEM_ID_LENGTH } from '../common/common.params.js';
import { readListingParams } from '../common/listing.params.js';
import { ListingFacetProperties, ListingQueryProperties, ListingResponses, toListingBody } from '../common/listing.schemas.js';
import { CATALOG_TAGS } from './products.schemas.js';

const ListingQuerySchema = Type.Object({ shop_id: ShopIdSchema, ...ListingQueryProperties() }, { additionalProperties: true });

const CategoryParamsSchema = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: MAX_ITEM_ID_LENGTH,
    description: 'The feed category id, or else the last path segment of a category URL (its slug).',
  }),
});

const CategoryBodySchema = Type.Object(
  {
    ...ListingFacetProperties,
    category: Type.Object({
      id: Type.String({ description: 'The feed category id.' }),
      name: Type.String(),
      parent: Type.Union([Type.String(), Type.Null()], { description: "The parent's feed id; null for a root." }),
      url: Type.Union([Type.String(), Type.Null()]),
      url_handle: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  { description: 'The category, and a page of the products in it or below it with their facets (no envelope).' },
);

/**
 * GET /products (a page of the catalog) and GET /category/{id} (a category's products),
 * as the platform's SDKs call them: shop_id only, bare answers with the facets of
 * GET /search, errors in the status envelope with the statuses of contract-notes
 * "Secrets and errors". Decisions: docs/search.md ("Filters and facets"),
 * docs/catalog-read.md.
 */
export const listingRoutes: PublicRouteModule = (scope) => {
  const listing = scope.services.listing;

  scope.get(
    '/products',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: CATALOG_TAGS,
        summary: 'A page of the catalog',
        description:
          'The products a storefront may list (shown in widgets, not ignored, in stock), by the feed’s sales rate ' +
          'then offer id, narrowed by the filters and paged, with the facets (brands, categories, feed params, ' +
          'price range) of every product meeting the filters.',
        querystring: ListingQuerySchema,
        response: ListingResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const params = readListingParams(request.input);
      return toListingBody(await listing.list(shop, params));
    },
  );

  scope.get(
    '/category/:id',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: CATALOG_TAGS,
        summary: 'A category with its products',
        description:
          'A category of the feed (its feed id, or else its slug: the last segment of its URL path) and a page of ' +
          'the products in it or below it, with the filters, ' +
          'facets and order of GET /products. A category the served catalog lacks is 404 `Category not found`.',
        params: CategoryParamsSchema,
        querystring: ListingQuerySchema,
        response: { 200: CategoryBodySchema, '4xx': StatusErrorSchema, '5xx': StatusErrorSchema },
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const id = (request.params as { id?: unknown }).id;
      if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ITEM_ID_LENGTH) {
        throw validationError('id', `must be a category id of 1 to ${MAX_ITEM_ID_LENGTH} characters`);
      }
      const params = readListingParams(request.input);
      const found = await listing.category(shop, id, params);
      const { category } = found;
      const body = toListingBody(found);
      return {
        ...body,
        category: {
          id: category.externalId,
          name: category.name,
          parent: category.parentExternalId,
          url: category.url,
          url_handle: category.url === null ? null : linkHandle(category.url),
        },
      };
    },
  );
};
