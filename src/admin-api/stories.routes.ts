import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { StorySet } from '../modules/stories/story-sets.service.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  PutStorySetBodySchema,
  StorySetFiguresSchema,
  StorySetListSchema,
  StorySetParamsSchema,
  StorySetSchema,
  type StoryElementBody,
  type StorySetBody,
} from './stories.schemas.js';

const tags = ['stories'];

/** admin-api.md "Stories": what GET /stories/{code} answers, and its figures. */
export const storiesRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const sets = app.services.storySets;

  app.put(
    '/shops/:shop_id/stories/:code',
    {
      schema: {
        tags,
        summary: 'Create or replace a story set',
        description:
          'Every story and slide is answered with its integer id. A story or slide that passes the id GET answered keeps it ' +
          '(and its views and clicks); one without an id keeps the id at its place; the rest get new ids. A problem is a 422 ' +
          'naming its path (`stories[0].slides[1].elements[0].link`).',
        security: ADMIN_SECURITY,
        params: StorySetParamsSchema,
        body: PutStorySetBodySchema,
        response: withErrors({ 200: StorySetSchema }, [404]),
      },
    },
    async (request) => toBody(await sets.putSet(request.params.shop_id, request.params.code, request.body)),
  );

  app.get(
    '/shops/:shop_id/stories',
    {
      schema: {
        tags,
        summary: 'List story sets',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: StorySetListSchema }, [404]),
      },
    },
    async (request) => ({
      story_sets: (await sets.listSets(request.params.shop_id)).map((set) => ({
        id: set.id,
        code: set.code,
        name: set.name,
        stories: set.stories,
        updated_at: new Date(set.updatedAt).toISOString(),
      })),
    }),
  );

  app.get(
    '/shops/:shop_id/stories/:code',
    {
      schema: {
        tags,
        summary: 'Get a story set',
        security: ADMIN_SECURITY,
        params: StorySetParamsSchema,
        response: withErrors({ 200: StorySetSchema }, [404]),
      },
    },
    async (request) => toBody(await sets.getSet(request.params.shop_id, request.params.code)),
  );

  app.delete(
    '/shops/:shop_id/stories/:code',
    {
      schema: {
        tags,
        summary: 'Delete a story set',
        description: 'Its views and clicks go with it.',
        security: ADMIN_SECURITY,
        params: StorySetParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await sets.deleteSet(request.params.shop_id, request.params.code);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/shops/:shop_id/stories/:code/figures',
    {
      schema: {
        tags,
        summary: 'A story set’s views and clicks',
        description:
          'Per slide, the devices that viewed it and that clicked in it; per story, the devices that viewed (clicked) any of its ' +
          'slides. A device’s repeat is not counted again (docs/stories.md "Figures").',
        security: ADMIN_SECURITY,
        params: StorySetParamsSchema,
        response: withErrors({ 200: StorySetFiguresSchema }, [404]),
      },
    },
    async (request) => {
      const figures = await sets.figures(request.params.shop_id, request.params.code);
      return {
        code: request.params.code,
        stories: figures.stories.map((story) => ({ id: story.id, views: story.views, clicks: story.clicks, slides: [...story.slides] })),
      };
    },
  );

  done();
};

function toBody(set: StorySet): StorySetBody {
  return {
    id: set.id,
    code: set.code,
    name: set.name,
    settings: set.settings,
    stories: set.stories.map((story) => ({
      id: story.id,
      name: story.name,
      avatar: story.avatar,
      pinned: story.pinned,
      slides: story.slides.map((slide) => ({
        id: slide.id,
        type: slide.type,
        background: slide.background,
        background_color: slide.backgroundColor,
        preview: slide.preview,
        duration: slide.duration,
        elements: slide.elements as unknown as StoryElementBody[],
      })),
    })),
    created_at: new Date(set.createdAt).toISOString(),
    updated_at: new Date(set.updatedAt).toISOString(),
  };
}
