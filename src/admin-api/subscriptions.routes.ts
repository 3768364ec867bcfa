import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { integerQueryParameters } from './query-integers.js';
import { fromBenefitBodies, toMemberBody, toPlanBody, toSubscriptionBody } from './subscriptions.mappers.js';
import {
  CreatePlanBodySchema,
  CreateSubscriptionBodySchema,
  ListSubscriptionsQuerySchema,
  MemberListQuerySchema,
  MemberListSchema,
  MemberParamsSchema,
  PatchPlanBodySchema,
  PatchSubscriptionBodySchema,
  PlanListSchema,
  PlanParamsSchema,
  PlanSchema,
  SubscribeBodySchema,
  SubscriptionListSchema,
  SubscriptionMemberSchema,
  SubscriptionParamsSchema,
  SubscriptionSchema,
} from './subscriptions.schemas.js';

const tags = ['subscriptions'];
const DEFAULT_MEMBER_PAGE = 100;

/** admin-api.md, "Paid subscriptions": subscriptions, plans with their benefits, members (docs/subscriptions.md). */
export const subscriptionsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const subscriptions = app.services.subscriptions;
  const members = app.services.subscriptionMembers;

  app.post(
    '/shops/:shop_id/subscriptions',
    {
      schema: {
        tags,
        summary: 'Create a paid subscription',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateSubscriptionBodySchema,
        response: withErrors({ 201: SubscriptionSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const created = await subscriptions.createSubscription(request.params.shop_id, request.body);
      return reply.code(201).send(toSubscriptionBody(created));
    },
  );

  app.get(
    '/shops/:shop_id/subscriptions',
    {
      schema: {
        tags,
        summary: 'List the paid subscriptions by code',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ListSubscriptionsQuerySchema,
        response: withErrors({ 200: SubscriptionListSchema }, [404]),
      },
    },
    async (request) => ({
      subscriptions: (await subscriptions.listSubscriptions(request.params.shop_id, request.query.status)).map(toSubscriptionBody),
    }),
  );

  app.get(
    '/shops/:shop_id/subscriptions/:code',
    {
      schema: {
        tags,
        summary: 'Read a paid subscription',
        security: ADMIN_SECURITY,
        params: SubscriptionParamsSchema,
        response: withErrors({ 200: SubscriptionSchema }, [404]),
      },
    },
    async (request) => toSubscriptionBody(await subscriptions.getSubscription(request.params.shop_id, request.params.code)),
  );

  app.patch(
    '/shops/:shop_id/subscriptions/:code',
    {
      schema: {
        tags,
        summary: 'Rename a paid subscription or change its status (archive)',
        security: ADMIN_SECURITY,
        params: SubscriptionParamsSchema,
        body: PatchSubscriptionBodySchema,
        response: withErrors({ 200: SubscriptionSchema }, [404, 409, 415]),
      },
    },
    async (request) =>
      toSubscriptionBody(await subscriptions.updateSubscription(request.params.shop_id, request.params.code, request.body)),
  );

  app.post(
    '/shops/:shop_id/subscriptions/:code/plans',
    {
      schema: {
        tags,
        summary: 'Create a plan with its benefits',
        security: ADMIN_SECURITY,
        params: SubscriptionParamsSchema,
        body: CreatePlanBodySchema,
        response: withErrors({ 201: PlanSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const plan = await subscriptions.createPlan(request.params.shop_id, request.params.code, {
        code: b.code,
        name: b.name,
        periodDays: b.period_days,
        status: b.status,
        benefits: fromBenefitBodies(b.benefits),
      });
      return reply.code(201).send(toPlanBody(plan));
    },
  );

  app.get(
    '/shops/:shop_id/subscriptions/:code/plans',
    {
      schema: {
        tags,
        summary: "List a subscription's plans by code",
        security: ADMIN_SECURITY,
        params: SubscriptionParamsSchema,
        response: withErrors({ 200: PlanListSchema }, [404]),
      },
    },
    async (request) => ({ plans: (await subscriptions.listPlans(request.params.shop_id, request.params.code)).map(toPlanBody) }),
  );

  app.get(
    '/shops/:shop_id/subscriptions/:code/plans/:plan',
    {
      schema: {
        tags,
        summary: 'Read a plan',
        security: ADMIN_SECURITY,
        params: PlanParamsSchema,
        response: withErrors({ 200: PlanSchema }, [404]),
      },
    },
    async (request) => toPlanBody(await subscriptions.getPlan(request.params.shop_id, request.params.code, request.params.plan)),
  );

  app.patch(
    '/shops/:shop_id/subscriptions/:code/plans/:plan',
    {
      schema: {
        tags,
        summary: 'Change a plan: name, period, status, or its benefits (replaced whole)',
        security: ADMIN_SECURITY,
        params: PlanParamsSchema,
        body: PatchPlanBodySchema,
        response: withErrors({ 200: PlanSchema }, [404, 409, 415]),
      },
    },
    async (request) => {
      const b = request.body;
      const plan = await subscriptions.updatePlan(request.params.shop_id, request.params.code, request.params.plan, {
        ...(b.name !== undefined && { name: b.name }),
        ...(b.period_days !== undefined && { periodDays: b.period_days }),
        ...(b.status !== undefined && { status: b.status }),
        ...(b.benefits !== undefined && { benefits: fromBenefitBodies(b.benefits) }),
      });
      return toPlanBody(plan);
    },
  );

  app.post(
    '/shops/:shop_id/subscriptions/:code/members',
    {
      schema: {
        tags,
        summary: 'Subscribe a loyalty member, or change its plan or paid_till',
        description:
          '201 for a new member; 200 when the member was subscribed already (plan changed or prolonged). The periods keep the first subscription’s day as their anchor.',
        security: ADMIN_SECURITY,
        params: SubscriptionParamsSchema,
        body: SubscribeBodySchema,
        response: withErrors({ 200: SubscriptionMemberSchema, 201: SubscriptionMemberSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const b = request.body;
      const saved = await members.subscribe(request.params.shop_id, request.params.code, {
        identifier: b.identifier,
        plan: b.plan,
        paidTill: b.paid_till,
      });
      return reply.code(saved.created ? 201 : 200).send(toMemberBody(saved));
    },
  );

  app.get(
    '/shops/:shop_id/subscriptions/:code/members',
    {
      schema: {
        tags,
        summary: 'List the members by identifier, a page at a time',
        security: ADMIN_SECURITY,
        params: SubscriptionParamsSchema,
        querystring: MemberListQuerySchema,
        response: withErrors({ 200: MemberListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const page = await members.listMembers(request.params.shop_id, request.params.code, {
        after: request.query.after,
        limit: request.query.limit ?? DEFAULT_MEMBER_PAGE,
      });
      return { members: page.members.map(toMemberBody), next_after: page.nextAfter };
    },
  );

  app.delete(
    '/shops/:shop_id/subscriptions/:code/members/:identifier',
    {
      schema: {
        tags,
        summary: 'The member leaves the subscription',
        security: ADMIN_SECURITY,
        params: MemberParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Left.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await members.leave(request.params.shop_id, request.params.code, request.params.identifier);
      return reply.code(204).send(null);
    },
  );

  done();
};
