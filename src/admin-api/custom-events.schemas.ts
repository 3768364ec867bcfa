import { Type, type Static } from '@sinclair/typebox';
import { CUSTOM_EVENT_CODE_PATTERN } from '../modules/shops/domain/shop.js';
import { ShopIdParam } from './common.schemas.js';

const Code = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: CUSTOM_EVENT_CODE_PATTERN.source,
  description: 'The event code clients send as `event` to POST /push/custom.',
  examples: ['subscribed_newsletter'],
});
const Name = Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'Optional display name.' });

export const CustomEventSchema = Type.Object({ code: Code, name: Name }, { description: 'A custom event code.' });
export type CustomEventBody = Static<typeof CustomEventSchema>;

export const CustomEventListSchema = Type.Object(
  { custom_events: Type.Array(CustomEventSchema) },
  { description: 'The custom event codes of the shop, by code.' },
);
export type CustomEventListBody = Static<typeof CustomEventListSchema>;

export const CreateCustomEventBodySchema = Type.Object({ code: Code, name: Type.Optional(Name) }, { additionalProperties: false });
export type CreateCustomEventBody = Static<typeof CreateCustomEventBodySchema>;

export const CustomEventParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  code: Type.String({ description: 'The custom event code.' }),
});
export type CustomEventParams = Static<typeof CustomEventParamsSchema>;
