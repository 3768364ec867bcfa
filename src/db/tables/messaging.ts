import type { Generated } from 'kysely';

/** Kysely table types: the messaging engine (src/modules/messaging). Column conventions: db/dialect.ts. */

export interface MessagingSequencesTable {
  shop_id: string;
  /** 'mailings'. */
  kind: string;
  last_id: number;
}

export interface MessagingChannelsTable {
  shop_id: string;
  channel: string;
  /** JSON `{vendor: settings}`; secret fields are sealed (modules/messaging/secret-box.ts). */
  settings: string;
  /** Sends per second per process for this shop and channel; null: the default. */
  rate_per_second: number | null;
  updated_at: number;
}

export interface MessagingMailingsTable {
  shop_id: string;
  code: string;
  /** Per shop, from messaging_sequences: the `campaign_id` of the history. */
  id: number;
  kind: 'transactional';
  name: string | null;
  /** JSON (modules/messaging/domain/mailing.ts). */
  templates: string;
  created_at: number;
  updated_at: number;
}

export interface MessagingMessagesTable {
  shop_id: string;
  code: string;
  type: 'transactional' | 'bulk' | 'chain';
  mailing_id: number;
  mailing_code: string;
  profile_id: number;
  /** 0/1: a test send (no history, no statistics). */
  test: number;
  idempotency_key: string | null;
  /** JSON object. */
  variables: string;
  /** JSON arrays of email addresses. */
  cc: string;
  bcc: string;
  created_at: number;
}

export interface MessagingDeliveriesTable {
  shop_id: string;
  code: string;
  seq: number;
  channel: string;
  vendor: string | null;
  address: string;
  /** mobile_push: 'ios' | 'android'. */
  platform: string | null;
  type: 'transactional' | 'bulk' | 'chain';
  mailing_id: number;
  profile_id: number;
  test: number;
  status: 'queued' | 'sent' | 'failed';
  error: string | null;
  attempts: number;
  provider_message_id: string | null;
  subject: string | null;
  body: string | null;
  url: string | null;
  icon: string | null;
  picture: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  opened_at: number | null;
  clicked_at: number | null;
  unsubscribed_at: number | null;
  hard_bounced_at: number | null;
  soft_bounced_at: number | null;
  complained_at: number | null;
  purchased_at: number | null;
  /** Migration 0027: the mobile SDK reported the push shown. */
  delivered_at: number | null;
  /** Migration 0039: the revenue (minor units) of the purchase attributed with `purchased_at`. */
  purchase_value: number | null;
  /** Migration 0050: the job claim sending this delivery now (modules/messaging/send-marks.ts); null when none is. */
  send_token: string | null;
  /** Migration 0050: the sender's beats while it awaits the vendor's answer. */
  send_beat: Generated<number>;
}

export interface MessagingDeadAddressesTable {
  shop_id: string;
  channel: string;
  address: string;
  reason: string;
  created_at: number;
}

/** The templates a test send of an unsaved template carries, by its message's code (migration 0040). */
export interface MessagingMessageTemplatesTable {
  shop_id: string;
  code: string;
  /** JSON (modules/messaging/domain/mailing.ts). */
  templates: string;
  /** JSON: the `profile` the templates render with. */
  profile: string;
  created_at: number;
}

/** A shop's test sends in the current window: the rate limit of test sends (migration 0040). */
export interface MessagingTestSendsTable {
  shop_id: string;
  window_start: number;
  sent: number;
}

/** Migration 0041: sent, failed and bounced per channel and hour, a ring of 24 slots (slot = hour mod 24). */
export interface MessagingChannelStatsTable {
  shop_id: string;
  channel: string;
  slot: number;
  /** Hours since the epoch: the hour the slot counts now. */
  hour: number;
  sent: number;
  failed: number;
  bounced: number;
}

/** Migration 0041: the last error a vendor answered on a channel (credentials redacted). */
export interface MessagingChannelErrorsTable {
  shop_id: string;
  channel: string;
  vendor: string;
  error: string;
  at: number;
}

/** Migration 0041: a shop's test sends in the current window. */
export interface MessagingChannelTestsTable {
  shop_id: string;
  window_start: number;
  used: number;
}

/** Migration 0041: each try of a delivery. */
export interface MessagingDeliveryAttemptsTable {
  shop_id: string;
  code: string;
  seq: number;
  /** 1 for the first try. */
  attempt: number;
  at: number;
  vendor: string | null;
  outcome: 'sent' | 'temporary' | 'permanent' | 'dead_address' | 'unknown';
  /** The vendor's message id of a send, or its error (credentials redacted). */
  answer: string | null;
  duration_ms: number;
}

/** Migration 0041: an email's HTML as rendered, before tracking links, deflated (raw DEFLATE). */
export interface MessagingDeliveryHtmlTable {
  shop_id: string;
  code: string;
  seq: number;
  html: Buffer;
}
