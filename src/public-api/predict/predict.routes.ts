import { authenticatedShop, hasShopSecret } from '../auth.js';
import { readCustomer } from '../common/identity.params.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import type { PublicRouteModule } from '../types.js';
import { PREDICT_TAGS, PredictQuerySchema, PredictResponseSchema } from './predict.schemas.js';

/**
 * GET /predict/probability-to-purchase (contract-notes, "Beyond interface.md"; issue 37
 * part 5; docs/recommendations.md "Purchase prediction"): the bare
 * `{"probability", "client_id"}` the three SDKs parse, and the status envelope for every
 * error. The customer is the device's (`did`, as every SDK sends it); identifiers alone
 * name a customer only for a caller holding the shop's secret, as on GET /profile, since
 * an answer about a stranger's email would tell whether they shop here.
 */
export const predictRoutes: PublicRouteModule = (scope) => {
  const predictor = scope.services.purchasePredictor;

  scope.get(
    '/predict/probability-to-purchase',
    {
      validatorCompiler: noSchemaValidation,
      config: { envelope: 'bare', auth: 'shop' },
      schema: {
        tags: PREDICT_TAGS,
        summary: 'The chance that the customer buys in the next 30 days',
        description:
          "The shop's purchase model (rebuilt daily with the recommendations) applied to the customer's orders, views and " +
          'carts as they stand now; before a model can be trained, the share of recently active customers who bought. ' +
          'With `did`, the device’s customer (identifiers given beside it are checked but do not change whom); without, ' +
          'the customer holding the identifiers, which needs `shop_secret`. An unknown device or customer is 404.',
        querystring: PredictQuerySchema,
        response: statusResponses(PredictResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const customer = readCustomer(request.input, await hasShopSecret(request));
      const answer = await predictor.probabilityToPurchase(shop.shopId, customer);
      return { probability: answer.probability, client_id: String(answer.profileId) };
    },
  );
};
