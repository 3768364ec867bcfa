import { statusSuccess } from '../../http/envelopes.js';
import type { ProfileSnapshot } from '../../modules/audience/profiles.service.js';
import { authenticatedShop, hasShopSecret } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { readCustomer, readRequiredDid } from '../common/identity.params.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { popupField } from '../common/popup.js';
import { StatusOkSchema, statusResponses } from '../common/envelopes.schemas.js';
import { readDeviceCustomer, readProfileOwner, readPushToken, readSegmentId, readSubscriptionFlags } from './profile.params.js';
import {
  PROFILE_TAGS,
  ProfileQuerySchema,
  ProfileResponseSchema,
  ProfileSetBodySchema,
  ProfileSetResponseSchema,
  PushTokenQuerySchema,
  SegmentChangeBodySchema,
  SegmentListSchema,
  SegmentQuerySchema,
  SubscriptionsManageBodySchema,
} from './profile.schemas.js';

/**
 * The profile group of the public API (issue 12 parts 2, 3 and 5; docs/profiles.md): what
 * the platform's mobile SDK sets and reads about its customer. Each handler reads its
 * parameters with profile.params.ts, calls one ProfilesService function and answers in
 * the envelope the SDK parses: `{"status":"success"}` for writes, the bare profile or
 * segment list for reads, and the status envelope for every error.
 */
export const profileRoutes: PublicRouteModule = (scope) => {
  const profiles = scope.services.profiles;
  const common = { validatorCompiler: noSchemaValidation } as const;

  scope.post(
    '/profile/set',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: PROFILE_TAGS,
        summary: "Set the fields of the device's customer",
        description:
          'Links the identifiers to the device (the device moves to the customer who holds them) and stores the ' +
          'fields as the audience import does. The SDK sends JSON, with `kids` and `auto` as JSON text. Without ' +
          '`did`, a server with `shop_secret` names the customer by identifiers. Keys that are neither profile ' +
          'fields nor custom properties of the shop are left out and named in `payload.ignored_keys`.',
        body: ProfileSetBodySchema,
        response: statusResponses(ProfileSetResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const { ignored } = await profiles.setProfile(shop, readProfileOwner(request.input, await hasShopSecret(request)), request.input);
      const popup = await popupField(request);
      if (ignored.length === 0) return statusSuccess(popup);
      request.log.info(
        { shop_id: shop.shopId, ignored_keys: ignored },
        'profile update ignored keys that are neither profile fields nor custom properties of the shop',
      );
      return statusSuccess({ payload: { ignored_keys: ignored }, ...popup });
    },
  );

  scope.get(
    '/profile',
    {
      ...common,
      config: { envelope: 'bare', auth: 'shop' },
      schema: {
        tags: PROFILE_TAGS,
        summary: "Read the device's customer profile",
        querystring: ProfileQuerySchema,
        response: statusResponses(ProfileResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const full = await hasShopSecret(request);
      const snapshot = await profiles.getProfile(shop.shopId, readDeviceCustomer(request.input, full));
      return toProfileBody(snapshot, full);
    },
  );

  scope.post(
    '/mobile_push_tokens',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: PROFILE_TAGS,
        summary: "Register the device's push token",
        description:
          'The token becomes the push token of the device’s customer (a token another customer had moves). The SDK ' +
          'sends it on every start: a token already stored as it is changes nothing.',
        querystring: PushTokenQuerySchema,
        response: statusResponses(StatusOkSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const did = readRequiredDid(request.input);
      const { token, platform } = readPushToken(request.input);
      await profiles.registerPushToken(shop.shopId, did, token, platform);
      return statusSuccess();
    },
  );

  scope.post(
    '/subscriptions/manage',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: PROFILE_TAGS,
        summary: 'Set email and SMS subscription flags',
        description:
          'Sets the given flags of the customer: the device’s (identifiers given with it are linked to it), or, ' +
          'with `shop_secret`, the customer holding the identifiers (created when nobody does).',
        body: SubscriptionsManageBodySchema,
        response: statusResponses(StatusOkSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const customer = readCustomer(request.input, await hasShopSecret(request));
      await profiles.setSubscriptions(shop.shopId, customer, readSubscriptionFlags(request.input));
      return statusSuccess();
    },
  );

  for (const action of ['add', 'remove'] as const) {
    scope.post(
      `/segments/${action}`,
      {
        ...common,
        config: { envelope: 'status', auth: 'shop' },
        schema: {
          tags: PROFILE_TAGS,
          summary: action === 'add' ? 'Add the customer to a static segment' : 'Remove the customer from a static segment',
          description:
            'The customer is the device’s (identifiers given with it are linked to it), or, with `shop_secret`, the ' +
            'one holding the identifiers. An unknown segment is 404.',
          body: SegmentChangeBodySchema,
          response: statusResponses(StatusOkSchema),
        },
      },
      async (request) => {
        const shop = authenticatedShop(request);
        const customer = readCustomer(request.input, await hasShopSecret(request));
        const segmentId = readSegmentId(request.input);
        if (action === 'add') await profiles.addToSegment(shop.shopId, customer, segmentId);
        else await profiles.removeFromSegment(shop.shopId, customer, segmentId);
        return statusSuccess();
      },
    );
  }

  scope.get(
    '/segments/get',
    {
      ...common,
      config: { envelope: 'bare', auth: 'shop' },
      schema: {
        tags: PROFILE_TAGS,
        summary: "List the customer's segments",
        querystring: SegmentQuerySchema,
        response: statusResponses(SegmentListSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const customer = readCustomer(request.input, await hasShopSecret(request));
      const ids = await profiles.segmentsOf(shop.shopId, customer);
      return ids.map((id) => ({ id, type: 'static' as const }));
    },
  );
};

/** Fields an app may show whoever holds the device; the rest needs the shop's secret. */
function toProfileBody({ profile, attributes, boughtSomething }: ProfileSnapshot, full: boolean): Record<string, unknown> {
  const f = attributes.fields;
  const body: Record<string, unknown> = {
    id: String(profile.id),
    has_email: profile.email !== null,
    gender: f.gender ?? null,
    bought_something: boughtSomething,
    custom_properties: { ...profile.properties },
  };
  if (!full) return body;
  return {
    ...body,
    email: profile.email,
    phone: profile.phone,
    external_id: profile.externalId,
    loyalty_id: profile.loyaltyId,
    telegram_id: profile.telegramId,
    first_name: f.first_name ?? null,
    middle_name: f.middle_name ?? null,
    last_name: f.last_name ?? null,
    birthday: f.birthday ?? null,
    age: f.age ?? null,
    location: f.location ?? null,
    kids: f.kids ?? [],
    auto: f.auto ?? [],
    fb_id: f.fb_id ?? null,
    vk_id: f.vk_id ?? null,
    loyalty_card_location: f.loyalty_card_location ?? null,
    loyalty_status: f.loyalty_status ?? null,
    loyalty_bonuses: f.loyalty_bonuses ?? null,
    loyalty_bonuses_to_next_level: f.loyalty_bonuses_to_next_level ?? null,
  };
}
