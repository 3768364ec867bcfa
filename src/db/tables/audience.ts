/** Kysely table types: Audience records, segments, custom properties and the import log (src/modules/audience). Column conventions: db/dialect.ts. */

export interface AudienceSequencesTable {
  shop_id: string;
  /** 'segments' or 'imports'. */
  name: string;
  last_id: number;
}

export interface SegmentsTable {
  shop_id: string;
  /** Per shop, from audience_sequences. */
  id: number;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface SegmentMembersTable {
  shop_id: string;
  segment_id: number;
  profile_id: number;
  created_at: number;
}

export interface CustomPropertiesTable {
  shop_id: string;
  /** [a-z0-9_], 1 to 64 characters (modules/audience/domain/custom-properties.ts). */
  code: string;
  type: 'string' | 'integer' | 'float' | 'boolean' | 'date' | 'datetime';
  name: string | null;
  created_at: number;
}

/** The audience record's fields beyond identifiers and custom properties; null = never given. */
export interface AudienceProfilesTable {
  shop_id: string;
  profile_id: number;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  /** 'm' or 'f'. */
  gender: string | null;
  /** YYYY-MM-DD. */
  birthday: string | null;
  location: string | null;
  loyalty_card_location: string | null;
  loyalty_status: string | null;
  fb_id: string | null;
  vk_id: string | null;
  /** JSON array of {gender?, birthday?}. */
  kids: string | null;
  /** JSON array of {brand?, model?, vds?}. */
  auto: string | null;
  age: number | null;
  loyalty_bonuses: number | null;
  loyalty_bonuses_to_next_level: number | null;
  /** Flags: 0/1. */
  bought_something: number | null;
  email_bulk: number | null;
  email_chain: number | null;
  email_transactional: number | null;
  sms_bulk: number | null;
  sms_chain: number | null;
  sms_transactional: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProfilePushTokensTable {
  shop_id: string;
  token: string;
  platform: 'ios' | 'android';
  profile_id: number;
  created_at: number;
  updated_at: number;
}

export interface AudienceImportsTable {
  shop_id: string;
  /** Per shop, from audience_sequences. */
  id: number;
  kind: 'audience';
  source: 'api' | 'cli';
  segment_id: number | null;
  /** 'receiving' while the CLI is still storing chunks; not listed until queued. */
  status: 'receiving' | 'queued' | 'running' | 'done' | 'failed';
  received: number;
  chunks: number;
  /** The cursor: the next chunk to process. */
  next_chunk: number;
  processed: number;
  imported: number;
  skipped: number;
  profiles_created: number;
  /** JSON object (modules/audience/domain/import-log.ts). */
  log: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface AudienceImportChunksTable {
  shop_id: string;
  import_id: number;
  seq: number;
  first_index: number;
  records: number;
  /** UTF-8: the raw records' JSON texts, separated by commas (a JSON array without its brackets). */
  body: Buffer;
}
