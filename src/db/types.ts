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
  attempts: number;
  max_attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface Database {
  settings: SettingsTable;
  shops: ShopsTable;
  custom_event_codes: CustomEventCodesTable;
  jobs: JobsTable;
}
