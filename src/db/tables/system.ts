import type { Generated } from 'kysely';

/** Kysely table types: Settings, shops and their custom event codes, the job queue (src/modules/shops, src/modules/system, src/jobs). Column conventions: db/dialect.ts. */

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
