import type { Generated } from 'kysely';

/** Kysely table types: the audit log (src/modules/audit). Column conventions: db/dialect.ts. */

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  shop_id: string | null;
  actor_kind: 'superuser' | 'user';
  actor_user_id: number | null;
  actor_email: string | null;
  actor_via: 'session' | 'token' | null;
  method: string;
  /** The request's URL path, without its query. */
  path: string;
  /** The route's pattern (`/admin/v1/shops/:shop_id`). */
  route: string;
  action: string;
  status: number;
  /** JSON text: the resource as read before the change, or null. */
  before: string | null;
  /** JSON text: `{"request", "response"}`, redacted and bounded, or null. */
  after: string | null;
  ip: string | null;
}
