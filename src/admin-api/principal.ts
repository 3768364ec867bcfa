/**
 * Who makes an admin request: the admin token (the superuser credential of the admin API,
 * admin-api.md "Admin users"), or a user signed in to the admin UI or holding one of their
 * API tokens. Set by the admin scope's authentication hook before any route runs; the
 * permission checks and the audit log read it.
 */
export type AdminRole = 'owner' | 'admin' | 'marketer' | 'analyst';

export type AdminPrincipal =
  | { readonly kind: 'superuser' }
  | {
      readonly kind: 'user';
      readonly userId: number;
      readonly email: string;
      readonly role: AdminRole;
      /** The shops the user is limited to; null: every shop. */
      readonly shops: readonly string[] | null;
      /** How the request proved it: the UI's session cookie, or a user's API token. */
      readonly via: 'session' | 'token';
    };

export const SUPERUSER: AdminPrincipal = Object.freeze({ kind: 'superuser' });

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin scope's authentication hook; undefined outside /admin/v1. */
    adminPrincipal?: AdminPrincipal;
  }
}
