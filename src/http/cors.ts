import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS for the public API: browser SDKs call /init, /push and /push/custom from the
 * shop's own origin. No cookies or other credentials are involved (shop_id is public by
 * design, and a secret never belongs in a browser), so any origin may read the answers:
 * `Access-Control-Allow-Origin: *`, which browsers refuse to combine with credentials.
 * The admin API is same-origin (its UI is served by Patron) and gets none of this.
 */

export const ALLOW_ANY_ORIGIN = '*';

/** How long a browser may cache a preflight answer: a day, so an SDK preflights rarely. */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/** Headers a browser may ask to send when none are named in the preflight. */
const DEFAULT_ALLOWED_HEADERS = 'Content-Type';

/** Marks a public response as readable by any origin. */
export function allowAnyOrigin(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', ALLOW_ANY_ORIGIN);
}

/**
 * 204 to an OPTIONS request on a path served by `methods`: the CORS preflight (and a
 * plain OPTIONS, which gets the same Allow list). The requested headers are echoed back:
 * every public parameter travels in the URL or the body, so no header grants anything.
 */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply, methods: readonly string[]): void {
  const allowed = [...methods, 'OPTIONS'].join(', ');
  const requestedHeaders = request.headers['access-control-request-headers'];
  void reply
    .code(204)
    .header('allow', allowed)
    .header('access-control-allow-origin', ALLOW_ANY_ORIGIN)
    .header('access-control-allow-methods', allowed)
    .header(
      'access-control-allow-headers',
      typeof requestedHeaders === 'string' && requestedHeaders !== '' ? requestedHeaders : DEFAULT_ALLOWED_HEADERS,
    )
    .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
    .header('vary', 'Access-Control-Request-Headers')
    .send();
}
