import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_BLOCK_LIMIT, MAX_BLOCK_LIMIT, MAX_NAME_LENGTH, MAX_TITLE_LENGTH } from '../modules/recommendations/domain/block.js';
import { MAX_RULES_PER_LEVEL, RECOMMENDERS } from '../modules/recommendations/domain/rules.js';
import { ShopIdParam } from './common.schemas.js';

/**
 * admin-api.md, Recommendation blocks. A rule's tree is checked by the recommendations
 * domain (rules.ts), which names the path of each problem (`rules[1].then[0].recommender`);
 * the schema bounds only the top level, so that a refusal says where it is.
 */

const BlockCode = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9_-]{1,64}$',
  description: 'The block code apps send to GET /recommend/{code}: 1 to 64 of a-z, 0-9, _ and -.',
  examples: ['product_page'],
});

export const BlockParamsSchema = Type.Object({ shop_id: ShopIdParam, code: BlockCode });

const RULES_DESCRIPTION =
  'Ordered rules: each is `{"recommender": A}` or `{"if": C, "then": [rules], "else"?: [rules]}`. ' +
  `A is one of ${RECOMMENDERS.join(', ')}. C is one of {"has_item": true}, {"has_cart": true}, ` +
  '{"known_customer": true}, {"item_in_category": "<category id>"}. At most 5 levels deep, ' +
  `${MAX_RULES_PER_LEVEL} rules a list and 100 in all. The block answers the products of its rules in order, each once, ` +
  'up to `limit`, never the current item, the cart or products that are not available.';

export const PutBlockBodySchema = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ maxLength: MAX_NAME_LENGTH }), Type.Null()], { description: 'What the team calls it.' })),
    title: Type.String({ maxLength: MAX_TITLE_LENGTH, description: 'The heading apps show above the products.' }),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_BLOCK_LIMIT, default: DEFAULT_BLOCK_LIMIT, description: 'Products a request gets at most.' }),
    ),
    rules: Type.Array(Type.Unknown(), { maxItems: MAX_RULES_PER_LEVEL, description: RULES_DESCRIPTION }),
  },
  { additionalProperties: false },
);
export type PutBlockBody = Static<typeof PutBlockBodySchema>;

export const BlockSchema = Type.Object({
  id: Type.Integer({ description: 'The block id GET /recommend answers as `id`.' }),
  code: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  limit: Type.Integer(),
  rules: Type.Array(Type.Unknown(), { description: RULES_DESCRIPTION }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type BlockBody = Static<typeof BlockSchema>;

export const BlockListSchema = Type.Object({ blocks: Type.Array(BlockSchema) });
