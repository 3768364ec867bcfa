import type { Role, SessionUser } from './session';
import { useSession } from './session';

/**
 * What the signed-in user's role lets the UI offer (docs/admin-users.md "Roles"), so that a
 * screen hides or disables what would be refused. Only a courtesy: the server's 403 stays the
 * guard, and a screen still shows it in words when it comes.
 */
export interface Permissions {
  /** Any write at all (an analyst reads only). */
  readonly write: boolean;
  /** Change a shop's settings and rotate its secret (owners and admins). */
  readonly manageShops: boolean;
  /** See the team, invite, change and remove users (owners and admins reaching every shop). */
  readonly manageUsers: boolean;
  /** Read the audit log (owners and admins). */
  readonly readAudit: boolean;
  /** Write channel settings (credentials) and webhook endpoints (owners and admins; a marketer and an analyst read them). */
  readonly manageChannels: boolean;
}

export function permissionsOf(user: Pick<SessionUser, 'role' | 'shops'> | undefined): Permissions {
  const role = user?.role;
  const ownerOrAdmin = role === 'owner' || role === 'admin';
  return {
    write: role !== undefined && role !== 'analyst',
    manageShops: ownerOrAdmin,
    manageUsers: ownerOrAdmin && user?.shops === null,
    readAudit: ownerOrAdmin,
    manageChannels: ownerOrAdmin,
  };
}

/** Whether `actor` may create, change or remove a user of role `target` (an admin may not touch an owner). */
export function mayManageRole(actor: Role | undefined, target: Role): boolean {
  if (actor === 'owner') return true;
  return actor === 'admin' && target !== 'owner';
}

export function usePermissions(): Permissions {
  return permissionsOf(useSession().data?.user);
}
