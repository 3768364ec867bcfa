import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { BlockPreview } from '../modules/recommendations/block-preview.service.js';
import { ADMIN_SECURITY, withErrors } from './common.schemas.js';
import { integerQueryParameters } from './query-integers.js';
import { BlockParamsSchema } from './recommendation-blocks.schemas.js';
import { BlockPreviewSchema, PreviewQuerySchema, type BlockPreviewBody } from './recommendation-preview.schemas.js';

/** A block's products for a chosen product and customer, as GET /recommend would answer them (docs/recommendations.md "Preview"). */
export const recommendationPreviewRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const preview = app.services.recommendationPreview;

  app.get(
    '/shops/:shop_id/recommendation-blocks/:code/preview',
    {
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'profile_id', 'limit');
        next();
      },
      schema: {
        tags: ['recommendations'],
        summary: 'Preview a recommendation block',
        description: 'The products GET /recommend/{code} answers for `item` and the customer `profile_id`, with the recommender of each.',
        security: ADMIN_SECURITY,
        params: BlockParamsSchema,
        querystring: PreviewQuerySchema,
        response: withErrors({ 200: BlockPreviewSchema }, [404]),
      },
    },
    async (request) => {
      const { item, profile_id: profileId, limit } = request.query;
      const found = await preview.preview(request.params.shop_id, request.params.code, {
        ...(item !== undefined && { item }),
        ...(profileId !== undefined && { profileId }),
        ...(limit !== undefined && { limit }),
      });
      return toBody(found);
    },
  );

  done();
};

function toBody(preview: BlockPreview): BlockPreviewBody {
  return {
    ...preview.block,
    items: preview.items.map(({ id, recommender, product }) => ({
      id,
      recommender,
      name: product?.name ?? null,
      price_formatted: product?.price_formatted ?? null,
      image_url: product?.image_url ?? null,
      url: product?.url ?? null,
    })),
  };
}
