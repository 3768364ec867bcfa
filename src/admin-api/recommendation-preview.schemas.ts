import { Type, type Static } from '@sinclair/typebox';
import { MAX_BLOCK_LIMIT } from '../modules/recommendations/domain/block.js';
import { RECOMMENDERS } from '../modules/recommendations/domain/rules.js';

/** The preview of a recommendation block (docs/recommendations.md "Preview"). */

export const PreviewQuerySchema = Type.Object(
  {
    item: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The product in view (offer id).' })),
    profile_id: Type.Optional(Type.Integer({ minimum: 1, description: 'The customer the block is asked for.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BLOCK_LIMIT, description: 'Products; the block’s limit when absent.' })),
  },
  { additionalProperties: false },
);
export type PreviewQuery = Static<typeof PreviewQuerySchema>;

const PreviewItemSchema = Type.Object({
  id: Type.String({ description: 'Offer id.' }),
  recommender: Type.Union([...RECOMMENDERS.map((name) => Type.Literal(name)), Type.Literal('fallback')], {
    description: 'The recommender that put it in; `fallback` when every rule came back empty and popular stood in.',
  }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'Null when the product left the catalog meanwhile.' }),
  price_formatted: Type.Union([Type.String(), Type.Null()]),
  image_url: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
});

export const BlockPreviewSchema = Type.Object({
  id: Type.Integer({ description: 'The block’s id.' }),
  code: Type.String(),
  title: Type.String(),
  items: Type.Array(PreviewItemSchema, { description: 'What GET /recommend/{code} answers for this product and customer, in order.' }),
});
export type BlockPreviewBody = Static<typeof BlockPreviewSchema>;
