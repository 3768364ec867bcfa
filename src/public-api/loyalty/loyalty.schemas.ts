// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { StatusSuccessSchema } from '../../http/envelopes.js';
import { ShopIdSchema } from '../common/common.schemas.js';
import { IDENTIFIER_MAX_LENGTH } from './loyalty.params.js';

/**
 * The OpenAPI description of the public loyalty calls. As for the other public groups,
 * these schemas document and do not validate: loyalty.params.ts keeps the contract's
 * order of checks (shop, did, then fields).
 */

export const LOYALTY_TAGS = ['loyalty'];

const Did = Type.String({ description: 'Device id, as /init issued it.' });
const Session = {
  sid: Type.Optional(Type.String({ description: 'Session id (accepted, not used).' })),
  seance: Type.Optional(Type.String({ description: 'Legacy alias of `sid` (accepted, not used).' })),
  stream: Type.Optional(Type.String({ description: 'Client platform (accepted, not used).' })),
};

export const StatusQuerySchema = Type.Object({
  shop_id: ShopIdSchema,
  identifier: Type.Optional(
    Type.String({ maxLength: IDENTIFIER_MAX_LENGTH, description: "The member's phone (any usual spelling), else its loyalty_id." }),
  ),
  phone: Type.Optional(Type.String({ description: 'Read when `identifier` is absent: the member holding this phone.' })),
  loyalty_id: Type.Optional(Type.String({ description: 'Read when `identifier` and `phone` are absent.' })),
  email: Type.Optional(Type.String({ description: 'Read when `identifier`, `phone` and `loyalty_id` are absent.' })),
  did: Type.Optional(Did),
  ...Session,
});

export const JoinBodySchema = Type.Object({
  shop_id: ShopIdSchema,
  did: Type.Optional(Did),
  shop_secret: Type.Optional(Type.String({ description: 'The shop secret: needed to join by identifiers without a device.' })),
  phone: Type.Optional(Type.String({ description: 'Phone, in any usual spelling (normalised to 7XXXXXXXXXX).' })),
  loyalty_id: Type.Optional(Type.String({ description: 'Loyalty card or member id.' })),
  email: Type.Optional(Type.String({ description: 'Email, linked to the profile.' })),
  external_id: Type.Optional(Type.String({ description: "The shop's own customer id." })),
  first_name: Type.Optional(Type.String({ description: 'Stored on the profile as POST /profile/set stores it.' })),
  last_name: Type.Optional(Type.String({ description: 'Stored on the profile as POST /profile/set stores it.' })),
  referrer_code: Type.Optional(
    Type.String({ maxLength: 32, description: 'The referral code of the member who brought this customer; unknown: 422.' }),
  ),
  ...Session,
});

const LevelSchema = Type.Union(
  [
    Type.Object({
      name: Type.String({ description: "The level's name." }),
      code: Type.String({ description: "The level's code." }),
      expiration_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
        description: "YYYY-MM-DD in the shop's timezone: the day the level drops if the member buys nothing more; null: never.",
      }),
    }),
    Type.Null(),
  ],
  { description: 'The member level: null for a member below the lowest level, and for a non-member (docs/loyalty.md "Levels").' },
);

export const MemberStatusSchema = StatusSuccessSchema({
  payload: Type.Object({
    member: Type.Boolean({ description: 'Whether the customer is a member of the programme.' }),
    level: LevelSchema,
  }),
});
