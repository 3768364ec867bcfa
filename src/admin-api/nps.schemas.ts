import { Type, type Static } from '@sinclair/typebox';
import { MAX_COMMENT_LENGTH, MAX_NAME_LENGTH, MAX_TEXT_LENGTH } from '../modules/nps/index.js';
import { ShopIdParam } from './common.schemas.js';
import { CursorQuerySchema, limitQuerySchema } from './paging.js';

/** admin-api.md "NPS": channels, categories, reviews and the score (docs/nps.md). */

const Code = Type.String({
  minLength: 1,
  maxLength: 64,
  // The service checks the characters, in words the form shows at its field.
  description: 'The code apps send: 1 to 64 of A-Z, a-z, 0-9, _, . and -.',
  examples: ['android_app'],
});

export const NpsCodeParamsSchema = Type.Object({ shop_id: ShopIdParam, code: Code });

export const PutChannelBodySchema = Type.Object(
  { name: Type.String({ maxLength: MAX_NAME_LENGTH, description: 'What the team calls it.' }) },
  { additionalProperties: false },
);

export const ChannelSchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type ChannelBody = Static<typeof ChannelSchema>;
export const ChannelListSchema = Type.Object({ channels: Type.Array(ChannelSchema) });

const CategoryText = (description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: MAX_TEXT_LENGTH }), Type.Null()], { description }));

const categoryTexts = {
  detractor_question: CategoryText('What the app asks after a rating of 0 to 6.'),
  passive_question: CategoryText('What the app asks after a rating of 7 or 8.'),
  promoter_question: CategoryText('What the app asks after a rating of 9 or 10.'),
  detractor_success: CategoryText('The thank-you text after a rating of 0 to 6.'),
  passive_success: CategoryText('The thank-you text after a rating of 7 or 8.'),
  promoter_success: CategoryText('The thank-you text after a rating of 9 or 10.'),
};

export const PutCategoryBodySchema = Type.Object(
  { name: Type.String({ maxLength: MAX_NAME_LENGTH, description: 'What is rated, as the team calls it.' }), ...categoryTexts },
  { additionalProperties: false, description: 'Replaces the category whole: a text left out is none.' },
);
export type PutCategoryBody = Static<typeof PutCategoryBodySchema>;

const StoredText = Type.Union([Type.String(), Type.Null()]);
export const CategorySchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  detractor_question: StoredText,
  passive_question: StoredText,
  promoter_question: StoredText,
  detractor_success: StoredText,
  passive_success: StoredText,
  promoter_success: StoredText,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type CategoryBody = Static<typeof CategorySchema>;
export const CategoryListSchema = Type.Object({ categories: Type.Array(CategorySchema) });

const Day = (what: string) =>
  Type.String({
    maxLength: 10,
    description: `${what}: a date as YYYY-MM-DD in the shop’s time zone (inclusive).`,
    examples: ['2026-12-01'],
  });
const Rate = (what: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: what }));

const filters = {
  date_from: Day('The first day'),
  date_to: Day('The last day; at most 365 days after `date_from`'),
  channel: Type.Optional(Type.String({ maxLength: 64, description: 'Only this channel’s reviews.' })),
  category: Type.Optional(Type.String({ maxLength: 64, description: 'Only this category’s reviews.' })),
};

export const ReviewsQuerySchema = Type.Object(
  {
    ...filters,
    rate_min: Rate('Only ratings of at least this.'),
    rate_max: Rate('Only ratings of at most this.'),
    cursor: CursorQuerySchema,
    limit: limitQuerySchema(50, 200),
  },
  { additionalProperties: false },
);
export type ReviewsQuery = Static<typeof ReviewsQuerySchema>;

export const ReviewsExportQuerySchema = Type.Object(
  { ...filters, rate_min: Rate('Only ratings of at least this.'), rate_max: Rate('Only ratings of at most this.') },
  { additionalProperties: false },
);

export const ReviewSchema = Type.Object({
  id: Type.Integer(),
  channel: Type.String(),
  category: Type.String(),
  rate: Type.Integer({ minimum: 0, maximum: 10 }),
  comment: Type.Union([Type.String({ maxLength: MAX_COMMENT_LENGTH }), Type.Null()]),
  order_id: Type.Union([Type.String(), Type.Null()]),
  order_found: Type.Boolean({ description: 'The shop has a tracked order of that id (now).' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time', description: 'When a repeated review last replaced the rate and comment.' }),
  profile_id: Type.Integer({ description: 'The customer (a merged id leads to its survivor in GET /customers/{id}).' }),
});
export type ReviewBody = Static<typeof ReviewSchema>;

export const ReviewsPageSchema = Type.Object({
  reviews: Type.Array(ReviewSchema, { description: 'Newest day first, newest first within a day.' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass it as `cursor` for the next page; null on the last page.' }),
});

export const ReviewParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  id: Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The review id.' }),
});

export const ScoreQuerySchema = Type.Object(
  {
    ...filters,
    interval: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week')], {
        default: 'day',
        description: 'One point per day, or per week (Monday to Sunday).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ScoreQuery = Static<typeof ScoreQuerySchema>;

const counts = {
  answered: Type.Integer({ minimum: 0, description: 'Reviews given.' }),
  promoters: Type.Integer({ minimum: 0, description: 'Ratings of 9 or 10.' }),
  passives: Type.Integer({ minimum: 0, description: 'Ratings of 7 or 8.' }),
  detractors: Type.Integer({ minimum: 0, description: 'Ratings of 0 to 6.' }),
  nps: Type.Union([Type.Integer({ minimum: -100, maximum: 100 }), Type.Null()], {
    description: '% promoters − % detractors, rounded; null without answers.',
  }),
};

export const ScoreSchema = Type.Object({
  date_from: Type.String(),
  date_to: Type.String(),
  timezone: Type.String({ description: 'The shop’s time zone the days are counted in.' }),
  interval: Type.Union([Type.Literal('day'), Type.Literal('week')]),
  points: Type.Array(Type.Object({ date: Type.String({ description: 'The day, or the week’s first day in the period.' }), ...counts }), {
    description: 'Every day (or week) of the period in order; one with no answers has zeros and a null score.',
  }),
  totals: Type.Object(counts),
  channels: Type.Array(Type.Object({ channel: Type.String(), ...counts }), { description: 'The period per channel, by code.' }),
  categories: Type.Array(Type.Object({ category: Type.String(), ...counts }), { description: 'The period per category, by code.' }),
});
export type ScoreBody = Static<typeof ScoreSchema>;
