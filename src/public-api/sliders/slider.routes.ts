import type { Static } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { statusSuccess } from '../../http/envelopes.js';
import type { RenderedSlider } from '../../modules/sliders/sliders.service.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { INVALID_SLIDER_CODE, toSliderRequest } from './slider.params.js';
import { SLIDER_TAGS, SliderQuerySchema, SliderResponseSchema } from './slider.schemas.js';

type SliderPayload = Static<typeof SliderResponseSchema>['payload'];

/** GET /slider (interface.md endpoint 10): shop_id only, the status envelope. */
export const sliderRoutes: PublicRouteModule = (scope) => {
  const sliders = scope.services.sliders;

  scope.get(
    '/slider',
    {
      config: { envelope: 'status', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: SLIDER_TAGS,
        summary: 'Read the banners of a slider',
        description: 'An unknown code answers 404 with `Invalid slider code`. Errors answer in the status envelope.',
        querystring: SliderQuerySchema,
        response: statusResponses(SliderResponseSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const { code, tags } = toSliderRequest(request.input);
      const slider = await sliders.findSliderForDisplay(shop.shopId, code, tags);
      if (!slider) throw new AppError('NOT_FOUND', INVALID_SLIDER_CODE);
      return statusSuccess({ payload: toSliderPayload(slider) });
    },
  );
};

/** The contract's shape: every slide field a string, `""` where the admin set none. */
function toSliderPayload(slider: RenderedSlider): SliderPayload {
  return {
    properties: { code: slider.code, width: slider.width, height: slider.height },
    slides: slider.slides.map((slide) => ({
      image_url: slide.imageUrl,
      url: slide.url,
      deeplink_ios: slide.deeplinkIos ?? '',
      deeplink_android: slide.deeplinkAndroid ?? '',
      content_type: slide.contentType ?? '',
      content: slide.content ?? '',
      html: slide.html,
    })),
  };
}
