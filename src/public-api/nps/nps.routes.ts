import { Type } from '@sinclair/typebox';
import { statusSuccess } from '../../http/envelopes.js';
import { CATEGORY_TEXTS } from '../../modules/nps/index.js';
import { authenticatedShop, hasShopSecret } from '../auth.js';
import { readCustomer } from '../common/identity.params.js';
import { StatusOkSchema, statusResponses } from '../common/envelopes.schemas.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import type { PublicRouteModule } from '../types.js';
import { readReview } from './nps.params.js';
import { NPS_TAGS, NpsCategoryListSchema, NpsChannelListSchema, NpsCreateSchema, NpsListQuerySchema } from './nps.schemas.js';

/**
 * The NPS calls of the mobile SDKs (contract-notes "Beyond interface.md"; docs/nps.md):
 * POST /nps/create answers `{"status":"success"}`, the lists answer bare arrays, and
 * every error wears the status envelope.
 */
export const npsRoutes: PublicRouteModule = (scope) => {
  const settings = scope.services.npsSettings;
  const reviews = scope.services.npsReviews;
  const common = { validatorCompiler: noSchemaValidation } as const;

  scope.post(
    '/nps/create',
    {
      ...common,
      config: { envelope: 'status', auth: 'shop' },
      schema: {
        tags: NPS_TAGS,
        summary: 'Store a customer’s NPS review',
        description:
          'The review of the device’s customer, or, with `shop_secret`, of the customer holding the identifiers ' +
          '(created when nobody does). An unknown channel or category, or a rate outside 0–10, is 422 and stores ' +
          'nothing. One review per customer, channel, category and order (`order_id`), or per day without an order: ' +
          'a repeated request replaces the first review’s rate and comment instead of counting twice.',
        querystring: Type.Partial(NpsCreateSchema),
        body: NpsCreateSchema,
        response: statusResponses(StatusOkSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const customer = readCustomer(request.input, await hasShopSecret(request));
      await reviews.createReview(shop, customer, readReview(request.input));
      return statusSuccess();
    },
  );

  scope.get(
    '/nps/channels',
    {
      ...common,
      config: { envelope: 'bare', auth: 'shop' },
      schema: {
        tags: NPS_TAGS,
        summary: 'The shop’s NPS channels',
        querystring: NpsListQuerySchema,
        response: statusResponses(NpsChannelListSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      return (await settings.listChannels(shop.shopId)).map((c) => ({ name: c.name, code: c.code }));
    },
  );

  scope.get(
    '/nps/categories',
    {
      ...common,
      config: { envelope: 'bare', auth: 'shop' },
      schema: {
        tags: NPS_TAGS,
        summary: 'The shop’s NPS categories with their questions and thank-you texts',
        description: 'Every text is a string: "" where the shop set none.',
        querystring: NpsListQuerySchema,
        response: statusResponses(NpsCategoryListSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      return (await settings.listCategories(shop.shopId)).map((c) => ({
        name: c.name,
        code: c.code,
        ...Object.fromEntries(CATEGORY_TEXTS.map((field) => [field, c[field] ?? ''])),
      }));
    },
  );
};
