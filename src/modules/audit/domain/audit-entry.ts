import { redact, REDACTED, truncateString } from './redact.js';

/**
 * An audit entry as the module stores and answers it, and the pure steps that build one
 * from what a request carried: who (the actor), which shop, what (method, path, action,
 * status) and the state before and after, redacted and bounded.
 */

export type AuditActor =
  | { readonly kind: 'superuser' }
  | { readonly kind: 'user'; readonly userId: number; readonly email: string; readonly via: 'session' | 'token' | null };

export interface AuditEntryInput {
  /** When it happened (ms since the epoch); the service's clock when left out. */
  readonly at?: number;
  readonly actor: AuditActor;
  readonly shopId?: string | null;
  readonly method: string;
  readonly path: string;
  /** The route pattern; the path when left out (an event recorded outside a route). */
  readonly route?: string;
  readonly action: string;
  readonly status: number;
  /** Any JSON value: redacted and bounded on the way in. */
  readonly before?: unknown;
  readonly after?: unknown;
  readonly ip?: string | null;
}

export interface AuditEntry {
  readonly id: number;
  readonly at: number;
  readonly actor: AuditActor;
  readonly shopId: string | null;
  readonly method: string;
  readonly path: string;
  readonly route: string;
  readonly action: string;
  readonly status: number;
  readonly before: unknown;
  readonly after: unknown;
  readonly ip: string | null;
}

/** The stored JSON of `before` or `after` never passes this many characters. */
export const MAX_STATE_CHARS = 16 * 1024;
/** A path, a route and an action are cut at this length (an URL is bounded by Node's header limit, not by us). */
export const MAX_PATH_CHARS = 2048;
const MAX_ACTION_CHARS = 200;
const MAX_EMAIL_CHARS = 320;
const MAX_IP_CHARS = 100;

/** Route parameters whose values are credentials (an invitation's token in its URL). */
const SECRET_PARAMS = /^:(token|secret|key|password)$/i;

/**
 * JSON text of a value, redacted, and at most `max` characters: a value whose JSON is
 * longer is kept as a marker with its size and the beginning of its text, so that the
 * entry stays readable and bounded. null for no value.
 */
export function boundedJson(value: unknown, max = MAX_STATE_CHARS): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(redact(value));
  if (text === undefined) return null;
  if (text.length <= max) return text;
  // The preview is JSON inside JSON: its quotes and backslashes are escaped again, so it
  // is shortened by what the escaping added until the whole fits.
  let keep = max - 100;
  for (;;) {
    const marker = JSON.stringify({ $truncated: { chars: text.length }, preview: text.slice(0, keep) });
    if (marker.length <= max) return marker;
    keep -= marker.length - max;
  }
}

/** What an upload or another body that is not JSON is recorded as: its type and size, never its bytes. */
export function bodySummary(
  contentType: string | undefined,
  bytes: number | undefined,
): { content_type: string | null; bytes: number | null } {
  return { content_type: contentType ? contentType.slice(0, 200) : null, bytes: bytes ?? null };
}

/** A marker in place of a state that was not kept, saying why. */
export function omitted(reason: string, bytes?: number): { $omitted: string; bytes?: number } {
  return bytes === undefined ? { $omitted: reason } : { $omitted: reason, bytes };
}

/**
 * The path as recorded: without its query, with the values of credential parameters
 * (`/invitations/:token`) replaced, and bounded.
 */
export function recordedPath(url: string, pattern: string | undefined): string {
  const path = url.split('?', 1)[0] ?? '';
  if (pattern === undefined || !/\/:/.test(pattern)) return bounded(path, MAX_PATH_CHARS);
  const patternSegments = pattern.split('/');
  const pathSegments = path.split('/');
  if (patternSegments.length !== pathSegments.length) return bounded(path, MAX_PATH_CHARS);
  const out = pathSegments.map((segment, i) => (SECRET_PARAMS.test(patternSegments[i] ?? '') ? REDACTED : segment));
  return bounded(out.join('/'), MAX_PATH_CHARS);
}

/** The columns of an entry, bounded, from what a caller gives. */
export function entryColumns(input: AuditEntryInput, now: number) {
  const actor = input.actor;
  return {
    at: input.at ?? now,
    shop_id: input.shopId ?? null,
    actor_kind: actor.kind,
    actor_user_id: actor.kind === 'user' ? actor.userId : null,
    actor_email: actor.kind === 'user' ? bounded(actor.email, MAX_EMAIL_CHARS) : null,
    actor_via: actor.kind === 'user' ? actor.via : null,
    method: bounded(input.method, 10),
    path: bounded(input.path, MAX_PATH_CHARS),
    route: bounded(input.route ?? input.path, MAX_PATH_CHARS),
    action: bounded(input.action, MAX_ACTION_CHARS),
    status: input.status,
    before: boundedJson(input.before),
    after: boundedJson(input.after),
    ip: input.ip ? bounded(input.ip, MAX_IP_CHARS) : null,
  };
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : truncateString(text, max);
}
