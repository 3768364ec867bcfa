import { statusSuccess } from '../../http/envelopes.js';
import { authenticatedShop, hasShopSecret } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { readJoinCustomer, readStatusQuery } from './loyalty.params.js';
import { JoinBodySchema, LOYALTY_TAGS, MemberStatusSchema, StatusQuerySchema } from './loyalty.schemas.js';

/**
 * The public loyalty calls the platform's mobile SDK makes with the shop id alone
 * (issue 13 part 2; docs/loyalty.md): the member status and joining the programme. Both
 * answer `{"status":"success","payload":{"member","level"}}`; errors use the status envelope.
 */
export const loyaltyRoutes: PublicRouteModule = (scope) => {
  const loyalty = scope.services.loyaltyPublic;
  const common = { validatorCompiler: noSchemaValidation } as const;

  scope.get(
    '/loyalty/members/status',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: LOYALTY_TAGS,
        summary: 'Whether the customer is a loyalty member, and its level',
        description:
          'With `identifier` (phone, else loyalty_id): that member, 404 `Loyalty program member is not found` when ' +
          'it names none. Without it: the device’s customer, `member: false` when not a member. A given `did` must ' +
          'be known (404 `Device not found`). `level` is the member’s level, null without one.',
        querystring: StatusQuerySchema,
        response: statusResponses(MemberStatusSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const query = readStatusQuery(request.input);
      return statusSuccess({ payload: await loyalty.publicStatus(shop.shopId, query) });
    },
  );

  scope.post(
    '/loyalty/members/join',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: LOYALTY_TAGS,
        summary: "Make the device's customer a loyalty member",
        description:
          'Links the identifiers to the device as tracking does and makes the resolved profile a member; joining ' +
          'again answers the same. A phone or loyalty_id is needed (given, or already on the profile): 422 ' +
          'otherwise. Without `did`, only a caller with `shop_secret` may join by identifiers.',
        body: JoinBodySchema,
        response: statusResponses(MemberStatusSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const customer = readJoinCustomer(request.input, await hasShopSecret(request));
      return statusSuccess({ payload: await loyalty.publicJoin(shop.shopId, customer) });
    },
  );
};
