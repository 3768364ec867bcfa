import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../modules/webhooks/domain/events.js';
import { MAX_URL_LENGTH } from '../modules/webhooks/webhooks.service.js';
import { ShopIdParam } from './common.schemas.js';

/** docs/webhooks.md: a shop's outbound webhook endpoints and their deliveries. */

const EndpointIdParam = Type.String({ maxLength: 64, description: 'The endpoint id (`ep_…`).' });

export const EndpointParamsSchema = Type.Object({ shop_id: ShopIdParam, endpoint_id: EndpointIdParam });
export const DeliveryParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  endpoint_id: EndpointIdParam,
  delivery_id: Type.String({ maxLength: 64, description: 'The delivery id: its webhook-id (`msg_…`).' }),
});

const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((type) => Type.Literal(type)),
  { description: 'An event type (docs/webhooks.md, "Events").' },
);
const UrlSchema = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: 'http or https; a local or private network address is refused.',
});
const EventTypesSchema = Type.Array(EventTypeSchema, {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  description: 'The events the endpoint receives.',
});
const DescriptionSchema = Type.String({ maxLength: 200 });

export const CreateEndpointBodySchema = Type.Object(
  { url: UrlSchema, event_types: EventTypesSchema, description: Type.Optional(DescriptionSchema) },
  { additionalProperties: false },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBodySchema>;

export const PatchEndpointBodySchema = Type.Object(
  {
    url: Type.Optional(UrlSchema),
    event_types: Type.Optional(EventTypesSchema),
    description: Type.Optional(DescriptionSchema),
    enabled: Type.Optional(Type.Boolean({ description: 'false stops deliveries; true resumes them (after a 410 Gone, too).' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchEndpointBody = Static<typeof PatchEndpointBodySchema>;

export const EndpointSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the endpoint was disabled; null when enabled.' }),
  previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'After a rotation: until when the previous secret still signs beside the new one.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type EndpointBody = Static<typeof EndpointSchema>;

export const CreatedEndpointSchema = Type.Intersect([
  EndpointSchema,
  Type.Object({ secret: Type.String({ description: 'The signing secret (`whsec_…`), answered this once only.' }) }),
]);

export const EndpointListSchema = Type.Object({ endpoints: Type.Array(EndpointSchema) });

export const RotatedSecretSchema = Type.Object({
  secret: Type.String({ description: 'The new signing secret, answered this once only.' }),
  previous_secret_expires_at: Type.String({ format: 'date-time', description: 'Until when the previous secret signs beside the new one.' }),
});

export const DeliveriesQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')])),
});

export const DeliveryListSchema = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The webhook-id the receiver saw.' }),
      event_type: Type.String(),
      status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
      attempts: Type.Integer(),
      last_status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The last attempt's HTTP status; null when none came." }),
      last_error: Type.Union([Type.String(), Type.Null()]),
      last_duration_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'How long the last attempt took, connection to answer.' }),
      last_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'When a pending delivery is tried next.',
      }),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
});
export type DeliveryListBody = Static<typeof DeliveryListSchema>;
