import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { BrowsedProduct } from '../modules/catalog/catalog-browser.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CategoryPageSchema,
  CategoryQuerySchema,
  LIST_PAGE_DEFAULT,
  NoResultPageSchema,
  PageQuerySchema,
  ProductBrowseQuerySchema,
  ProductPageSchema,
  type BrowsedProductBody,
} from './catalog-lists.schemas.js';
import { cursorKey, encodeCursor } from './paging.js';
import { booleanQueryParameters, integerQueryParameters } from './query-integers.js';

const tags = ['catalog'];
const PAGING = 'Keyset paging: pass `next_cursor` back as `cursor`; each row appears on exactly one page.';

/** The admin UI's catalog lists (docs/admin-lists.md): reads of the served catalog and the search log. */
export const catalogListsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { catalogBrowser, search, shops } = app.services;

  app.get(
    '/shops/:shop_id/products',
    {
      schema: {
        tags,
        summary: 'Browse the served catalog',
        description: `Products of the landed feed by offer id, filtered by text, category and stock. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ProductBrowseQuerySchema,
        response: withErrors({ 200: ProductPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        booleanQueryParameters(request, 'available');
        next();
      },
    },
    async (request) => {
      const { query, category, available, cursor } = request.query;
      const limit = request.query.limit ?? LIST_PAGE_DEFAULT;
      const after = cursorKey(cursor, ['string'] as const);
      const page = await catalogBrowser.browseProducts(request.params.shop_id, { query, category, available }, after?.[0] ?? null, limit);
      return productPage(page);
    },
  );

  app.get(
    '/shops/:shop_id/products/hidden',
    {
      schema: {
        tags,
        summary: 'Products hidden from the storefront',
        description: `Products the storefront does not show (no price, no picture, out of stock, ignored …), by offer id, with their picture errors. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: PageQuerySchema,
        response: withErrors({ 200: ProductPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const after = cursorKey(request.query.cursor, ['string'] as const);
      const page = await catalogBrowser.hiddenProducts(
        request.params.shop_id,
        after?.[0] ?? null,
        request.query.limit ?? LIST_PAGE_DEFAULT,
      );
      return productPage(page);
    },
  );

  app.get(
    '/shops/:shop_id/categories',
    {
      schema: {
        tags,
        summary: 'One level of the category tree',
        description: `The top-level categories, or the children of \`parent\`, by stable id; each says whether it has children. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: CategoryQuerySchema,
        response: withErrors({ 200: CategoryPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const { parent, cursor } = request.query;
      const limit = request.query.limit ?? LIST_PAGE_DEFAULT;
      const after = cursorKey(cursor, ['integer'] as const);
      const page = await catalogBrowser.categoryChildren(request.params.shop_id, parent ?? null, after?.[0] ?? null, limit);
      const last = page.items.at(-1);
      return {
        items: page.items.map((c) => ({
          id: c.id,
          external_id: c.externalId,
          parent_external_id: c.parentExternalId,
          name: c.name,
          url: c.url,
          level: c.level,
          product_count: c.productCount,
          has_children: c.hasChildren,
        })),
        next_cursor: page.more && last ? encodeCursor([last.id]) : null,
      };
    },
  );

  app.get(
    '/shops/:shop_id/search/no-results',
    {
      schema: {
        tags: ['search'],
        summary: 'Searches that found nothing',
        description: `Full searches of the last two weeks that found nothing, grouped by query, most frequent first. ${PAGING}`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: PageQuerySchema,
        response: withErrors({ 200: NoResultPageSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const { shop_id } = request.params;
      const key = cursorKey(request.query.cursor, ['integer', 'string'] as const);
      await shops.requireShop(shop_id);
      const after = key === null ? null : { quantity: key[0], query: key[1] };
      const page = await search.noResultQueriesPage(shop_id, after, request.query.limit ?? LIST_PAGE_DEFAULT);
      const last = page.items.at(-1);
      return { items: page.items, next_cursor: page.more && last ? encodeCursor([last.quantity, last.query]) : null };
    },
  );

  done();
};

function productPage(page: { items: readonly BrowsedProduct[]; more: boolean }) {
  const last = page.items.at(-1);
  return { items: page.items.map(toProductBody), next_cursor: page.more && last ? encodeCursor([last.id]) : null };
}

/** Prices cross this edge in currency units. */
function toProductBody(p: BrowsedProduct): BrowsedProductBody {
  return {
    id: p.id,
    name: p.name,
    url: p.url,
    price: p.price === null ? null : p.price / 100,
    oldprice: p.oldprice === null ? null : p.oldprice / 100,
    available: p.available,
    widgetable: p.widgetable,
    category_ids: [...p.categoryIds],
    vendor: p.vendor,
    picture: p.picture,
    picture_error: p.pictureError,
  };
}
