import { Type } from '@sinclair/typebox';
import { StatusErrorSchema, statusSuccess } from '../../http/envelopes.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { wantsEnvelope } from '../common/common.params.js';
import { readItemId, toCategoryTreeQuery, toHiddenPage } from './products.params.js';
import {
  CATALOG_TAGS,
  CategoriesQuerySchema,
  CategoryNodeSchema,
  CountersQuerySchema,
  CountersResponses,
  HiddenProductsSchema,
  HiddenQuerySchema,
  ProductQuerySchema,
  ProductResponses,
} from './products.schemas.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * `{"status":"success","payload":{<key>: …}}` around JSON text the service made once
 * (what statusSuccess gives for the parsed value).
 */
function inStatusEnvelope(key: string, json: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`{"status":"success","payload":{${JSON.stringify(key)}:`), json, Buffer.from('}}')]);
}

/**
 * The catalog reads of the public API (interface.md endpoints 7, 8, 9 and 14). Errors
 * answer in the status envelope (`bare` family); statuses follow contract-notes
 * "Secrets and errors". Decisions: docs/catalog-read.md.
 */
export const productRoutes: PublicRouteModule = (scope) => {
  const products = scope.services.products;
  // A cached tree is one object for its 60 s, so its JSON is made once per object.
  const treeJson = new WeakMap<object, string>();
  const memoizedJson = (data: unknown): string => {
    if (typeof data !== 'object' || data === null) return JSON.stringify(data);
    let json = treeJson.get(data);
    if (json === undefined) {
      json = JSON.stringify(data);
      treeJson.set(data, json);
    }
    return json;
  };

  scope.get(
    '/products/get',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: CATALOG_TAGS,
        summary: 'A product of the feed',
        description: 'The Product bare; with `v=2` or `Accept-Version: 2`, in the status envelope under payload.product.',
        querystring: ProductQuerySchema,
        response: ProductResponses,
      },
    },
    async (request, reply) => {
      const shop = authenticatedShop(request);
      const product = await products.productJson(shop, readItemId(request.input, 'item_id'));
      return reply.type(JSON_UTF8).send(wantsEnvelope(request) ? inStatusEnvelope('product', product) : product);
    },
  );

  scope.get(
    '/products/counters',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: CATALOG_TAGS,
        summary: 'Views, carts, purchases and subscriptions of a product',
        description: 'Bare; with `v=2` or `Accept-Version: 2`, in the status envelope under payload.counters.',
        querystring: CountersQuerySchema,
        response: CountersResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const counters = await products.productCounters(shop.shopId, readItemId(request.input, 'item'));
      return wantsEnvelope(request) ? statusSuccess({ payload: { counters } }) : counters;
    },
  );

  scope.get(
    '/products/categories',
    {
      config: { envelope: 'bare', auth: 'shop+secret' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: () => memoizedJson,
      schema: {
        tags: CATALOG_TAGS,
        summary: 'The category tree',
        description: 'An array of root nodes (no envelope), cached 60 s per parameter combination and catalog import.',
        querystring: CategoriesQuerySchema,
        response: { 200: Type.Array(CategoryNodeSchema), '4xx': StatusErrorSchema, '5xx': StatusErrorSchema },
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      return products.categoryTree(shop.shopId, toCategoryTreeQuery(request.input));
    },
  );

  scope.get(
    '/products/not_widgetable',
    {
      config: { envelope: 'status', auth: 'shop+secret' },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: CATALOG_TAGS,
        summary: 'Products hidden from the storefront',
        description: 'Products lacking a price, a category, a name or a link, by offer id; `page` and `limit` (at most 1000) page them.',
        querystring: HiddenQuerySchema,
        response: { 200: HiddenProductsSchema, '4xx': StatusErrorSchema, '5xx': StatusErrorSchema },
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const data = await products.notWidgetable(shop.shopId, toHiddenPage(request.input));
      return statusSuccess({ data: { total: data.total, items: [...data.items] } });
    },
  );
};
