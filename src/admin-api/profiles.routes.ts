import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { SUBSCRIPTION_FLAGS, type AudienceFields } from '../modules/audience/domain/record.js';
import type { ProfileView } from '../modules/profile-view/profile-view.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { ProfileListSchema, ProfileQuerySchema, type ProfileBody } from './profiles.schemas.js';

const tags = ['profiles'];

/** admin-api.md, Profiles (read). */
export const profilesRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const profileView = app.services.profileView;

  app.get(
    '/shops/:shop_id/profiles',
    {
      schema: {
        tags,
        summary: 'Look up profiles',
        description:
          'Finds the live profiles holding every given identifier (at least one of email, phone, external_id, ' +
          'loyalty_id, telegram_id, did), with their devices, segments, properties, subscription flags, push ' +
          'tokens, cart and wish list. Identifiers are ' +
          'normalised as everywhere (a phone `8 (912) 345-67-89` finds `79123456789`); an invalid one is a 422 ' +
          'naming it. A merged profile appears only as the profile it merged into.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ProfileQuerySchema,
        response: withErrors({ 200: ProfileListSchema }, [404]),
      },
    },
    async (request) => {
      const { email, phone, external_id, loyalty_id, telegram_id, did } = request.query;
      const profiles = await profileView.findProfiles(request.params.shop_id, {
        email,
        phone,
        externalId: external_id,
        loyaltyId: loyalty_id,
        telegramId: telegram_id,
        did,
      });
      return { profiles: profiles.map(toProfileBody) };
    },
  );

  done();
};

export function toProfileBody(profile: ProfileView): ProfileBody {
  return {
    id: profile.id,
    email: profile.email,
    phone: profile.phone,
    external_id: profile.externalId,
    loyalty_id: profile.loyaltyId,
    telegram_id: profile.telegramId,
    devices: [...profile.devices],
    segments: [...profile.segments],
    properties: { ...profile.properties, ...recordFields(profile.attributes.fields) },
    subscriptions: subscriptionFlags(profile.attributes.fields),
    push_tokens: profile.attributes.pushTokens.map(({ platform, token }) => ({ platform, token })),
    cart: [...profile.cart],
    wish: [...profile.wish],
  };
}

const FLAGS: ReadonlySet<string> = new Set(SUBSCRIPTION_FLAGS);

/** The record fields but the subscription flags (admin-api.md: those are `subscriptions`). */
function recordFields(fields: AudienceFields): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !FLAGS.has(name)));
}

function subscriptionFlags(fields: AudienceFields): ProfileBody['subscriptions'] {
  const flags: Record<string, boolean> = {};
  for (const flag of SUBSCRIPTION_FLAGS) {
    const value = fields[flag];
    if (value !== undefined) flags[flag] = value;
  }
  return flags;
}
