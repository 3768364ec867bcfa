import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { toUnits } from '../modules/loyalty/domain/amount.js';
import type { EventRewardRule } from '../modules/loyalty/loyalty-rewards.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { amountFromUnits } from './loyalty.routes.js';
import {
  EventRewardListSchema,
  EventRewardParamsSchema,
  EventRewardSchema,
  PutEventRewardBodySchema,
  type EventRewardBody,
} from './loyalty-rewards.schemas.js';

const tags = ['loyalty'];

/**
 * admin-api.md, Loyalty programme: event rewards. A custom event with a rewarded code
 * credits the member once (per member and code); PATCH /loyalty/bonuses/cancel takes the
 * reward back (docs/loyalty.md, "Event rewards").
 */
export const loyaltyRewardsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const rewards = app.services.loyaltyRewards;

  app.put(
    '/shops/:shop_id/loyalty/event-rewards/:event_code',
    {
      schema: {
        tags,
        summary: 'Reward members for a custom event, once per member',
        description:
          'Creates or replaces the rule. A member sending POST /push/custom with this code is credited the amount ' +
          'once, pending for `reward_pending_days` when the programme has them. The code need not be created as a ' +
          'custom event yet, but POST /push/custom accepts only created codes.',
        security: ADMIN_SECURITY,
        params: EventRewardParamsSchema,
        body: PutEventRewardBodySchema,
        response: withErrors({ 200: EventRewardSchema }, [404, 415]),
      },
    },
    async (request) => {
      const { shop_id: shopId, event_code: eventCode } = request.params;
      return toRuleBody(await rewards.putRule(shopId, eventCode, amountFromUnits(request.body.amount)));
    },
  );

  app.get(
    '/shops/:shop_id/loyalty/event-rewards',
    {
      schema: {
        tags,
        summary: 'List event rewards',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: EventRewardListSchema }, [404]),
      },
    },
    async (request) => ({ event_rewards: (await rewards.listRules(request.params.shop_id)).map(toRuleBody) }),
  );

  app.get(
    '/shops/:shop_id/loyalty/event-rewards/:event_code',
    {
      schema: {
        tags,
        summary: 'Read an event reward',
        security: ADMIN_SECURITY,
        params: EventRewardParamsSchema,
        response: withErrors({ 200: EventRewardSchema }, [404]),
      },
    },
    async (request) => toRuleBody(await rewards.getRule(request.params.shop_id, request.params.event_code)),
  );

  app.delete(
    '/shops/:shop_id/loyalty/event-rewards/:event_code',
    {
      schema: {
        tags,
        summary: 'Remove an event reward',
        description: 'Events handled from then on earn nothing; rewards already given stay, and can still be cancelled.',
        security: ADMIN_SECURITY,
        params: EventRewardParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Removed.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await rewards.deleteRule(request.params.shop_id, request.params.event_code);
      return reply.code(204).send(null);
    },
  );

  done();
};

function toRuleBody(rule: EventRewardRule): EventRewardBody {
  return { event_code: rule.eventCode, amount: toUnits(rule.amount) };
}
