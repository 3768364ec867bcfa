import crypto from 'node:crypto';
import { PUSH_EVENTS, type StoredEvent } from '../../tracking/index.js';

/**
 * The events a shop's endpoints may receive and their payloads (docs/webhooks.md,
 * "Events"): Standard Webhooks' `{type, timestamp, data}`, minified JSON. Each event has
 * a key naming what happened once (the outcome of one delivery of one message, one stored
 * tracking event), and its `webhook-id` is derived from the shop and that key, so that
 * the same happening recorded twice is the same webhook.
 */

export const MESSAGE_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.opened',
  'message.clicked',
  'message.bounced',
  'message.complained',
  'message.unsubscribed',
] as const;
export const TRACKING_EVENT_TYPES = [...PUSH_EVENTS.map((event) => `tracking.${event}` as const), 'tracking.custom'] as const;
export const EVENT_TYPES: readonly string[] = [...MESSAGE_EVENT_TYPES, ...TRACKING_EVENT_TYPES];
export type EventType = (typeof MESSAGE_EVENT_TYPES)[number] | (typeof TRACKING_EVENT_TYPES)[number];

/** A body larger than this loses its bulky parts (items, parameters) and says `truncated`. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** The messaging columns that become webhooks, and their event types. */
const OUTCOME_TYPES: Readonly<Record<string, { type: EventType; bounceType?: 'hard' | 'soft' }>> = {
  sent_at: { type: 'message.sent' },
  delivered_at: { type: 'message.delivered' },
  opened_at: { type: 'message.opened' },
  clicked_at: { type: 'message.clicked' },
  hard_bounced_at: { type: 'message.bounced', bounceType: 'hard' },
  soft_bounced_at: { type: 'message.bounced', bounceType: 'soft' },
  complained_at: { type: 'message.complained' },
  unsubscribed_at: { type: 'message.unsubscribed' },
};

export interface WebhookEvent {
  readonly type: EventType;
  /** `msg_…`: the webhook-id of every endpoint's delivery of this event. */
  readonly id: string;
  /** The body, exactly as it is signed and sent. */
  readonly body: string;
}

/** The event type of a messaging outcome column; undefined for a column that sends none (purchased_at). */
export function outcomeEventType(column: string): EventType | undefined {
  return OUTCOME_TYPES[column]?.type;
}

/** The event type of a stored tracking event. */
export function trackingEventType(event: Pick<StoredEvent, 'custom' | 'event'>): EventType {
  return event.custom ? 'tracking.custom' : (`tracking.${event.event}` as EventType);
}

export interface OutcomeFacts {
  readonly shopId: string;
  readonly code: string;
  readonly seq: number;
  readonly channel: string;
  /** transactional, chain or bulk. */
  readonly messageType: string;
  readonly profileId: number;
  readonly address: string;
}

/** The webhook of one outcome of one delivery, at `at`; undefined when the column sends none. */
export function messageOutcomeEvent(facts: OutcomeFacts, column: string, at: number): WebhookEvent | undefined {
  const outcome = OUTCOME_TYPES[column];
  if (!outcome) return undefined;
  const data = {
    code: facts.code,
    seq: facts.seq,
    channel: facts.channel,
    message_type: facts.messageType,
    profile_id: facts.profileId,
    address: facts.address,
    ...(outcome.bounceType && { bounce_type: outcome.bounceType }),
  };
  return {
    type: outcome.type,
    id: messageId(facts.shopId, `${column}:${facts.code}:${facts.seq}`),
    body: JSON.stringify({ type: outcome.type, timestamp: new Date(at).toISOString(), data }),
  };
}

/** The webhook of one stored tracking event (its own time is the payload's timestamp). */
export function trackingEvent(event: StoredEvent): WebhookEvent {
  const type = trackingEventType(event);
  const data = {
    event_id: event.id,
    event: event.event,
    profile_id: event.profileId,
    did: event.did,
    items: event.items,
    params: event.params,
  };
  const timestamp = new Date(event.time).toISOString();
  let body = JSON.stringify({ type, timestamp, data });
  if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES) {
    const { items: _items, params: _params, ...thin } = data;
    body = JSON.stringify({ type, timestamp, data: { ...thin, truncated: true } });
  }
  return { type, id: messageId(event.shopId, `event:${event.id}`), body };
}

/** `msg_` and 27 base64url characters of a hash: no `.` (the signed content's separator), stable for one happening. */
export function messageId(shopId: string, key: string): string {
  return `msg_${crypto.createHash('sha256').update(`${shopId}\n${key}`).digest('base64url').slice(0, 27)}`;
}
