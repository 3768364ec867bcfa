import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import type { Chain } from '../modules/chains/chains.service.js';
import {
  ChainListSchema,
  ChainParamsSchema,
  ChainSchema,
  PutChainBodySchema,
  RunsQuerySchema,
  RunsSchema,
  type ChainBody,
} from './chains.schemas.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';

const tags = ['chains'];

/** admin-api.md "Chains and bulk mailings": chains (the fixed core) and their runs. */
export const chainsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const chains = app.services.chains;

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
        summary: 'The runs of a chain for a profile',
        description: 'The runs of the profile the email, phone or did names (newest first, at most 100). An unknown chain is 404.',
        security: ADMIN_SECURITY,
        params: ChainParamsSchema,
        querystring: RunsQuerySchema,
        response: withErrors({ 200: RunsSchema }, [404]),
      },
    },
    async (request) => {
      const { email, phone, did } = request.query;
      if (email === undefined && phone === undefined && did === undefined) {
        throw new AppError('VALIDATION_FAILED', 'One of `email`, `phone`, `did` is required.', { field: 'email,phone,did' });
      }
      const runs = await chains.listRuns(request.params.shop_id, request.params.code, { email, phone, did });
      return {
        runs: runs.map((r) => ({
          id: r.id,
          status: r.status,
          step: r.step,
          started_at: iso(r.startedAt),
          version: r.version,
          due_at: r.dueAt === null ? null : iso(r.dueAt),
          ended_at: r.endedAt === null ? null : iso(r.endedAt),
          reason: r.reason,
        })),
      };
    },
  );

  done();
};

function iso(ms: number): string {
  return new Date(ms).toISOString();
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
