import type { Generated } from 'kysely';

/**
 * Kysely table types. Column conventions are in db/dialect.ts.
 * Every table that holds shop data leads its primary key with shop_id.
 */

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface ShopsTable {
  shop_id: string;
  secret_hash: string;
  name: string;
  currency: string;
  timezone: string;
  active: number;
  restricted: number;
  /** YYYY-MM-DD, or null for no payment limit. */
  paid_till: string | null;
  created_at: number;
  updated_at: number;
}

export interface CustomEventCodesTable {
  shop_id: string;
  code: string;
  name: string | null;
  created_at: number;
}

export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  idempotency_key: string | null;
  /** How many times the job was claimed; retry limits are the registered handler's. */
  attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface ProfilesTable {
  shop_id: string;
  /** Random, below 2^53, made by the identity service. */
  id: number;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  loyalty_id: string | null;
  telegram_id: string | null;
  /** JSON object. */
  properties: string;
  /** Set on a merged profile (a tombstone): the profile it lives on in. */
  merged_into: number | null;
  created_at: number;
  updated_at: number;
}

export interface DevicesTable {
  shop_id: string;
  did: string;
  profile_id: number;
  created_at: number;
  last_seen_at: number;
}

export interface ProfileMergesTable {
  shop_id: string;
  id: number;
  from_profile_id: number;
  into_profile_id: number;
  reason: string;
  /** JSON object: the identifiers involved. */
  identifiers: string;
  created_at: number;
}

export interface Database {
  settings: SettingsTable;
  shops: ShopsTable;
  custom_event_codes: CustomEventCodesTable;
  jobs: JobsTable;
  profiles: ProfilesTable;
  devices: DevicesTable;
  profile_merges: ProfileMergesTable;
}
