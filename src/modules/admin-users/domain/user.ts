/**
 * An admin user as the services speak of it (admin-api.md "Admin users"). Pure: no I/O.
 */
export const ADMIN_ROLES = ['owner', 'admin', 'marketer', 'analyst'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export interface AdminUser {
  readonly id: number;
  readonly email: string;
  readonly role: AdminRole;
  /** The shops the user is limited to; null: every shop. */
  readonly shops: readonly string[] | null;
  readonly disabled: boolean;
  readonly createdAt: number;
  readonly lastSignInAt: number | null;
  /** Invited: no password set yet (the invitation link sets it). */
  readonly status: 'active' | 'invited';
}

/** Passwords: long enough to resist guessing, bounded so that hashing stays cheap to refuse. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** Emails are unique whatever their case: the key the table's unique index is on. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** The shop list as stored: unique ids in the order given; null stays null (every shop). */
export function normalizeShops(shops: readonly string[] | null | undefined): string[] | null {
  if (shops === null || shops === undefined) return null;
  return [...new Set(shops)];
}
