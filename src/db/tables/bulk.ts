/** Kysely table types: bulk mailings, their recipients, frequency caps and messaging limits (src/modules/bulk). Column conventions: db/dialect.ts. */

export interface BulkMailingsTable {
  shop_id: string;
  /** Per shop, from messaging_sequences ('bulk'): the `campaign_id` of its messages. */
  id: number;
  name: string;
  /** JSON array of segment ids. */
  segment_ids: string;
  /** JSON (modules/messaging/domain/mailing.ts). */
  templates: string;
  /** JSON of the A/B split (modules/bulk/domain/bulk-mailing.ts), null without one. */
  ab: string | null;
  /** Recipients messaged per minute; null: no throttle. */
  throttle_per_minute: number | null;
  send_at: number;
  /** members → (wait → rest) → end (docs/bulk.md, "Statuses"). */
  stage: 'members' | 'wait' | 'rest' | 'end';
  /** Pages of the expansion done: the `bulk.expand` job of page N runs only while pages = N. */
  pages: number;
  /** The last profile id of the stage's pages done (profiles are paged in id order). */
  cursor: number;
  /** Members expanded so far: the A/B slot of the next one. */
  position: number;
  /** Throttle: the instant the current stage's schedule starts, and the recipients given a slot since. */
  slot_base: number;
  slot_count: number;
  /** The winning variant's name once decided. */
  winner: string | null;
  /** Migration 0039: distinct members counted at creation (the progress total until the expansion has seen them all). */
  audience: number | null;
  /** Migration 0039: when the A/B winner is chosen, once the test is written. */
  decide_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface BulkRecipientsTable {
  shop_id: string;
  mailing_id: number;
  profile_id: number;
  /** The A/B variant ('a', 'b' …), 'rest' for a held one, '' without a split. */
  variant: string;
  /** held: waits for the A/B winner; messaged: has a message (`code`); skipped: see `reason`. */
  status: 'held' | 'messaged' | 'skipped';
  /** unreachable | unsubscribed | over_cap. */
  reason: string | null;
  code: string | null;
  /** Migration 0039: 1 for a member held for the A/B winner (the rest), 0 for the test and a mailing without a split. */
  rest: number;
}

export interface MessagingLimitsTable {
  shop_id: string;
  channel: string;
  bulk_per_day: number | null;
  bulk_per_week: number | null;
  /** Quiet hours as minutes since local midnight; both null or both set. */
  quiet_from: number | null;
  quiet_to: number | null;
  updated_at: number;
}

export interface BulkCapCountersTable {
  shop_id: string;
  profile_id: number;
  channel: string;
  /** 'd:YYYY-MM-DD' or 'w:YYYY-Www' of the shop's time zone. */
  period: string;
  count: number;
}
