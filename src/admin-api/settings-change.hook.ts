import type { FastifyInstance, onSendAsyncHookHandler } from 'fastify';

/**
 * Admin writes of a shop's data rather than its settings: no process caches what they
 * change, and an integration may send them by the thousand (bonus operations, profile
 * edits, code generation), so they do not make every process drop its caches.
 */
const DATA_WRITES = [
  /\/loyalty\/members(\/|$)/,
  /\/subscriptions\/:code\/members(\/|$)/,
  /\/certificates(\/|$)/,
  /\/certificate-pools(\/|$)/,
  /\/promo-codes(\/|$)/,
  /\/profiles(\/|$)/,
  /\/events(\/|$)/,
  /\/imports(\/|$)/,
  /\/feed(\/|$)/,
  /\/orders(\/|$)/,
  /\/wallet\/passes$/,
  /\/mailings\/transactional\/:code\/(preview|test)$/,
  // The template editor previews as its user types: no cache holds what a preview or a test send writes.
  /\/templates\/(preview|test)$/,
  /\/secret$/,
];

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for a route that writes a shop's data rather than its settings (the audit log reads no `before` for them either). */
export function isDataWrite(route: string): boolean {
  return DATA_WRITES.some((pattern) => pattern.test(route));
}

/**
 * An admin change applies at once, in every thread and process (docs/settings-caches.md):
 * after a successful write of settings, and before its answer leaves, the settings
 * version is replaced, so that the caches of this thread are dropped now and those of
 * the others at their next check.
 */
export function settingsChangeHook(app: FastifyInstance): onSendAsyncHookHandler {
  return async (request, reply, payload) => {
    if (!WRITES.has(request.method) || reply.statusCode >= 300) return payload;
    const route = request.routeOptions.url ?? '';
    if (isDataWrite(route)) return payload;
    await app.services.settings.bump();
    return payload;
  };
}
