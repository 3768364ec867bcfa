import { Type, type Static, type TOptional } from '@sinclair/typebox';
import { AbSplitSchema } from '../modules/bulk/domain/bulk-mailing.js';
import { MAX_SEGMENTS, MAX_THROTTLE_PER_MINUTE } from '../modules/bulk/bulk.service.js';
import { MailingTemplatesSchema } from '../modules/messaging/domain/mailing.js';
import { CHANNELS } from '../modules/messaging/providers/provider.js';
import { ShopIdParam } from './common.schemas.js';
import { CursorQuerySchema, limitQuerySchema, NextCursorSchema } from './paging.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const Rate = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const OutcomesSchema = Type.Object({
  messaged: Count('Recipients given a message.'),
  sent: Count('Messages sent on at least one channel.'),
  delivered: Count('Sent minus bounced.'),
  failed: Count('Messages whose every delivery failed.'),
  bounced: Count('Sent messages whose every sent delivery bounced (hard or soft).'),
  opened: Count('Messages opened (the open pixel, or a push reported opened).'),
  clicked: Count('Messages with a tracked link followed.'),
  unsubscribed: Count('Messages whose recipient unsubscribed through them.'),
  purchases: Count('Messages with a purchase attributed: `recommended_code` naming the message, or a click within the window before it.'),
  revenue: Type.Number({ minimum: 0, description: 'Currency units: the attributed purchases (order_price, else the sum of the items).' }),
  open_rate: Rate('opened / delivered.'),
  click_rate: Rate('clicked / delivered.'),
});

const ProgressSchema = Type.Object(
  {
    to_send: Count('Members to deal with: counted at creation until the expansion has seen them all, then every recipient.'),
    done: Count('Members dealt with: sent + skipped + failed.'),
    percent: Type.Integer({ minimum: 0, maximum: 100, description: 'done / to_send, 100 once nothing is left.' }),
    ab_phase: Type.Union(
      [Type.Literal('testing'), Type.Literal('waiting'), Type.Literal('sending_winner'), Type.Literal('done'), Type.Null()],
      { description: 'Null without an A/B split.' },
    ),
    decide_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the winner is chosen, once the test is written.',
    }),
  },
  { description: 'How far the mailing has got.' },
);

const ResultsSchema = Type.Object(
  {
    variants: Type.Array(
      Type.Composite([
        Type.Object({
          variant: Type.String({ description: "'a', 'b' … of the test; '' for a mailing without a split." }),
          share: Type.Union([Type.Integer(), Type.Null()], { description: 'Percent of the test group.' }),
        }),
        OutcomesSchema,
      ]),
    ),
    rest: Type.Union(
      [Type.Composite([Type.Object({ variant: Type.String({ description: 'The winner.' }) }), OutcomesSchema]), Type.Null()],
      {
        description: 'The winner sent to the members held for it; null before the decision and without a rest.',
      },
    ),
    total: OutcomesSchema,
  },
  { description: 'Outcomes per test variant, of the rest, and in total.' },
);

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
    progress: Type.Optional(ProgressSchema),
    results: Type.Optional(ResultsSchema),
  },
  { description: 'A bulk mailing and what became of its members; `GET …/mailings/bulk/{id}` adds its progress and results.' },
);
export type BulkBody = Static<typeof BulkSchema>;

export const BulkListQuerySchema = Type.Object(
  { limit: limitQuerySchema(20, 100), cursor: CursorQuerySchema },
  { additionalProperties: false },
);

export const BulkListSchema = Type.Object(
  {
    mailings: Type.Array(BulkSchema, { description: 'Newest first, with their counts (progress and results: read one mailing).' }),
    next_cursor: NextCursorSchema,
  },
  { description: 'Keyset paging: pass `next_cursor` back as `cursor`; each mailing appears on exactly one page.' },
);

export const AudienceQuerySchema = Type.Object(
  {
    segment_ids: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: '^[0-9]{1,15}(,[0-9]{1,15})*$',
      description: `Segment ids separated by commas, 1 to ${MAX_SEGMENTS}.`,
    }),
    channels: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: `^(${CHANNELS.join('|')})(,(${CHANNELS.join('|')}))*$`,
        description: "The channels to count, separated by commas (the mailing's channels); every channel when absent.",
      }),
    ),
  },
  { additionalProperties: false },
);

const ChannelReachSchema = Type.Object({
  configured: Type.Boolean({ description: 'The shop has settings for the channel; nothing goes out on one without.' }),
  with_address: Count('Members with an address (or a token) on the channel.'),
  unsubscribed: Count("Of those, with the channel's bulk flag (`email_bulk`, `sms_bulk`) turned off."),
  bounced: Count('Of those left, whose address is on the dead list (hard bounce, complaint, refused by the provider).'),
  over_cap: Count("Of those left, over today's or this week's cap of the channel (docs/bulk.md)."),
  reachable: Count('Members a bulk message on the channel would go to now.'),
});

export const AudienceSchema = Type.Object(
  {
    members: Count('Distinct members of the segments, each once however many of them hold it.'),
    reachable: Count('Members reachable on at least one configured channel of those counted.'),
    channels: Type.Record(Type.String(), ChannelReachSchema, { description: 'Per channel counted.' }),
    cap_periods: Type.Object(
      { day: Type.String(), week: Type.String() },
      { description: "The cap periods counted: the shop's calendar day and ISO week now." },
    ),
  },
  { description: 'The reachable audience of segments before a mailing is sent.' },
);
export type AudienceBody = Static<typeof AudienceSchema>;

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
