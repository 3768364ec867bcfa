import type { FastifyError, FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { answerPreflight } from './cors.js';
import { describeError } from './http-errors.js';
import { errorBody, type EnvelopeFamily } from './envelopes.js';
import { isLinkPath, sendLinkNotFound } from './link-paths.js';

/**
 * Unknown routes (404) and wrong methods (405 with `Allow`), in the envelope of the
 * path's scope: the admin error object under /admin/, the status envelope elsewhere
 * (contract-notes, "Secrets and errors"). Fastify answers a wrong method with 404, so
 * the handler asks the router whether another method serves the same path; the router
 * matches concrete paths against every route, `:params` included, whenever it was
 * registered. Route version/host constraints are not considered. OPTIONS on a known
 * path outside /admin/ is a CORS preflight (204, http/cors.ts), not a wrong method.
 * Under /m/ (the links of sent emails, http/link-paths.ts) every refusal is the bare 404.
 *
 * Registered as its own encapsulated plugin so that the 404 context has its own body
 * handling: the body of an unknown route is never parsed (a 404 is the answer whatever
 * its content type), and its own error handler.
 */

const JSON_UTF8 = 'application/json; charset=utf-8';

/** The answer's message for a path no route serves (and for one that hides from a caller, /metrics). */
export const NO_ENDPOINT_MESSAGE = 'No endpoint exists at this path.';

/**
 * The envelope family each static public path declares in its route config, gathered as
 * routes are registered (Fastify's findRoute does not expose a route's config): a wrong
 * method on a success-envelope endpoint is answered `success: false`, as its other
 * refusals are. Paths with parameters keep the status envelope, which is theirs.
 */
export function collectRouteEnvelopes(app: FastifyInstance): ReadonlyMap<string, EnvelopeFamily> {
  const envelopes = new Map<string, EnvelopeFamily>();
  app.addHook('onRoute', (route) => {
    const envelope = route.config?.envelope;
    if (envelope !== undefined && !/[:*]/.test(route.url)) envelopes.set(route.url, envelope);
  });
  return envelopes;
}

export interface NotFoundOptions {
  readonly envelopes?: ReadonlyMap<string, EnvelopeFamily>;
}

export const notFoundPlugin: FastifyPluginCallback<NotFoundOptions> = (scope, options, done) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const view = describeError(error);
    if (view.internal) request.log.error({ err: error }, 'request failed');
    sendError(request, reply, view.status, view.code, view.message);
  });

  scope.setNotFoundHandler((request, reply) => {
    if (isLinkPath(request.url)) {
      sendLinkNotFound(reply);
      return;
    }
    const allowed = scope.supportedMethods.filter(
      (method) => method !== request.method && scope.findRoute({ method, url: request.url }) !== null,
    );
    if (allowed.length === 0) {
      sendError(request, reply, 404, 'NOT_FOUND', NO_ENDPOINT_MESSAGE);
      return;
    }
    // Browser SDKs preflight their cross-origin calls (http/cors.ts); the admin API is same-origin.
    if (request.method === 'OPTIONS' && !isAdminPath(request.url)) {
      answerPreflight(request, reply, allowed);
      return;
    }
    reply.header('allow', allowed.join(', '));
    const path = (request.url.split('?', 1)[0] ?? '').replace(/(.)\/+$/, '$1');
    const envelope = options.envelopes?.get(path) ?? 'status';
    sendError(request, reply, 405, 'METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed for this endpoint.`, envelope);
  });
  done();
};

/**
 * Fastify's `frameworkErrors`: a path the router cannot decode (a percent-escape that is
 * not UTF-8, the text rule of http/text-rule.ts) or a path segment longer than the
 * router's limit. Fastify's own answer echoes the path and names its error code; this
 * one is a sentence of ours in the envelope of the path's scope.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The request path is not valid: a percent-escape in it does not spell UTF-8 text.'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A segment of the request path is too long.'
        : 'The request could not be routed.';
  if (error.code !== 'FST_ERR_BAD_URL' && error.code !== 'FST_ERR_MAX_PARAM_LENGTH') {
    request.log.error({ err: error }, 'request could not be routed');
  }
  sendError(request, reply, 400, 'BAD_REQUEST', message);
}

export function isAdminPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/admin' || path.startsWith('/admin/');
}

function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  envelope: EnvelopeFamily = 'status',
): void {
  if (isLinkPath(request.url) && status < 500 && status !== 429) {
    sendLinkNotFound(reply);
    return;
  }
  const body = isAdminPath(request.url) ? { error: { code, message } } : errorBody(envelope, message);
  void reply.code(status).type(JSON_UTF8).send(body);
}
