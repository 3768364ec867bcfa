import { Type, type Static } from '@sinclair/typebox';
import { PROMOTION_LIMITS as L } from '../modules/promotions/domain/promotion.js';
import { ShopIdParam } from './common.schemas.js';

/**
 * admin-api.md, "Promotions, promo codes, certificates": the core fields, plus ours
 * (docs/promotions.md). Amounts are numbers in currency units with two decimals at
 * most, percents numbers from 0 to 100 with two decimals at most; times ISO 8601.
 */
const Status = Type.Union(
  [Type.Literal('draft'), Type.Literal('scheduled'), Type.Literal('inactive'), Type.Literal('active'), Type.Literal('archived')],
  { description: 'draft, scheduled, inactive, active or archived (final); transitions in docs/promotions.md.' },
);
const Time = (description: string) => Type.String({ format: 'date-time', maxLength: 64, description });
const Ids = (max: number, description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: L.idLength }), { maxItems: max, description });
const Tags = (max: number, description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: L.tagLength }), { maxItems: max, description });
const Percent = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

const DiscountSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('percent'), Type.Literal('fixed')]),
    value: Type.Number({
      minimum: 0,
      description: 'percent: 0 to 100 off each matching line; fixed: an amount greater than 0 spread over the matching lines.',
    }),
  },
  { additionalProperties: false },
);

const TimeOfDaySchema = Type.Object(
  {
    from: Type.String({ maxLength: 5, description: 'HH:MM, inclusive.', examples: ['22:00'] }),
    to: Type.String({ maxLength: 5, description: 'HH:MM, exclusive; before `from` wraps past midnight.', examples: ['06:00'] }),
  },
  { additionalProperties: false, description: "A window of the shop's local day." },
);

const SpecialPricesSchema = Type.Record(Type.String({ maxLength: L.idLength }), Type.Number(), {
  maxProperties: L.specialPrices,
  description: 'Product id → its price (an amount) while the promotion applies.',
});

const fields = {
  name: Type.String({ minLength: 1, maxLength: L.nameLength }),
  status: Status,
  starts_at: Time('When it starts; required for `scheduled`.'),
  ends_at: Time('When it ends (exclusive); after `starts_at`.'),
  priority: Type.Integer({ minimum: -L.priority, maximum: L.priority, description: 'Higher first when promotions combine; 0 by default.' }),
  discount: DiscountSchema,
  product_ids: Ids(L.productIds, 'Lines of these products match; with category_ids, either matches. Neither: every discountable line.'),
  category_ids: Ids(L.categoryIds, 'Lines of products in these categories or their descendants match.'),
  min_order_total: Type.Number({ minimum: 0, description: 'The order total (an amount) below which it does not apply.' }),
  streams: Tags(L.streams, 'Applies only to orders from these streams (ios, android, web…).'),
  payment_types: Tags(L.paymentTypes, 'Applies only to orders paid this way.'),
  by_promo_code: Type.Boolean({ description: 'Applies only through one of its promo codes.' }),
  bonus_reward_percent: Percent('Extra bonuses credited, percent of the matching lines.'),
  locations: Ids(L.locations, 'Applies only in these feed locations.'),
  time_of_day: TimeOfDaySchema,
  member_levels: Tags(L.memberLevels, 'Applies only to members of these loyalty levels.'),
  first_order_only: Type.Boolean({ description: "Applies only to the buyer's first order." }),
  special_prices: SpecialPricesSchema,
};

export const CreatePromotionBodySchema = Type.Object(
  {
    name: fields.name,
    status: fields.status,
    discount: fields.discount,
    starts_at: Type.Optional(fields.starts_at),
    ends_at: Type.Optional(fields.ends_at),
    priority: Type.Optional(fields.priority),
    product_ids: Type.Optional(fields.product_ids),
    category_ids: Type.Optional(fields.category_ids),
    min_order_total: Type.Optional(fields.min_order_total),
    streams: Type.Optional(fields.streams),
    payment_types: Type.Optional(fields.payment_types),
    by_promo_code: Type.Optional(fields.by_promo_code),
    bonus_reward_percent: Type.Optional(fields.bonus_reward_percent),
    locations: Type.Optional(fields.locations),
    time_of_day: Type.Optional(fields.time_of_day),
    member_levels: Type.Optional(fields.member_levels),
    first_order_only: Type.Optional(fields.first_order_only),
    special_prices: Type.Optional(fields.special_prices),
  },
  { additionalProperties: false },
);
export type CreatePromotionBody = Static<typeof CreatePromotionBodySchema>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** Any field; null clears the optional ones (starts_at, ends_at, min_order_total, time_of_day). */
export const PatchPromotionBodySchema = Type.Object(
  {
    ...Type.Partial(CreatePromotionBodySchema).properties,
    starts_at: Nullable(fields.starts_at),
    ends_at: Nullable(fields.ends_at),
    min_order_total: Nullable(fields.min_order_total),
    time_of_day: Nullable(fields.time_of_day),
  },
  { additionalProperties: false },
);
export type PatchPromotionBody = Static<typeof PatchPromotionBodySchema>;

export const PromotionSchema = Type.Object(
  {
    id: Type.Integer(),
    name: fields.name,
    status: fields.status,
    starts_at: Type.Union([fields.starts_at, Type.Null()]),
    ends_at: Type.Union([fields.ends_at, Type.Null()]),
    priority: Type.Integer(),
    discount: DiscountSchema,
    product_ids: Type.Array(Type.String()),
    category_ids: Type.Array(Type.String()),
    min_order_total: Type.Union([Type.Number(), Type.Null()]),
    streams: Type.Array(Type.String()),
    payment_types: Type.Array(Type.String()),
    by_promo_code: Type.Boolean(),
    bonus_reward_percent: Type.Number(),
    locations: Type.Array(Type.String()),
    time_of_day: Type.Union([TimeOfDaySchema, Type.Null()]),
    member_levels: Type.Array(Type.String()),
    first_order_only: Type.Boolean(),
    special_prices: Type.Record(Type.String(), Type.Number()),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A promotion.' },
);
export type PromotionBody = Static<typeof PromotionSchema>;

export const PromotionCreatedSchema = Type.Object({ id: Type.Integer({ description: 'The promotion id, unique in the shop.' }) });

export const PromotionListQuerySchema = Type.Object(
  {
    status: Type.Optional(fields.status),
    active_at: Type.Optional(Time('Only the promotions that apply at this instant.')),
    q: Type.Optional(Type.String({ maxLength: L.nameLength, description: 'A piece of the name, any case.' })),
    after: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The `next_after` of the previous page.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Page size, 50 by default.' })),
  },
  { additionalProperties: false },
);
export type PromotionListQuery = Static<typeof PromotionListQuerySchema>;

export const PromotionListSchema = Type.Object({
  promotions: Type.Array(PromotionSchema, { description: 'By id, ascending.' }),
  next_after: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last.' }),
});

/** A malformed id is simply an unknown promotion (404), as a malformed shop id is an unknown shop. */
export const PromotionParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  id: Type.String({ maxLength: 32, description: 'The promotion id.' }),
});
export type PromotionParams = Static<typeof PromotionParamsSchema>;
