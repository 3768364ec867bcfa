import type { AdminRole } from './user.js';

/**
 * Who may do what on /admin/v1 (docs/admin-users.md "Roles"): the one decision the admin
 * scope's authorization hook asks for every request. Pure: the hook gathers the facts
 * (the route as registered, its shop, the user acted on and the role asked for) and this
 * answers yes or no.
 */
export type AccessActor =
  | { readonly kind: 'superuser' }
  | { readonly kind: 'user'; readonly userId: number; readonly role: AdminRole; readonly shops: readonly string[] | null };

export interface AccessRequest {
  readonly method: string;
  /** The route's path below /admin/v1 as registered, e.g. `/shops/:shop_id/secret`. */
  readonly route: string;
  /** The route's `:shop_id`, when it has one. */
  readonly shopId?: string;
  /** On `/users/:id…` routes: the user acted on (undefined when there is no such user). */
  readonly target?: { readonly id: number; readonly role: AdminRole };
  /** On POST /users and PATCH /users/:id: the role the body asks for. */
  readonly requestedRole?: AdminRole;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/** What a user does to their own sign-in, whatever their role. */
const OWN_SESSION_ROUTES = new Set(['/session', '/session/password', '/session/sessions', '/session/sessions/:id']);

const TOKEN_ROUTES = new Set(['/users/:id/tokens', '/users/:id/tokens/:token_id']);

/**
 * Writes a marketer may not make: the shops themselves and their secret, the
 * credentials of the messaging channels (messaging.routes.ts), and the webhook
 * endpoints, which carry signing secrets and send the shop's customer events to a URL
 * of the caller's choosing.
 */
const MARKETER_DENIED = new Set([
  'POST /shops',
  'PATCH /shops/:shop_id',
  'DELETE /shops/:shop_id',
  'POST /shops/:shop_id/secret',
  'PUT /shops/:shop_id/channels/:channel',
  'POST /shops/:shop_id/channels/web_push/vapid_keys',
  'POST /shops/:shop_id/webhooks/endpoints',
  'PATCH /shops/:shop_id/webhooks/endpoints/:endpoint_id',
  'DELETE /shops/:shop_id/webhooks/endpoints/:endpoint_id',
  'POST /shops/:shop_id/webhooks/endpoints/:endpoint_id/rotate-secret',
]);

export function mayAccess(actor: AccessActor, request: AccessRequest): boolean {
  if (actor.kind === 'superuser') return true;
  const method = request.method.toUpperCase();
  const read = READ_METHODS.has(method);
  if (OWN_SESSION_ROUTES.has(request.route)) return true;

  const ownTarget = request.target !== undefined && request.target.id === actor.userId;
  // Anyone manages their own API tokens; owners and admins anyone's but an owner's
  // (a token of an owner is an owner's rights).
  if (TOKEN_ROUTES.has(request.route)) {
    if (ownTarget) return true;
    return actor.shops === null && mayManageUser(actor.role, request.target?.role, undefined);
  }

  if (actor.shops !== null) {
    if (request.shopId !== undefined) {
      if (!actor.shops.includes(request.shopId)) return false;
    } else if (request.route === '/shops') {
      // Listed filtered to the user's shops; no new shop.
      if (!read) return false;
    } else if (request.route === '/users/:id') {
      // Only their own account; the rest of the team is outside what they see.
      if (!read || !ownTarget) return false;
    } else {
      return false;
    }
  }

  if (read) return true;
  if (request.route === '/users' || request.route.startsWith('/users/')) {
    return mayManageUser(actor.role, request.target?.role, request.requestedRole);
  }
  switch (actor.role) {
    case 'owner':
    case 'admin':
      return true;
    case 'marketer':
      return !MARKETER_DENIED.has(`${method} ${request.route}`);
    case 'analyst':
      return false;
  }
}

/** Creating, changing or removing a user (or their tokens): owners always; admins unless an owner is involved. */
function mayManageUser(role: AdminRole, targetRole: AdminRole | undefined, requestedRole: AdminRole | undefined): boolean {
  if (role === 'owner') return true;
  if (role !== 'admin') return false;
  return targetRole !== 'owner' && requestedRole !== 'owner';
}
