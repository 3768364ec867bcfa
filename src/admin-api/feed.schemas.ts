import { Type, type Static } from '@sinclair/typebox';
import { MAX_IMPORTS_LISTED, REFRESH_MINUTES_RANGE } from '../modules/catalog/catalog.service.js';

const Id = Type.Union([Type.String({ maxLength: 255 }), Type.Number()], {
  description: 'An id; numbers are read as their decimal spelling.',
});
const Text = (description: string) => Type.String({ description });
const Price = Type.Union([Type.String(), Type.Number()], {
  description: 'A decimal amount in currency units ("1990.50" or 1990.5); kept in minor units, exactly from its spelling.',
});

const JsonCategorySchema = Type.Object(
  { id: Id, parent_id: Type.Optional(Id), name: Text('Category name.'), url: Type.Optional(Text('Category page link.')) },
  { description: 'A category; a parent missing from the feed makes it a root.' },
);

const JsonLocationSchema = Type.Object(
  {
    id: Id,
    name: Type.Optional(Text('Display name.')),
    type: Type.Optional(Text('Free-form kind, e.g. city or country.')),
    parent_id: Type.Optional(Id),
  },
  { description: 'A location where offers are sold (interface.md: location codes from the product feed).' },
);

const JsonParamSchema = Type.Union([
  Type.Object({ name: Type.String(), value: Type.Union([Type.String(), Type.Number()]), unit: Type.Optional(Type.String()) }),
  Type.Object({ key: Type.String(), values: Type.Array(Type.Union([Type.String(), Type.Number()])), unit: Type.Optional(Type.String()) }),
]);

const JsonOfferSchema = Type.Object(
  {
    id: Type.Optional(Id),
    available: Type.Optional(Type.Union([Type.Boolean(), Type.String()], { description: 'Default true.' })),
    group_id: Type.Optional(Id),
    url: Type.Optional(Text('Product link.')),
    price: Type.Optional(Price),
    oldprice: Type.Optional(Price),
    currency_id: Type.Optional(Text('Currency code, e.g. RUB.')),
    category_ids: Type.Optional(Type.Array(Id, { description: 'Or `category_id` with one id.' })),
    category_id: Type.Optional(Id),
    pictures: Type.Optional(Type.Array(Type.String(), { description: 'Or `picture` with one link; the first is the main picture.' })),
    picture: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    vendor: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    vendor_code: Type.Optional(Type.String()),
    barcode: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    params: Type.Optional(Type.Array(JsonParamSchema)),
    locations: Type.Optional(Type.Array(Id, { description: 'Location ids where the offer is sold; absent or empty: everywhere.' })),
    deeplink_android: Type.Optional(Type.String()),
    deeplink_ios: Type.Optional(Type.String()),
    sales_rate: Type.Optional(Type.Integer({ minimum: 0 })),
    ignored: Type.Optional(Type.Boolean({ description: 'Hide from recommendations and search.' })),
  },
  { description: 'An offer: the same fields as a YML offer, in snake_case.' },
);

/** The JSON feed (documentation only: the body is streamed into the import, never buffered whole). */
export const JsonFeedSchema = Type.Object(
  {
    categories: Type.Optional(Type.Array(JsonCategorySchema)),
    locations: Type.Optional(Type.Array(JsonLocationSchema)),
    offers: Type.Array(JsonOfferSchema),
  },
  {
    description:
      'A product feed as JSON: the content of a YML feed. Read element by element as it streams in; ' +
      'each element is at most 1 MiB of text and the keys and values outside the three arrays at most 64 KiB.',
  },
);

const SkippedSchema = Type.Object({
  id: Type.String({ description: 'The offer id (empty when the offer had none), or the id of a category or location.' }),
  reason: Type.String({ description: 'Why it was skipped, ignored or changed.' }),
});

export const FeedImportResultSchema = Type.Object(
  {
    products: Type.Integer({ description: 'Products now served.' }),
    categories: Type.Integer(),
    locations: Type.Integer(),
    skipped: Type.Array(SkippedSchema, { description: 'The first 100 entries left out or changed, with reasons.' }),
  },
  { description: 'The import landed: the catalog is served.' },
);
export type FeedImportResultBody = Static<typeof FeedImportResultSchema>;

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const FeedImportRecordSchema = Type.Object({
  generation: Type.Integer({ description: 'The import id: the catalog generation it wrote.' }),
  source: Type.Union([Type.Literal('admin'), Type.Literal('cli'), Type.Literal('url')]),
  status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  products: Type.Integer(),
  categories: Type.Integer(),
  locations: Type.Integer(),
  skipped_count: Type.Integer({ description: 'Every skipped entry; `skipped` keeps the first 100.' }),
  skipped: Type.Array(SkippedSchema),
  error: Nullable(Type.String({ description: 'Why a failed import failed.' })),
  started_at: Timestamp('When the import began.'),
  finished_at: Nullable(Timestamp('When it landed or failed.')),
});
export type FeedImportRecordBody = Static<typeof FeedImportRecordSchema>;

export const FeedStatusSchema = Type.Object(
  {
    feed_url: Nullable(Type.String({ description: 'Fetched on a schedule when set.' })),
    refresh_minutes: Type.Integer({ description: 'Minutes between scheduled fetches.' }),
    generation: Type.Integer({ description: 'The catalog generation served; 0 before the first import.' }),
    landed_at: Nullable(Timestamp('When the served catalog landed.')),
    next_fetch_at: Nullable(Timestamp('When the feed URL is fetched next.')),
    last_import: Type.Union([FeedImportRecordSchema, Type.Null()]),
  },
  { description: "The shop's product feed." },
);
export type FeedStatusBody = Static<typeof FeedStatusSchema>;

export const FeedPatchSchema = Type.Object(
  {
    feed_url: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 2048, description: 'An http:// or https:// link.' }), Type.Null()], {
        description: 'Set to fetch the feed at once and then every refresh_minutes; null to stop.',
      }),
    ),
    refresh_minutes: Type.Optional(Type.Integer({ minimum: REFRESH_MINUTES_RANGE.min, maximum: REFRESH_MINUTES_RANGE.max })),
  },
  { additionalProperties: false },
);
export type FeedPatchBody = Static<typeof FeedPatchSchema>;

export const FeedImportListSchema = Type.Object(
  {
    imports: Type.Array(FeedImportRecordSchema),
    next_before: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Pass it as `before` for the next (older) page; null when this page is the last.',
    }),
  },
  { description: 'The import log, newest first.' },
);

export const FeedImportsQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_IMPORTS_LISTED, default: 20 })),
    before: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Only imports older than this generation: the `next_before` of the previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FeedImportsQuery = Static<typeof FeedImportsQuerySchema>;
