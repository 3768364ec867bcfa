import { Type, type Static, type TOptional } from '@sinclair/typebox';
import { AbSplitSchema } from '../modules/bulk/domain/bulk-mailing.js';
import { MAX_SEGMENTS, MAX_THROTTLE_PER_MINUTE } from '../modules/bulk/bulk.service.js';
import { MailingTemplatesSchema } from '../modules/messaging/domain/mailing.js';
import { CHANNELS } from '../modules/messaging/providers/provider.js';
import { ShopIdParam } from './common.schemas.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const CreateBulkBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    segment_ids: Type.Array(Type.Integer({ minimum: 1 }), {
      minItems: 1,
      maxItems: MAX_SEGMENTS,
      description: 'Every member of these segments is a recipient, once however many of them hold it.',
    }),
    ...MailingTemplatesSchema.properties,
    send_at: Type.Optional(Type.String({ format: 'date-time', maxLength: 64, description: 'When to start; now when absent or past.' })),
    throttle_per_minute: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_THROTTLE_PER_MINUTE, description: 'At most this many recipients messaged a minute.' }),
    ),
    ab: Type.Optional(AbSplitSchema),
  },
  { additionalProperties: false },
);
export type CreateBulkBody = Static<typeof CreateBulkBodySchema>;

export const BulkSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The `campaign_id` of its messages.' }),
    name: Type.String(),
    status: Type.Union([Type.Literal('scheduled'), Type.Literal('sending'), Type.Literal('done')]),
    segment_ids: Type.Array(Type.Integer()),
    send_at: Type.String({ format: 'date-time' }),
    throttle_per_minute: Type.Union([Type.Integer(), Type.Null()]),
    recipients: Count('sent + skipped + failed.'),
    sent: Count('Recipients with a message sent on at least one channel.'),
    skipped: Count('Recipients unreachable on its channels, unsubscribed from bulk messages, or over a cap.'),
    failed: Count('Recipients whose every delivery failed.'),
    pending: Count('Recipients messaged whose deliveries are still queued (throttle, quiet hours, retries).'),
    held: Count('Members waiting for the A/B winner.'),
    skipped_by: Type.Object({
      unreachable: Count('No address on a channel of the mailing.'),
      unsubscribed: Count('Bulk flag off.'),
      over_cap: Count('Over a frequency cap.'),
    }),
    winner: Type.Union([Type.String(), Type.Null()], { description: 'The A/B variant sent to the rest, once chosen.' }),
  },
  { description: 'A bulk mailing and what became of its members.' },
);
export type BulkBody = Static<typeof BulkSchema>;

export const BulkListSchema = Type.Object({ mailings: Type.Array(BulkSchema, { description: 'The newest 100.' }) });

export const BulkParamsSchema = Type.Object({ shop_id: ShopIdParam, id: Type.String({ description: 'The bulk mailing id.' }) });

const ChannelLimitsSchema = Type.Object(
  {
    bulk_per_day: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10_000, description: 'Bulk messages a profile gets a calendar day (shop time zone).' }),
    ),
    bulk_per_week: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10_000, description: 'Bulk messages a profile gets an ISO week (shop time zone).' }),
    ),
    quiet_hours: Type.Optional(
      Type.Object(
        {
          from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
          to: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }),
        },
        { additionalProperties: false, description: 'Bulk and chain messages wait for the end; a window may wrap midnight.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const LimitsSchema = Type.Object(
  Object.fromEntries(CHANNELS.map((c) => [c, Type.Optional(ChannelLimitsSchema)])) as Record<
    (typeof CHANNELS)[number],
    TOptional<typeof ChannelLimitsSchema>
  >,
  {
    additionalProperties: false,
    description: 'Limits per channel; a PUT replaces them all. Transactional messages are never capped or delayed.',
  },
);
