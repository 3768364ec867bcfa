import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { Chain, ChainRun } from '../modules/chains/chains.service.js';
import {
  ChainListSchema,
  ChainParamsSchema,
  ChainSchema,
  ChainStatsSchema,
  PutChainBodySchema,
  RunsQuerySchema,
  RunsSchema,
  StatsQuerySchema,
  type ChainBody,
} from './chains.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { cursorKey, encodeCursor } from './paging.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['chains'];

/** admin-api.md "Chains and bulk mailings": chains (the fixed core) and their runs. */
export const chainsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { chains, chainReports } = app.services;

  app.put(
    '/shops/:shop_id/chains/:code',
    {
      schema: {
        tags,
        summary: 'Create a chain or write its next version',
        description:
          'Refused (422, naming the step) with more than 50 steps, a wait over 366 days, an unknown shape, a send without templates or a template that does not parse.',
        security: ADMIN_SECURITY,
        params: ChainParamsSchema,
        body: PutChainBodySchema,
        response: withErrors({ 200: ChainSchema }, [404, 413, 415]),
      },
    },
    async (request) => {
      const { name, status, trigger, reentry, reentry_period_seconds, steps } = request.body;
      const chain = await chains.putChain(request.params.shop_id, request.params.code, {
        ...(name !== undefined && { name }),
        status,
        trigger,
        reentry,
        ...(reentry_period_seconds !== undefined && { reentryPeriodSeconds: reentry_period_seconds }),
        steps,
      });
      return toChainBody(chain);
    },
  );

  app.get(
    '/shops/:shop_id/chains/:code',
    {
      schema: {
        tags,
        summary: 'A chain',
        security: ADMIN_SECURITY,
        params: ChainParamsSchema,
        response: withErrors({ 200: ChainSchema }, [404]),
      },
    },
    async (request) => toChainBody(await chains.getChain(request.params.shop_id, request.params.code)),
  );

  app.get(
    '/shops/:shop_id/chains',
    {
      schema: {
        tags,
        summary: 'The chains of the shop',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: ChainListSchema }, [404]),
      },
    },
    async (request) => ({ chains: (await chains.listChains(request.params.shop_id)).map(toChainBody) }),
  );

  app.get(
    '/shops/:shop_id/chains/:code/runs',
    {
      schema: {
        tags,
        summary: 'The runs of a chain',
        description:
          'With `email`, `phone` or `did`: the runs of that profile (newest first, at most 100). Without: every run of the ' +
          'chain, newest first, `limit` at a time; `next_cursor` gives the next page. An unknown chain is 404.',
        security: ADMIN_SECURITY,
        params: ChainParamsSchema,
        querystring: RunsQuerySchema,
        response: withErrors({ 200: RunsSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const { email, phone, did, limit, cursor } = request.query;
      const { shop_id: shopId, code } = request.params;
      if (email === undefined && phone === undefined && did === undefined) {
        const before = cursorKey(cursor, ['integer'] as const)?.[0] ?? null;
        const page = await chainReports.runsPage(shopId, code, before, limit ?? 50);
        return { runs: page.runs.map(toRunBody), next_cursor: page.nextBefore === null ? null : encodeCursor([page.nextBefore]) };
      }
      return { runs: (await chains.listRuns(shopId, code, { email, phone, did })).map(toRunBody) };
    },
  );

  app.get(
    '/shops/:shop_id/chains/:code/stats',
    {
      schema: {
        tags,
        summary: "A chain's statistics per step",
        description:
          'For each step of a version (the current one unless `version`): runs that entered it, wait at it now, exited or ' +
          'ended done there; for send steps the deliveries sent, opened and clicked. 404 for an unknown chain or version.',
        security: ADMIN_SECURITY,
        params: ChainParamsSchema,
        querystring: StatsQuerySchema,
        response: withErrors({ 200: ChainStatsSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'version');
        next();
      },
    },
    async (request) => {
      const stats = await chainReports.stats(request.params.shop_id, request.params.code, request.query.version);
      return { version: stats.version, current_version: stats.currentVersion, steps: [...stats.steps] };
    },
  );

  done();
};

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toRunBody(r: ChainRun) {
  return {
    id: r.id,
    status: r.status,
    step: r.step,
    started_at: iso(r.startedAt),
    version: r.version,
    due_at: r.dueAt === null ? null : iso(r.dueAt),
    ended_at: r.endedAt === null ? null : iso(r.endedAt),
    reason: r.reason,
    profile_id: r.profileId,
  };
}

function toChainBody(chain: Chain): ChainBody {
  return {
    id: chain.id,
    code: chain.code,
    name: chain.name,
    status: chain.status,
    trigger: chain.trigger,
    reentry: chain.reentry,
    reentry_period_seconds: chain.reentryPeriodSeconds,
    version: chain.version,
    steps: [...chain.steps],
    created_at: iso(chain.createdAt),
    updated_at: iso(chain.updatedAt),
  };
}
