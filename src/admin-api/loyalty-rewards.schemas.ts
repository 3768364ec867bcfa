import { Type, type Static } from '@sinclair/typebox';
import { EVENT_CODE_MAX_LENGTH } from '../modules/loyalty/domain/event-rewards.js';
import { CUSTOM_EVENT_CODE_PATTERN } from '../modules/shops/domain/shop.js';
import { ShopIdParam } from './common.schemas.js';

/** admin-api.md, Loyalty programme: `PUT …/loyalty/event-rewards/{event_code}` `{"amount": 100}`. */

const EventCode = Type.String({
  minLength: 1,
  maxLength: EVENT_CODE_MAX_LENGTH,
  pattern: CUSTOM_EVENT_CODE_PATTERN.source,
  description: 'A custom event code, as clients send it as `event` to POST /push/custom.',
  examples: ['subscribed_newsletter'],
});

export const EventRewardParamsSchema = Type.Object({ shop_id: ShopIdParam, event_code: EventCode });
export type EventRewardParams = Static<typeof EventRewardParamsSchema>;

export const PutEventRewardBodySchema = Type.Object(
  {
    amount: Type.Number({
      description: 'Bonuses a member earns the first time it sends the event: greater than 0, two decimals at most.',
    }),
  },
  { additionalProperties: false },
);
export type PutEventRewardBody = Static<typeof PutEventRewardBodySchema>;

export const EventRewardSchema = Type.Object(
  {
    event_code: Type.String(),
    amount: Type.Number({ description: 'Bonuses the first event with this code earns a member.' }),
  },
  { description: 'An event reward rule.' },
);
export type EventRewardBody = Static<typeof EventRewardSchema>;

export const EventRewardListSchema = Type.Object(
  { event_rewards: Type.Array(EventRewardSchema, { description: 'By code, at most 1000.' }) },
  { description: 'The event reward rules of the shop.' },
);
export type EventRewardListBody = Static<typeof EventRewardListSchema>;
