import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { RenderedSlider, SliderInput, SliderSummary } from '../modules/sliders/sliders.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  PutSliderBodySchema,
  SliderListSchema,
  SliderParamsSchema,
  SliderSchema,
  type PutSliderBody,
  type SliderBody,
  type SliderListBody,
} from './sliders.schemas.js';

const tags = ['sliders'];

/** admin-api.md, Sliders: the banner sets GET /slider serves (interface.md endpoint 10). */
export const slidersRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const sliders = app.services.sliders;

  app.put(
    '/shops/:shop_id/sliders/:code',
    {
      schema: {
        tags,
        summary: 'Create or replace a slider',
        description:
          'The slider gets exactly the given size and slides. Answers the slider as GET returns it, with the ' +
          '`html` of each slide rendered by the server.',
        security: ADMIN_SECURITY,
        params: SliderParamsSchema,
        body: PutSliderBodySchema,
        response: withErrors({ 200: SliderSchema }, [404, 413, 415]),
      },
    },
    async (request) => {
      const slider = await sliders.putSlider(request.params.shop_id, request.params.code, toSliderInput(request.body));
      return toSliderBody(slider);
    },
  );

  app.get(
    '/shops/:shop_id/sliders',
    {
      schema: {
        tags,
        summary: 'List sliders',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: SliderListSchema }, [404]),
      },
    },
    async (request) => ({ sliders: (await sliders.listSliders(request.params.shop_id)).map(toSummaryBody) }),
  );

  app.get(
    '/shops/:shop_id/sliders/:code',
    {
      schema: {
        tags,
        summary: 'Get a slider',
        security: ADMIN_SECURITY,
        params: SliderParamsSchema,
        response: withErrors({ 200: SliderSchema }, [404]),
      },
    },
    async (request) => toSliderBody(await sliders.getSlider(request.params.shop_id, request.params.code)),
  );

  app.delete(
    '/shops/:shop_id/sliders/:code',
    {
      schema: {
        tags,
        summary: 'Delete a slider',
        description: 'GET /slider answers `Invalid slider code` for it from then on.',
        security: ADMIN_SECURITY,
        params: SliderParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await sliders.deleteSlider(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  done();
};

function toSliderInput(body: PutSliderBody): SliderInput {
  return {
    width: body.width,
    height: body.height,
    slides: body.slides.map((slide) => ({
      imageUrl: slide.image_url,
      url: slide.url,
      deeplinkIos: slide.deeplink_ios,
      deeplinkAndroid: slide.deeplink_android,
      contentType: slide.content_type,
      content: slide.content,
      tags: slide.tags,
    })),
  };
}

function toSliderBody(slider: RenderedSlider): SliderBody {
  return {
    code: slider.code,
    width: slider.width,
    height: slider.height,
    slides: slider.slides.map((slide) => ({
      image_url: slide.imageUrl,
      url: slide.url,
      deeplink_ios: slide.deeplinkIos,
      deeplink_android: slide.deeplinkAndroid,
      content_type: slide.contentType,
      content: slide.content,
      tags: [...slide.tags],
      html: slide.html,
    })),
    created_at: new Date(slider.createdAt).toISOString(),
    updated_at: new Date(slider.updatedAt).toISOString(),
  };
}

function toSummaryBody(summary: SliderSummary): SliderListBody['sliders'][number] {
  return {
    code: summary.code,
    width: summary.width,
    height: summary.height,
    slide_count: summary.slideCount,
    created_at: new Date(summary.createdAt).toISOString(),
    updated_at: new Date(summary.updatedAt).toISOString(),
  };
}
