import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual } from '../constant-time.js';
import { AppError } from '../errors.js';
import { schemeCredential } from '../http/authorization.js';
import { ADMIN_ROLES, API_TOKEN_PREFIX, mayAccess, type AdminRole, type AdminUser } from '../modules/admin-users/index.js';
import { SUPERUSER, type AdminPrincipal } from './principal.js';

/**
 * Who calls /admin/v1 and what they may do (docs/admin-users.md): the Bearer admin token
 * (the superuser), a user's Bearer `pat_…` API token, or the admin UI's session cookie,
 * which must bring its CSRF token on every state-changing request.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Admin scope: the route needs no credential (signing in, invitation links). */
    public?: boolean;
  }
  interface FastifyRequest {
    /** Admin scope: the session of a cookie-authenticated request. */
    adminSession?: { readonly idHash: string; readonly csrfToken: string };
  }
}

export const SESSION_COOKIE = 'patron_session';
/** A session id is 43 base64url characters; anything much longer is not one. */
const SESSION_ID_MAX = 128;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const FORBIDDEN_MESSAGE = 'You do not have access to this.';

/** The session id of a request's Cookie header, if it has one of a plausible shape. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return value.length > 0 && value.length <= SESSION_ID_MAX && /^[\w-]+$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** The Set-Cookie of a new session: a browser-session cookie, never readable by scripts, Secure over https. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax${secure(request)}`);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure(request)}`);
}

function secure(request: FastifyRequest): string {
  return request.protocol === 'https' ? '; Secure' : '';
}

export function userPrincipal(user: AdminUser, via: 'session' | 'token'): AdminPrincipal {
  return { kind: 'user', userId: user.id, email: user.email, role: user.role, shops: user.shops, via };
}

/**
 * The admin scope's onRequest authentication, before the body is read. With an
 * Authorization header: a `pat_…` token of an enabled user, else the admin token (its
 * messages and failure limit as they always were). Without one: the session cookie. Public
 * routes take no credential. A browser's state-changing request from another origin is
 * refused whatever it carries.
 */
export async function authenticateAdminRequest(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const header = request.headers.authorization;
  const bearer = header !== undefined && header.trim() !== '';
  const changes = !SAFE_METHODS.has(request.method);
  if (!bearer && changes) checkOrigin(request);
  if (request.routeOptions.config.public) return;

  app.limits.checkCredentialAttempt('admin_token', request.ip);
  if (!bearer) {
    const sessionId = readSessionCookie(request.headers.cookie);
    if (sessionId === undefined) throw new AppError('UNAUTHORIZED', 'Authorization header with a Bearer admin token is required.');
    const live = await app.services.adminSessions.findLiveSession(sessionId);
    if (live === undefined) throw new AppError('UNAUTHORIZED', 'The session has ended; sign in again.');
    if (changes) checkCsrf(request, live.csrfToken);
    request.adminPrincipal = userPrincipal(live.user, 'session');
    request.adminSession = { idHash: live.idHash, csrfToken: live.csrfToken };
    return;
  }

  const token = schemeCredential(header, 'Bearer');
  if (token === undefined) throw new AppError('UNAUTHORIZED', 'Authorization must use the Bearer scheme with the admin token.');
  if (token.startsWith(API_TOKEN_PREFIX)) {
    const user = await app.services.adminSessions.findApiTokenUser(token);
    if (user !== undefined) {
      request.adminPrincipal = userPrincipal(user, 'token');
      return;
    }
  }
  // Not a user's token: the admin token, under its failure limit (docs/limits.md).
  const matches = await app.services.adminToken.verifier();
  if (!app.limits.attemptCredential('admin_token', request.ip, () => matches(token))) {
    throw new AppError('UNAUTHORIZED', 'Admin token is not valid.');
  }
  request.adminPrincipal = SUPERUSER;
}

/** The CSRF token of the session, compared in constant time (docs/admin-users.md, "CSRF"). */
function checkCsrf(request: FastifyRequest, expected: string): void {
  const given = request.headers['x-csrf-token'];
  if (typeof given !== 'string' || !constantTimeEqual(given, expected)) {
    throw new AppError('FORBIDDEN', 'The X-CSRF-Token header is missing or wrong; reload the page.');
  }
}

/** An Origin, when a browser sends one, must be this server as the request reached it. */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const own = `${request.protocol}://${request.host}`.toLowerCase();
  if (origin.toLowerCase() !== own) throw new AppError('FORBIDDEN', 'The request comes from another origin.');
}

/**
 * The one authorization check of the admin scope, after authentication and before
 * validation (so that a refused caller learns nothing of what validation would say):
 * the facts of the request, and the access policy's answer.
 */
export async function authorizeAdminRequest(app: FastifyInstance, request: FastifyRequest, prefix: string): Promise<void> {
  const principal = request.adminPrincipal;
  const url = request.routeOptions.url;
  if (principal === undefined || principal.kind === 'superuser' || url === undefined || request.routeOptions.config.public) return;
  const route = url.startsWith(prefix) ? url.slice(prefix.length) : url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const shopId = typeof params.shop_id === 'string' ? params.shop_id : undefined;
  let target: { id: number; role: AdminRole } | undefined;
  if (route.startsWith('/users/:id') && typeof params.id === 'string' && /^[1-9]\d{0,14}$/.test(params.id)) {
    const user = await app.services.adminAccounts.findUser(Number(params.id));
    if (user !== undefined) target = { id: user.id, role: user.role };
  }
  const body = request.body as { role?: unknown } | undefined;
  const role = typeof body === 'object' && body !== null ? body.role : undefined;
  const requestedRole = (ADMIN_ROLES as readonly unknown[]).includes(role) ? (role as AdminRole) : undefined;
  const actor = { kind: 'user' as const, userId: principal.userId, role: principal.role, shops: principal.shops };
  if (!mayAccess(actor, { method: request.method, route, shopId, target, requestedRole })) {
    throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  }
}
