// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { ProductSchema } from '../../modules/catalog/domain/product.schema.js';
import { MAX_BLOCK_LIMIT } from '../../modules/recommendations/domain/block.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { MAX_EXCLUDE_IDS, MAX_FILTER_IDS } from './recommend.params.js';
import { PopupFieldSchema } from '../common/popup.js';

/**
 * The OpenAPI description of GET /recommend/{code} (contract-notes "Beyond interface.md").
 * recommend.params.ts checks the parameters; these schemas document.
 */

export const RECOMMEND_TAGS = ['recommendations'];

const List = (description: string) =>
  Type.String({ description: `${description} Comma-separated, a JSON array, or brackets (\`x[]=\`, \`x[0]=\`).` });
const Flag = (description: string) => Type.String({ description: `${description} \`true\`/\`1\` or \`false\`/\`0\`/empty.` });

export const RecommendParamsSchema = Type.Object({ code: Type.String({ description: 'The block’s code.' }) });

export const RecommendQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Type.Optional(Type.String({ description: 'The device: its cart, recent views and purchases personalise the block.' })),
    item: Type.Optional(Type.String({ description: 'The current product (offer id); `item_id` is the same.' })),
    item_id: Type.Optional(Type.String({ description: 'The current product (offer id).' })),
    categories: Type.Optional(
      List(`Only products in these feed categories or below them (at most ${MAX_FILTER_IDS}); \`category\` is the same.`),
    ),
    exclude: Type.Optional(List(`Offer ids not to answer (at most ${MAX_EXCLUDE_IDS}).`)),
    search_query: Type.Optional(Type.String({ description: 'The search the `search` recommender answers for.' })),
    limit: Type.Optional(
      Type.Integer({ description: `Products answered; default the block’s limit; above ${MAX_BLOCK_LIMIT} counts as ${MAX_BLOCK_LIMIT}.` }),
    ),
    page: Type.Optional(Type.Integer({ minimum: 1, description: 'The page of `limit` products (from 1).' })),
    locations: Type.Optional(List('Only products sold in one of these locations (or everywhere).')),
    brands: Type.Optional(List('Only products of these brands.')),
    exclude_brands: Type.Optional(List('No products of these brands.')),
    discount: Type.Optional(Flag('Only products with a discount.')),
    extended: Type.Optional(Flag('Product objects (as GET /products/get) instead of offer ids.')),
    resize_image: Type.Optional(
      Type.Integer({ description: 'With `extended`: `picture` and `image_url` at this thumbnail size (120…520).' }),
    ),
    recommender_code: Type.Optional(Type.String({ description: 'The block’s code again (sent by the React Native SDK); ignored.' })),
  },
  { additionalProperties: true },
);

const RecommendedProductSchema = Type.Composite([ProductSchema], {
  description: 'A product as GET /products/get answers it; `url` and `url_handle` carry `recommended_by=dynamic&recommended_code=<code>`.',
});

export const RecommendResponses = statusResponses(
  Type.Object(
    {
      id: Type.Integer({ description: 'The block’s id.' }),
      title: Type.String(),
      html: Type.String({ description: 'Always empty: apps draw the block themselves.' }),
      recommends: Type.Union([Type.Array(Type.String()), Type.Array(RecommendedProductSchema)], {
        description: 'Offer ids as strings; with `extended`, product objects.',
      }),
      ...PopupFieldSchema,
    },
    { description: 'Bare (no envelope). An unknown block is 404 in the status envelope.' },
  ),
);
