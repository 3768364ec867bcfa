// Brings @fastify/swagger's route-schema fields (tags, summary, description) into FastifySchema.
import type {} from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { ShopIdSchema } from '../common/common.schemas.js';
import { statusResponses } from '../common/envelopes.schemas.js';
import { StatusOkWithPopupSchema } from '../common/popup.js';

/**
 * The OpenAPI description of GET /stories/{code} and POST /track/stories (contract-notes
 * "Beyond interface.md"; docs/stories.md). stories.params.ts checks the parameters; these
 * schemas document.
 */

export const STORIES_TAGS = ['stories'];

const Id = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,16}$' })], {
    description: `${description} A number or its decimal text.`,
  });

export const StoriesParamsSchema = Type.Object({ code: Type.String({ description: 'The story set’s code.' }) });

export const StoriesQuerySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Type.Optional(Type.String({ description: 'The device: its views answer `viewed` and `start_position`.' })),
  },
  { additionalProperties: true },
);

const ElementSchema = Type.Object(
  { type: Type.String({ description: '`button`, `products`, `product`, `text_block` or `header`.' }) },
  {
    additionalProperties: true,
    description:
      'The element’s fields (docs/stories.md "Elements"); `font_size`, `text_line_spacing` and `y_offset` are strings. ' +
      'Products are read from the catalog now; an unavailable one is left out, and an element left with none is left out.',
  },
);

const SlideSchema = Type.Object({
  id: Type.Integer(),
  duration: Type.Integer({ description: 'Seconds.' }),
  background: Type.String({ description: 'The picture or video.' }),
  background_color: Type.String(),
  preview: Type.String({ description: 'A video’s preview picture; an image slide’s own picture; `""` when none.' }),
  type: Type.String({ description: '`image` or `video`.' }),
  elements: Type.Array(ElementSchema),
});

export const StoriesResponses = statusResponses(
  Type.Object(
    {
      id: Type.Integer({ description: 'The set’s id.' }),
      settings: Type.Object(
        {
          color: Type.String(),
          font_size: Type.Integer(),
          avatar_size: Type.Integer(),
          close_color: Type.String(),
          border_viewed: Type.String(),
          border_not_viewed: Type.String(),
          background_pin: Type.String(),
          background_progress: Type.String(),
          pin_symbol: Type.String(),
          background: Type.String(),
          background_opacity: Type.Integer(),
        },
        { description: 'What the shop set, else the defaults: every key is always present.' },
      ),
      stories: Type.Array(
        Type.Object({
          id: Type.Integer(),
          name: Type.String(),
          avatar: Type.String(),
          viewed: Type.Boolean({ description: 'This device viewed every slide.' }),
          start_position: Type.Integer({ description: 'The index of the first slide this device has not viewed (0 when all are).' }),
          pinned: Type.Boolean(),
          slides: Type.Array(SlideSchema),
        }),
      ),
    },
    { description: 'Bare (no envelope). An unknown set is 404 in the status envelope.' },
  ),
);

export const TrackStoriesBodySchema = Type.Object(
  {
    shop_id: ShopIdSchema,
    did: Type.String({ description: 'The device.' }),
    event: Type.String({ description: '`view` or `click`.' }),
    code: Type.String({ description: 'The story set’s code.' }),
    story_id: Id('The story.'),
    slide_id: Id('The slide.'),
  },
  { additionalProperties: true, description: 'Identity parameters (seance, sid, segment, stream) are accepted and not needed.' },
);

/** `{"status":"success"}`, with a matching popup when one is due (the SDKs look for one here too). */
export const TrackStoriesResponses = statusResponses(StatusOkWithPopupSchema);
