/** Kysely table types: signed outbound webhooks (src/modules/webhooks). Column conventions: db/dialect.ts. */

export interface WebhookCountersTable {
  shop_id: string;
  /** The shop's endpoints; raised by a conditional UPDATE below the cap. */
  endpoints: number;
}

export interface WebhookEndpointsTable {
  shop_id: string;
  /** `ep_` and 22 base64url characters. */
  id: string;
  url: string;
  description: string;
  /** JSON array of event types (modules/webhooks/domain/events.ts). */
  event_types: string;
  /** 0/1. */
  enabled: number;
  /** Why the endpoint was disabled (a 410 Gone, or the admin); null when enabled. */
  disabled_reason: string | null;
  /** The `whsec_…` secret, sealed (modules/messaging/secret-box.ts). */
  secret: string;
  /** The secret before the last rotation, sealed; it signs beside the new one until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  shop_id: string;
  endpoint_id: string;
  /** The `webhook-id`: `msg_` and 27 base64url characters derived from the event. */
  id: string;
  event_type: string;
  /** The JSON body sent, exactly as signed. */
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  /** Migration 0041: how long the last attempt took, from the connection to the answer. */
  last_duration_ms: number | null;
  /** One sentence without internals (no addresses, no stack). */
  last_error: string | null;
  created_at: number;
  updated_at: number;
}
