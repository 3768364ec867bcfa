import crypto from 'node:crypto';
import type { onRequestHookHandler } from 'fastify';
import { constantTimeEqual } from '../constant-time.js';
import { schemeCredential } from '../http/authorization.js';
import { errorBody } from '../http/envelopes.js';
import { NO_ENDPOINT_MESSAGE } from '../http/not-found.plugin.js';
import { inAnyRange, parseAddressRange, type AddressRange } from '../net/ip-ranges.js';

/**
 * Who may read /metrics (README, "Operations"). Its series tell request rates per route,
 * queue depths and what the limits refused: nothing for the open internet. Without
 * PATRON_METRICS_TOKEN only a client on the machine itself is served, and any other
 * is answered as a path that does not exist; with the token, whoever presents it as
 * `Authorization: Bearer <token>` is served, from any address, and no one else is.
 *
 * The client is `request.ip`: behind a proxy listed in PATRON_TRUST_PROXY, the address
 * the proxy forwards. A proxy on the same machine therefore does not make every outside
 * scraper look local.
 */
const LOOPBACK: readonly AddressRange[] = ['127.0.0.0/8', '::1'].map((range) => parseAddressRange(range) as AddressRange);
const JSON_UTF8 = 'application/json; charset=utf-8';
const TOKEN_REQUIRED = 'A Bearer token is required to read the metrics.';

export function metricsAccessHook(token: string | undefined): onRequestHookHandler {
  // Digests of equal length, so that the comparison tells nothing of the token's length.
  const expected = token === undefined ? undefined : digest(token);
  return (request, reply, done) => {
    if (expected === undefined) {
      if (inAnyRange(request.ip, LOOPBACK)) done();
      else void reply.code(404).type(JSON_UTF8).send(errorBody('status', NO_ENDPOINT_MESSAGE));
      return;
    }
    const header = request.headers.authorization;
    const presented = schemeCredential(typeof header === 'string' ? header : undefined, 'Bearer');
    if (presented !== undefined && constantTimeEqual(digest(presented), expected)) {
      done();
      return;
    }
    void reply.code(401).header('www-authenticate', 'Bearer').type(JSON_UTF8).send(errorBody('status', TOKEN_REQUIRED));
  };
}

function digest(text: string): Buffer {
  return crypto.createHash('sha256').update(text, 'utf8').digest();
}
