/** Kysely table types: Profiles, their devices and the merges between them (src/modules/identity). Column conventions: db/dialect.ts. */

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
