import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { allowAnyOrigin } from '../http/cors.js';
import { ENVELOPE_FAMILIES, errorBody, successBodyProblem } from '../http/envelopes.js';
import { describeError } from '../http/http-errors.js';
import { checkPathParams, inputFromForm, isPlainObject, mergeInput, type PublicInput } from '../http/input.js';
import { DEFAULT_PARAM_LIMITS, parseQueryString, type ParamLimits } from '../http/params.js';
import { authenticateShop } from './auth.js';
import { readBodyOfGet, readMultipartInput, registerBodyParsers } from './body-parsers.js';
import { PUBLIC_AUTH_MODES, type PublicRouteModule } from './types.js';

/**
 * The public scope (interface.md): its own body parsers, the merged `request.input`,
 * the credential check declared per route, and one error handler that answers in the
 * route's envelope. Route modules are registered in child contexts of this scope, so
 * they inherit all of it.
 *
 * Per request, in the preValidation phase: input (query string, then body on top; every
 * string of it and of the path checked by the text rule of http/text-rule.ts) →
 * credentials (config.auth) → schema validation. So a route's TypeBox schema, if any,
 * runs after the 401/404/403 checks, and routes with a fixed order of checks (POST
 * /push) validate by hand with http/readers. A route's `schema.querystring` or
 * `schema.body` describes the merged input and is validated against it.
 */

export interface PublicApiOptions {
  readonly routes: readonly PublicRouteModule[];
  readonly paramLimits?: ParamLimits;
}

const JSON_UTF8 = 'application/json; charset=utf-8';

export const publicApiPlugin: FastifyPluginAsync<PublicApiOptions> = async (instance, options) => {
  const scope = instance.withTypeProvider<TypeBoxTypeProvider>();
  const limits = options.paramLimits ?? DEFAULT_PARAM_LIMITS;

  // Reference-type decorations must start as null; the hook sets them per request.
  scope.decorateRequest('input', null as unknown as PublicInput);
  scope.decorateRequest('shop', null);

  await registerBodyParsers(scope, limits);

  scope.addHook('onRoute', checkRouteConfig);

  // Browser SDKs read public answers cross-origin, errors included (http/cors.ts). The
  // address limit comes before anything is parsed (docs/limits.md).
  scope.addHook('onRequest', (request, reply, done) => {
    allowAnyOrigin(reply);
    try {
      scope.limits.checkAddress(request.ip);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });

  scope.addHook('preValidation', async (request) => {
    request.input = await readInput(request, limits);
    checkPathParams(request.params);
    await authenticateShop(request);
    const schema = request.routeOptions.schema;
    if (schema?.querystring !== undefined) request.query = request.input;
    if (schema?.body !== undefined) request.body = request.input;
  });

  scope.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode >= 400) return payload;
    const problem = successBodyProblem(request.routeOptions.config.envelope ?? 'status', payload);
    if (problem) throw new Error(`Route ${request.routeOptions.url ?? ''}: ${problem}.`);
    return payload;
  });

  scope.setErrorHandler(handlePublicError);

  for (const routes of options.routes) {
    await scope.register(async (child) => {
      await routes(child.withTypeProvider<TypeBoxTypeProvider>());
    });
  }
};

/** Every public route declares its envelope and its credentials; a missing one fails at start-up. */
function checkRouteConfig(route: RouteOptions): void {
  const config = route.config ?? {};
  const where = `Public route ${String(route.method)} ${route.url}`;
  if (!(ENVELOPE_FAMILIES as readonly unknown[]).includes(config.envelope)) {
    throw new Error(`${where} must declare config.envelope as one of ${ENVELOPE_FAMILIES.join(', ')}.`);
  }
  if (!(PUBLIC_AUTH_MODES as readonly unknown[]).includes(config.auth)) {
    throw new Error(`${where} must declare config.auth as one of ${PUBLIC_AUTH_MODES.join(', ')}.`);
  }
}

async function readInput(request: FastifyRequest, limits: ParamLimits): Promise<PublicInput> {
  const mark = request.url.indexOf('?');
  const query = mark === -1 ? {} : inputFromForm(parseQueryString(request.url.slice(mark + 1), limits));
  let body: PublicInput = {};
  if (request.isMultipart()) body = await readMultipartInput(request, limits);
  else if (isPlainObject(request.body)) body = request.body;
  else if (request.method === 'GET') body = await readBodyOfGet(request, limits);
  return mergeInput(query, body);
}

function handlePublicError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const view = describeError(error);
  if (view.internal) request.log.error({ err: error }, 'public request failed');
  const retryAfter = error instanceof AppError ? error.details?.retryAfterSeconds : view.retryAfterSeconds;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(Math.ceil(retryAfter)));
  void reply
    .code(view.status)
    .type(JSON_UTF8)
    .send(errorBody(request.routeOptions.config.envelope ?? 'status', view.message));
}
