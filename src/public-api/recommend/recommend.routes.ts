import { AppError } from '../../errors.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { popupField } from '../common/popup.js';
import { readRecommendParams } from './recommend.params.js';
import { recommendedProductJson } from './recommend.mappers.js';
import { RECOMMEND_TAGS, RecommendParamsSchema, RecommendQuerySchema, RecommendResponses } from './recommend.schemas.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * GET /recommend/{code} (contract-notes "Beyond interface.md"): a recommendation block's
 * products for the visitor and the product in view. Bare; errors in the status envelope.
 * Decisions: docs/recommendations.md "GET /recommend".
 */
export const recommendRoutes: PublicRouteModule = (scope) => {
  const { recommend, products } = scope.services;

  scope.get(
    '/recommend/:code',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: RECOMMEND_TAGS,
        summary: 'A recommendation block’s products',
        description:
          'The block’s rules, asked for this visitor (`did`) and product (`item`), answer offer ids, or product objects with `extended`. ' +
          'Never the product in view, the cart, what the visitor bought in the last 30 days, or a product the storefront cannot show.',
        params: RecommendParamsSchema,
        querystring: RecommendQuerySchema,
        response: RecommendResponses,
      },
    },
    async (request, reply) => {
      const shop = authenticatedShop(request);
      const code = (request.params as { code?: unknown }).code;
      const params = readRecommendParams(typeof code === 'string' ? code : '', request.input);
      const found = await recommend.recommend(shop, params);
      const popup = await popupField(request);
      if (!params.extended) return { id: found.block.id, title: found.block.title, html: '', recommends: found.ids, ...popup };
      // The products' JSON text is spliced in as made (recommendedProductJson), the answer's
      // bytes those of JSON.stringify of the same object.
      const recommends = (await Promise.all(found.ids.map((id) => productOrNothing(products.productJson(shop, id))))).flatMap((json) =>
        json === undefined ? [] : [recommendedProductJson(json, found.block.code, params.resizeImage)],
      );
      const head = `{"id":${JSON.stringify(found.block.id)},"title":${JSON.stringify(found.block.title)},"html":"","recommends":[`;
      const tail = popup.popup ? `,"popup":${JSON.stringify(popup.popup)}` : '';
      return reply.type(JSON_UTF8).send(Buffer.from(`${head}${recommends.join(',')}]${tail}}`));
    },
  );
};

/** A product that left the served catalog after the block was assembled is left out, not an error. */
async function productOrNothing(read: Promise<Buffer>): Promise<Buffer | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}
