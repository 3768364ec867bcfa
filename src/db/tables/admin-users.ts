import type { Generated } from 'kysely';

/** Kysely table types: people of the admin UI (src/modules/admin-users). Column conventions: db/dialect.ts. */

export interface AdminUsersTable {
  id: Generated<number>;
  email: string;
  /** The email lower-cased: unique. */
  email_key: string;
  /** `scrypt$N$r$p$salt$hash` (modules/admin-users/passwords.ts); null while invited. */
  password_hash: string | null;
  role: 'owner' | 'admin' | 'marketer' | 'analyst';
  /** JSON array of shop ids; null: every shop. */
  shops: string | null;
  /** 0/1. */
  disabled: number;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
}

export interface AdminSessionsTable {
  /** SHA-256 (hex) of the cookie's session id. */
  id_hash: string;
  /** Random, shown on the account screen and used to revoke the session; not the cookie's id (0037). */
  public_id: string;
  user_id: number;
  csrf_token: string;
  created_at: number;
  /** Moved forward at most once a minute. */
  last_seen_at: number;
  /** last_seen_at plus the idle timeout. */
  idle_expires_at: number;
  /** created_at plus the absolute lifetime. */
  expires_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

export interface AdminInvitationsTable {
  /** SHA-256 (hex) of the link's token. */
  token_hash: string;
  /** null: the person types it (the first owner's invitation). */
  email: string | null;
  role: 'owner' | 'admin' | 'marketer' | 'analyst';
  shops: string | null;
  /** The invited (or resetting) user; null for the first owner's invitation. */
  user_id: number | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AdminApiTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of `pat_…`. */
  token_hash: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}
