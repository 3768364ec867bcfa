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

const StatsDate = (what: string) =>
  Type.String({
    maxLength: 10,
    description: `${what}: a date as YYYY-MM-DD in the shop’s time zone (inclusive).`,
    examples: ['2026-12-01'],
  });

export const BlockStatsQuerySchema = Type.Object(
  {
    date_from: StatsDate('The first day'),
    date_to: StatsDate('The last day; at most 365 days after `date_from`'),
  },
  { additionalProperties: false },
);
export type BlockStatsQuery = Static<typeof BlockStatsQuerySchema>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const statsFigures = {
  impressions: Count('recone_view events naming the block (`campaign` = its id or code).'),
  clicks: Count('recone_click events naming the block.'),
  ctr: Type.Number({ description: 'clicks / impressions, 4 decimals; 0 without impressions.' }),
  views: Count('Product views carrying recommended_by=dynamic and the block’s recommended_code.'),
  carts: Count('Additions to the cart carrying the block’s code (a whole-cart restatement is none).'),
  orders: Count('New orders with at least one item attributed to the block.'),
  revenue: Type.Number({ description: 'Σ price × amount of those attributed items, in the shop’s currency units.' }),
};

export const BlockStatsSchema = Type.Object({
  code: Type.String(),
  date_from: Type.String(),
  date_to: Type.String(),
  timezone: Type.String({ description: 'The shop’s time zone the days are counted in.' }),
  totals: Type.Object(statsFigures, { description: 'Sums over the period.' }),
  days: Type.Array(Type.Object({ date: Type.String({ description: 'YYYY-MM-DD.' }), ...statsFigures }), {
    description: 'Every day of the period in order; a day with nothing is zeros.',
  }),
});
export type BlockStatsBody = Static<typeof BlockStatsSchema>;
