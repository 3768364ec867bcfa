import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminApiPlugin } from './admin-api/plugin.js';
import { adminUiPlugin } from './admin-ui/admin-ui.plugin.js';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { DbHandle } from './db/create-db.js';
import { openapiPlugin } from './docs/openapi.plugin.js';
import { applyConnectionLimits, connectionServerOptions } from './http/connection-limits.js';
import { closeConnectionsWhileDraining, DrainState } from './http/draining.js';
import { RateLimiter } from './http/limits/rate-limiter.js';
import { observabilityPlugin } from './observability/observability.plugin.js';
import { answerFrameworkError, collectRouteEnvelopes, notFoundPlugin } from './http/not-found.plugin.js';
import { publicApiPlugin } from './public-api/plugin.js';
import { PUBLIC_ROUTES } from './public-api/routes.js';
import { imagesPlugin } from './public-api/images/images.plugin.js';
import { walletWebServicePlugin } from './public-api/wallet/wallet.plugin.js';
import { messagingLinksPlugin } from './public-api/messaging/links.plugin.js';
import { messagingWebhooksPlugin } from './public-api/messaging/webhooks.plugin.js';
import { createServices, type Services } from './services.js';

export interface AppDeps {
  readonly config: Config;
  readonly db: DbHandle;
  readonly clock: Clock;
  /** Pino options or `false`; tests pass `false`. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Told of every route as it is registered (the input fuzz test enumerates the app with it). */
  readonly onRoute?: (route: RouteOptions) => void;
  /** The built admin UI (index.html, assets/); web/dist by default. Tests pass their own. */
  readonly adminUiDir?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly services: Services;
    /** The injected clock, for scopes that validate times against now (POST /push/custom `time`). */
    readonly clock: Clock;
    /** Per-address, per-shop and failed-credential limits of this process (docs/limits.md). */
    readonly limits: RateLimiter;
    /** The drain before a shutdown (http/draining.ts): begun by the process on SIGTERM/SIGINT. */
    readonly drain: DrainState;
  }
}

export type PatronApp = FastifyInstance;

/**
 * Builds the whole HTTP application. Every scope and module is registered here, in one
 * explicit list, so that reading this function tells what the server serves.
 */
export async function buildApp(deps: AppDeps): Promise<PatronApp> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: deps.config.bodyLimit,
    // Public clients send bracketed and repeated keys; query parsing is ours (http/params).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: true,
    // Slow clients and open connections (http/connection-limits.ts, docs/limits.md).
    ...connectionServerOptions(deps.config.connections),
    // The client address limits are keyed by: X-Forwarded-For only from configured proxies.
    trustProxy: deps.config.trustProxy === false ? false : [...deps.config.trustProxy],
    // A path the router cannot decode: a sentence of ours in the scope's envelope.
    frameworkErrors: answerFrameworkError,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  // The envelope each public path declares, for the 405 of a wrong method (notFoundPlugin).
  const envelopes = collectRouteEnvelopes(app);

  const services = createServices(deps);
  app.decorate('services', services);
  app.decorate('clock', deps.clock);
  const limits = new RateLimiter(deps.config.rateLimit, deps.clock);
  app.decorate('limits', limits);
  const connections = applyConnectionLimits(app, deps.config.connections);
  const drain = new DrainState();
  app.decorate('drain', drain);
  closeConnectionsWhileDraining(app, drain);
  // Messaging vendors hold pooled connections (SMTP pools, HTTP/2 sessions): closed with the app.
  app.addHook('onClose', () => services.messagingProviders.close());
  // The template renderer's render thread (modules/messaging/render-pool.ts).
  app.addHook('onClose', () => services.templateRenderer.close());
  // Webhook topics are answered synchronously from memory: read them before the first request,
  // so that events of a fresh process reach the endpoints they are meant for.
  app.addHook('onReady', () => services.webhooks.topics.warmUp());

  // --- scopes, in order -----------------------------------------------------------
  // 1. OpenAPI document and /docs (first, so that it sees every route registered after it)
  await app.register(openapiPlugin);
  // 2. observability: request metrics hook, /health, /ready, /metrics
  await app.register(observabilityPlugin, {
    db: deps.db,
    jobs: services.jobs,
    events: services.tracking,
    limits: { rateLimits: limits, connections },
    // PostgreSQL: whether this process hears the admin changes of the others (SQLite has no such series).
    ...(services.settingsNotifications.listens && { settings: services.settingsNotifications }),
    metricsToken: deps.config.metricsToken,
    drain,
  });
  // 3. admin scope under /admin/v1
  await app.register(adminApiPlugin, { prefix: '/admin/v1' });
  // 3b. the admin web app under /admin/ (web/dist: index.html for its paths, hashed assets)
  await app.register(adminUiPlugin, deps.adminUiDir === undefined ? {} : { dir: deps.adminUiDir });
  // 4. public scope (interface.md)
  await app.register(publicApiPlugin, { routes: PUBLIC_ROUTES });
  // 4b. product thumbnails under /images/ (files; no envelopes or credentials)
  await app.register(imagesPlugin);
  // 4c. the PassKit web service under /wallet/ (Apple's protocol: its own paths, statuses and credential)
  await app.register(walletWebServicePlugin);
  // 4d. the links in sent emails under /m/ (open pixel, click redirect, unsubscribe; no credentials, plain answers)
  await app.register(messagingLinksPlugin);
  // 4e. bounce and complaint webhooks under /webhooks/messaging/ (the shop's derived webhook secret)
  await app.register(messagingWebhooksPlugin);
  // 5. unknown routes (404) and wrong methods (405), in the envelope of the path's scope
  await app.register(notFoundPlugin, { envelopes });

  // Callers add nothing after this; main listens, tests inject (both call ready()).
  return app;
}
