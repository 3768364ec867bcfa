// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { StatusSuccessSchema } from '../../http/envelopes.js';
import { ProductSchema } from '../../modules/catalog/domain/product.schema.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { versionedResponses } from '../common/envelopes.schemas.js';
import { MAX_LIST_IDS } from '../common/common.params.js';
import { DEFAULT_DEPTH, MAX_DEPTH, MAX_HIDDEN_PAGE_SIZE } from './products.params.js';

/**
 * The OpenAPI description of the catalog reads (interface.md endpoints 7, 8, 9, 14).
 * Parameters are checked by products.params.ts in the contract's order (credentials
 * first), so these schemas document; the routes compile them with noSchemaValidation.
 */

export const CATALOG_TAGS = ['catalog'];

const ShopSecret = Type.String({ description: 'The secret API key.' });
const Version = Type.String({ description: '`2` answers in the standard envelope (or header `Accept-Version: 2`).' });

export const ProductQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    item_id: Type.String({ description: 'Offer id (article), at most 255 characters.' }),
    v: Type.Optional(Version),
  },
  { additionalProperties: true },
);

export const CountersQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    item: Type.String({ description: 'Offer id (article), at most 255 characters.' }),
    v: Type.Optional(Version),
  },
  { additionalProperties: true },
);

export const CategoriesQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    shop_secret: ShopSecret,
    depth: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: `Levels of subcategories below the roots; default ${DEFAULT_DEPTH}, 0 = roots only; above ${MAX_DEPTH} counts as ${MAX_DEPTH}.`,
      }),
    ),
    exclude: Type.Optional(
      Type.String({ description: `Comma-separated feed category ids (at most ${MAX_LIST_IDS}); each is left out with its subtree.` }),
    ),
    only_discount: Type.Optional(Type.Boolean({ description: 'Only categories whose subtree has a product with oldprice > price.' })),
    locations: Type.Optional(
      Type.String({ description: 'Comma-separated location codes; only categories whose subtree has products sold there.' }),
    ),
  },
  { additionalProperties: true },
);

export const HiddenQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    shop_secret: ShopSecret,
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page, from 1 (default 1).' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_HIDDEN_PAGE_SIZE, description: `Page size (default and most ${MAX_HIDDEN_PAGE_SIZE}).` }),
    ),
  },
  { additionalProperties: true },
);

const CounterWindowSchema = Type.Object({ view: Type.Integer(), cart: Type.Integer(), purchase: Type.Integer() });

export const CountersSchema = Type.Object(
  {
    daily: CounterWindowSchema,
    now: CounterWindowSchema,
    triggers: Type.Object({
      back_in_stock: Type.Integer({ description: 'Active back-in-stock subscriptions.' }),
      price_drop: Type.Integer({ description: 'Active price-drop subscriptions.' }),
    }),
  },
  { description: '`daily`: the last 24 hours; `now`: the last 30 minutes (interface.md, "Product counters").' },
);

export const CategoryNodeSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Internal category id, stable across imports.' }),
    external_id: Type.String({ description: 'Category id of the feed.' }),
    name: Type.String(),
    url: Type.Union([Type.String(), Type.Null()]),
    parent_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Internal parent id; null for a root.' }),
    parent_external_id: Type.Union([Type.String(), Type.Null()]),
    children: Type.Array(Type.Unknown(), { description: 'Subcategories, in this same format.' }),
  },
  { description: 'A node of the category tree (interface.md, "Category tree node").' },
);

export const HiddenProductSchema = Type.Object({
  uniqid: Type.String(),
  price: Type.Union([Type.Integer(), Type.Null()], { description: 'Price without its fraction; null without a price.' }),
  name: Type.String({ description: '`""` when the feed has none.' }),
  url: Type.String({ description: '`""` when the feed has none.' }),
  image_url: Type.Union([Type.String(), Type.Null()]),
  image_downloading_error: Type.Union([Type.String(), Type.Null()], { description: 'Null unless the download failed.' }),
});

export const HiddenProductsSchema = StatusSuccessSchema({
  data: Type.Object({ total: Type.Integer(), items: Type.Array(HiddenProductSchema) }),
});

export const ProductResponses = versionedResponses('product', ProductSchema);
export const CountersResponses = versionedResponses('counters', CountersSchema);
