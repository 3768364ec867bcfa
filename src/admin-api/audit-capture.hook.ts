import type { FastifyInstance, FastifyReply, FastifyRequest, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { actionName, bodySummary, isPlainObject, omitted, recordedPath, type AuditActor } from '../modules/audit/index.js';
import type { AdminPrincipal } from './principal.js';
import { isDataWrite } from './settings-change.hook.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: the audit capture leaves this route alone, because the route records its
     * own entries through services.audit.record (docs/audit-log.md, "Recording from a route"),
     * or because it is a POST that changes nothing (a preview that only renders).
     */
    audit?: false;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Writes that change a resource the API also reads: its state is read before the change. */
const CHANGES = new Set(['PUT', 'PATCH', 'DELETE']);
/** A resource read as `before` is kept only up to this size; larger, a marker with its size. */
export const MAX_BEFORE_BYTES = 64 * 1024;
/** A body or an answer larger than this is not parsed or walked at all: its size is recorded instead. */
const MAX_PARSED_BYTES = 256 * 1024;
/**
 * Sign-in, password change and invitations carry credentials in their bodies: only the
 * email is kept of what they send, whatever the redaction would have let through.
 */
const CREDENTIAL_ROUTES = /^\/admin\/v1\/(session|invitations)(\/|$)/;
/**
 * A channel's settings hold secrets the name-and-shape redaction cannot all tell (a
 * gateway URL's `?api_id=`, fixed fields): only the vendor is kept of what was sent; the
 * answer, which masks every secret (docs/messaging.md), shows the rest.
 */
const CHANNEL_SETTINGS_ROUTE = /^\/admin\/v1\/shops\/:shop_id\/channels\/:channel$/;
const CHANNEL_SETTINGS_KEPT = new Set(['provider', 'rate_per_second']);

/**
 * The audit log's capture in the admin scope (docs/audit-log.md): every successful (2xx)
 * POST, PUT, PATCH and DELETE writes one entry before its answer leaves (onSend,
 * awaited), so that an acknowledged change is never missing from the log; a failed
 * write of the entry fails the answer. `before` is the resource as its own GET answered
 * it just before the change, asked as the same caller; data writes, which arrive by the
 * thousand (settings-change.hook.ts), get no `before`, and neither do uploads.
 */
export function auditCapture(app: FastifyInstance): { preHandler: preHandlerAsyncHookHandler; onSend: onSendAsyncHookHandler } {
  const before = new WeakMap<FastifyRequest, unknown>();
  const actions = new Map<string, string>();
  const actionOf = (method: string, route: string): string => {
    const key = `${method} ${route}`;
    let action = actions.get(key);
    if (action === undefined) {
      action = actionName(method, route, (pattern) => app.hasRoute({ method: 'GET', url: pattern }));
      actions.set(key, action);
    }
    return action;
  };

  const preHandler: preHandlerAsyncHookHandler = async (request) => {
    if (!app.services.audit.enabled || !CHANGES.has(request.method) || skipped(request)) return;
    const route = request.routeOptions.url;
    if (route === undefined || isDataWrite(route) || CREDENTIAL_ROUTES.test(route) || !isJsonRequest(request)) return;
    if (!app.hasRoute({ method: 'GET', url: route })) return;
    before.set(request, await readBefore(app, request));
  };

  const onSend: onSendAsyncHookHandler = async (request, reply, payload) => {
    if (!WRITES.has(request.method) || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    if (!app.services.audit.enabled || skipped(request)) return payload;
    const route = request.routeOptions.url ?? request.url.split('?', 1)[0] ?? '';
    const response = responseValue(reply, payload);
    const actor = actorOf(request.adminPrincipal, route, response);
    // No one to name (a sign-in that failed answers 401 and never gets here).
    if (actor === undefined) return payload;
    await app.services.audit.record({
      actor,
      shopId: shopOf(request, response),
      method: request.method,
      path: recordedPath(request.url, route),
      route,
      action: actionOf(request.method, route),
      status: reply.statusCode,
      before: before.get(request) ?? null,
      after: { request: requestValue(request, route), response },
      ip: request.ip,
    });
    return payload;
  };

  return { preHandler, onSend };
}

function skipped(request: FastifyRequest): boolean {
  return request.routeOptions.config.audit === false;
}

/** The resource at the request's path, as its GET answers the same caller; a marker when it is too large or not JSON. */
async function readBefore(app: FastifyInstance, request: FastifyRequest): Promise<unknown> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'cookie'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  try {
    const answer = await app.inject({ method: 'GET', url: request.url.split('?', 1)[0] ?? '/', headers, remoteAddress: request.ip });
    // Anything but 200: the resource does not exist yet (a PUT that creates it) or cannot be read.
    if (answer.statusCode !== 200) return null;
    const bytes = answer.rawPayload.length;
    if (bytes > MAX_BEFORE_BYTES) return omitted('larger than the audit log keeps', bytes);
    if (!isJsonType(answer.headers['content-type'])) return omitted('not JSON', bytes);
    return JSON.parse(answer.payload) as unknown;
  } catch (error) {
    request.log.warn({ err: error }, 'The audit log could not read the state before a change');
    return omitted('could not be read');
  }
}

/** What the caller sent: its JSON, or the type and size of anything else (an upload, a feed). */
function requestValue(request: FastifyRequest, route: string): unknown {
  const length = Number(request.headers['content-length']);
  const bytes = Number.isFinite(length) ? length : undefined;
  if (isJsonRequest(request)) {
    // A large import (events, profiles) is not walked for redaction only to keep its first 16 KB.
    if (bytes !== undefined && bytes > MAX_PARSED_BYTES) return omitted('larger than the audit log keeps', bytes);
    const body = request.body ?? null;
    // A route that streams its body (the feed's PUT) leaves the stream here, not JSON data.
    if (body !== null && typeof body === 'object' && !Array.isArray(body) && !isPlainObject(body)) {
      return bodySummary(request.headers['content-type'], bytes);
    }
    if (CHANNEL_SETTINGS_ROUTE.test(route) && body !== null && typeof body === 'object') {
      return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, CHANNEL_SETTINGS_KEPT.has(key) ? value : '[redacted]']));
    }
    if (CREDENTIAL_ROUTES.test(route) && body !== null && typeof body === 'object') {
      return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, key === 'email' ? value : '[redacted]']));
    }
    return body;
  }
  return bodySummary(request.headers['content-type'], bytes);
}

function isJsonRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return type === undefined || isJsonType(type);
}

/** What the answer carried: its JSON, or a marker for an answer too large, streamed or not JSON. */
function responseValue(reply: FastifyReply, payload: unknown): unknown {
  if (payload === null || payload === undefined || reply.statusCode === 204) return null;
  const type = reply.getHeader('content-type');
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? undefined : null;
  if (text === null) return omitted('streamed');
  const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : (payload as Buffer).length;
  if (!isJsonType(typeof type === 'string' ? type : undefined) || text === undefined) return bodySummary(String(type ?? ''), bytes);
  if (bytes > MAX_PARSED_BYTES) return omitted('larger than the audit log keeps', bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return omitted('not JSON', bytes);
  }
}

function isJsonType(type: string | string[] | number | undefined): boolean {
  return typeof type === 'string' && /^application\/([a-z.+-]*\+)?json\b/i.test(type.trim());
}

/**
 * Who made the change: the request's principal; on a sign-in or an accepted invitation,
 * which has none yet, the user its answer names (the contract's `{"user", "csrf_token"}`).
 */
function actorOf(principal: AdminPrincipal | undefined, route: string, response: unknown): AuditActor | undefined {
  if (principal?.kind === 'superuser') return { kind: 'superuser' };
  if (principal?.kind === 'user') return { kind: 'user', userId: principal.userId, email: principal.email, via: principal.via };
  if (!CREDENTIAL_ROUTES.test(route) || response === null || typeof response !== 'object') return undefined;
  const user = (response as { user?: unknown }).user;
  if (user === null || typeof user !== 'object') return undefined;
  const { id, email } = user as { id?: unknown; email?: unknown };
  if (typeof id !== 'number' || typeof email !== 'string') return undefined;
  return { kind: 'user', userId: id, email, via: 'session' };
}

/** The shop the change concerns: the path's, or the one a creation answers (POST /shops). */
function shopOf(request: FastifyRequest, response: unknown): string | null {
  const params = request.params as Record<string, unknown> | undefined;
  if (typeof params?.shop_id === 'string') return params.shop_id;
  if (response !== null && typeof response === 'object') {
    const shopId = (response as { shop_id?: unknown }).shop_id;
    if (typeof shopId === 'string') return shopId;
  }
  return null;
}
