import { Type } from '@sinclair/typebox';
import type { FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import type { DbHandle } from '../db/create-db.js';
import { metricsAccessHook } from './metrics-access.js';
import {
  createMetrics,
  UNMATCHED_ROUTE,
  type EventCommitSource,
  type JobDepthSource,
  type LimitStatsSource,
  type SettingsListenerSource,
} from './metrics.js';

export interface ObservabilityOptions {
  /** /ready asks this handle whether the database answers; on SQLite its storage timings feed /metrics. */
  readonly db: Pick<DbHandle, 'ping' | 'storage'>;
  /** Source of the `patron_jobs` gauge; the gauge is left out when absent. */
  readonly jobs?: JobDepthSource;
  /** Source of the event group-commit series; left out when absent. */
  readonly events?: EventCommitSource;
  /** Source of the rate-limit and connection-bound series; left out when absent. */
  readonly limits?: LimitStatsSource;
  /** Source of the settings listener series; left out when absent. */
  readonly settings?: SettingsListenerSource;
  /** PATRON_METRICS_TOKEN: who may read /metrics (metrics-access.ts). */
  readonly metricsToken?: string | undefined;
  /** Once the drain before a shutdown has begun, /ready answers 503 without asking the database. */
  readonly drain?: { readonly draining: boolean };
}

const TAGS = ['system'];

const HealthSchema = Type.Object({ status: Type.Literal('ok') });
const ReadySchema = Type.Object({ status: Type.Literal('ready') });
const UnavailableSchema = Type.Object({ status: Type.Literal('unavailable') });

/**
 * Request metrics for every route, and the three routes an orchestrator probes:
 * /health (the process is alive; touches nothing), /ready (the database answers and the
 * process is not draining before a shutdown, so traffic may be sent) and /metrics (Prometheus text format; loopback clients only, or
 * the holders of PATRON_METRICS_TOKEN).
 */
const observability: FastifyPluginCallback<ObservabilityOptions> = (app, options, done) => {
  const metrics = createMetrics({
    jobs: options.jobs,
    events: options.events,
    limits: options.limits,
    settings: options.settings,
    storage: options.db.storage,
  });
  // The database outlives the app in tests (and may in an embedding): stop listening to it.
  app.addHook('onClose', (_instance, hookDone) => {
    metrics.close();
    hookDone();
  });

  // The route pattern, never the raw URL: raw paths carry ids and would give every
  // shop and every scanner's probe its own time series.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.observeRequest({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
  });

  app.get(
    '/health',
    {
      schema: {
        tags: TAGS,
        summary: 'Liveness: the process answers (the database is not consulted)',
        response: { 200: HealthSchema },
      },
    },
    (_request, reply) => reply.send({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: TAGS,
        summary: 'Readiness: the database answers and the process is not shutting down',
        description:
          "With the query parameter `scope=node` (any other value is the default), the database is not asked: the answer is the process's own (serving, not draining). " +
          'A balancer in front of several nodes checks that scope, so that an outage of the shared database leaves ' +
          "the nodes in and clients get each endpoint's own 503 answer rather than the balancer's (docs/scaling.md).",
        response: { 200: ReadySchema, 503: UnavailableSchema },
      },
    },
    async (request, reply) => {
      const ready =
        options.drain?.draining !== true && ((request.query as { scope?: unknown }).scope === 'node' || (await options.db.ping()));
      if (ready) return { status: 'ready' as const };
      return reply.code(503).send({ status: 'unavailable' as const });
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: TAGS,
        summary: 'Prometheus metrics: requests, latency, job queue depth, process',
        description:
          'Without PATRON_METRICS_TOKEN, for clients on loopback only (404 to others); with it, for `Authorization: Bearer <token>` from any address (401 otherwise).',
        response: {
          200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } },
        },
      },
      onRequest: metricsAccessHook(options.metricsToken),
    },
    async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
  done();
};

export const observabilityPlugin = fp(observability, { name: 'patron-observability', fastify: '5.x' });
