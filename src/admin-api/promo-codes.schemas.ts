import { Type, type Static } from '@sinclair/typebox';
import { MAX_PATTERN_LENGTH } from '../modules/promotions/domain/code-pattern.js';
import { CODE_PATTERN_TEXT } from '../modules/promotions/domain/codes.js';
import { MAX_GENERATE_COUNT } from '../modules/promotions/promo-codes.service.js';
import { ShopIdParam } from './common.schemas.js';

/** admin-api.md, "Promotions, promo codes, certificates": promo codes (docs/promotions.md, "Codes"). */
export const CodeText = Type.String({
  pattern: CODE_PATTERN_TEXT,
  description: 'Letters A–Z, digits, `-` and `_`, 1 to 64; case-insensitive (stored upper case).',
  examples: ['SALE10'],
});
const UsageLimit = Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Uses in all; absent or null: unlimited.' });
const PerMemberLimit = Type.Integer({
  minimum: 1,
  maximum: 1_000_000,
  description: 'Uses per loyalty member; a code with it needs a member.',
});
const EndsAt = Type.String({ format: 'date-time', maxLength: 64, description: 'When the code stops working (exclusive); in the future.' });

export const CreatePromoCodeBodySchema = Type.Object(
  {
    code: CodeText,
    promotion_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    usage_limit: Type.Optional(Type.Union([UsageLimit, Type.Null()])),
    per_member_limit: Type.Optional(Type.Union([PerMemberLimit, Type.Null()])),
    ends_at: Type.Optional(EndsAt),
  },
  { additionalProperties: false },
);
export type CreatePromoCodeBody = Static<typeof CreatePromoCodeBodySchema>;

export const PromoCodeSchema = Type.Object(
  {
    code: Type.String(),
    promotion_id: Type.Integer(),
    usage_limit: Type.Union([Type.Integer(), Type.Null()]),
    per_member_limit: Type.Union([Type.Integer(), Type.Null()]),
    used: Type.Integer({ description: 'Uses counted: orders confirmed with the code.' }),
    blocked: Type.Integer({ description: 'Uses held by applied orders not yet confirmed or cancelled.' }),
    ends_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A promo code.' },
);
export type PromoCodeBody = Static<typeof PromoCodeSchema>;

export const GenerateBodySchema = Type.Object(
  {
    count: Type.Integer({ minimum: 1, maximum: MAX_GENERATE_COUNT, description: `How many codes, 1 to ${MAX_GENERATE_COUNT}.` }),
    pattern: Type.String({
      minLength: 1,
      maxLength: MAX_PATTERN_LENGTH,
      description:
        '`#` a digit 2–9, `?` a letter without I, L and O, `*` either; other letters, digits, `-` and `_` stand for themselves. ' +
        'Its space must be at least ten times `count`.',
      examples: ['SALE-####-????'],
    }),
    usage_limit: Type.Optional(Type.Union([UsageLimit, Type.Null()], { description: 'Uses of each code; 1 by default, null: unlimited.' })),
    per_member_limit: Type.Optional(Type.Union([PerMemberLimit, Type.Null()])),
    ends_at: Type.Optional(EndsAt),
  },
  { additionalProperties: false },
);
export type GenerateBody = Static<typeof GenerateBodySchema>;

export const GeneratedSchema = Type.Object({
  promotion_id: Type.Integer(),
  count: Type.Integer(),
  codes: Type.Array(Type.String(), { description: 'The codes made, all new.' }),
});

export const CodeListQuerySchema = Type.Object(
  {
    after: Type.Optional(Type.String({ maxLength: 64, description: 'The `next_after` of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000, description: 'Page size, 100 by default.' })),
  },
  { additionalProperties: false },
);

export const CodeListSchema = Type.Object({
  promo_codes: Type.Array(PromoCodeSchema, { description: 'By code.' }),
  next_after: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last.' }),
});

export const PromoCodeParamsSchema = Type.Object({ shop_id: ShopIdParam, code: Type.String({ maxLength: 255 }) });
