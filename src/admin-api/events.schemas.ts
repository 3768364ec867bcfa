import { Type, type Static } from '@sinclair/typebox';
import { DEVICE_ID_PATTERN_TEXT } from '../modules/identity/domain/identifiers.js';
import { MAX_AMOUNT, MAX_ITEM_ID_LENGTH, MIN_AMOUNT } from '../modules/tracking/domain/items.js';
import {
  DEFAULT_EVENT_LIMIT,
  MAX_EVENT_LIMIT,
  MAX_RECENT_EVENT_LIMIT,
  RECENT_EVENT_LIMIT,
} from '../modules/profile-view/profile-view.service.js';

/** The same rule as identity's isValidDeviceId (docs/identity.md, Identifiers). */
export const DeviceIdSchema = Type.String({
  pattern: DEVICE_ID_PATTERN_TEXT,
  description: 'Device id (`did`): 8 to 64 characters [A-Za-z0-9-].',
  examples: ['a1B2c3D4e5'],
});

/** An item as tracking stores it after normalisation (interface.md, "Item normalisation"). */
export const TrackedItemSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: MAX_ITEM_ID_LENGTH, description: 'Product id.' }),
    amount: Type.Integer({ minimum: MIN_AMOUNT, maximum: MAX_AMOUNT, description: 'Quantity.' }),
    price: Type.Optional(Type.Number({ minimum: 0, description: 'Unit price in currency units, when it was sent.' })),
    line_id: Type.Optional(Type.String({ description: 'Order line id, when it was sent.' })),
    fashion_size: Type.Optional(Type.String({ description: 'Size, when it was sent.' })),
  },
  { description: 'An item as stored after normalisation.' },
);
export type TrackedItemBody = Static<typeof TrackedItemSchema>;

export const EventListQuerySchema = Type.Object(
  {
    did: DeviceIdSchema,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_EVENT_LIMIT,
        default: DEFAULT_EVENT_LIMIT,
        description: `How many of the newest events to answer: 1 to ${MAX_EVENT_LIMIT}, ${DEFAULT_EVENT_LIMIT} by default.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuerySchema>;

export const EventSchema = Type.Object(
  {
    event: Type.String({
      description: 'The /push event (`view`, `cart`, `purchase`…) or the custom event code.',
      examples: ['cart'],
    }),
    time: Type.String({
      format: 'date-time',
      description: 'When the event happened: ISO 8601 in UTC with milliseconds.',
      examples: ['2025-03-01T09:30:00.000Z'],
    }),
    items: Type.Array(TrackedItemSchema, { description: 'The event items as stored; empty for events without items.' }),
    params: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The other stored parameters under their contract names: stream, segment, recommended_by, ' +
        'recommended_code, referer, order_id, category_id, search_query, results (the offer ids a search ' +
        'event showed), full_cart, full_wish and the ' +
        'purchase details (order_price, delivery_type, payment_type, promocode); for custom events category, ' +
        'label, value, the custom variables and payload. A parameter that was absent or ignored is left out.',
      examples: [{ stream: 'web', recommended_by: 'dynamic', recommended_code: 'abc123' }],
    }),
  },
  { description: 'A tracked event.' },
);
export type EventBody = Static<typeof EventSchema>;

export const EventListSchema = Type.Object(
  { events: Type.Array(EventSchema) },
  { description: "The device's newest events, newest first." },
);
export type EventListBody = Static<typeof EventListSchema>;

export const RecentEventListQuerySchema = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Only events newer than this event id (the largest `id` already seen); all of the newest without it.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_RECENT_EVENT_LIMIT,
        default: RECENT_EVENT_LIMIT,
        description: `How many of the newest events to answer: 1 to ${MAX_RECENT_EVENT_LIMIT}, ${RECENT_EVENT_LIMIT} by default.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecentEventListQuery = Static<typeof RecentEventListQuerySchema>;

export const RecentEventSchema = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      description: "The event's id in its shop; larger is newer. Poll again with `after` set to the largest.",
    }),
    did: Type.Union([Type.String(), Type.Null()], { description: 'The device id the event came with, if any.' }),
    custom: Type.Boolean({ description: 'True for a POST /push/custom event.' }),
    ...EventSchema.properties,
  },
  { description: 'A tracked event of the shop, with its id.' },
);
export type RecentEventBody = Static<typeof RecentEventSchema>;

export const RecentEventListSchema = Type.Object(
  { events: Type.Array(RecentEventSchema) },
  { description: "The shop's newest events (after `after` when given), newest first." },
);
export type RecentEventListBody = Static<typeof RecentEventListSchema>;
