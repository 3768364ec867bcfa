import { statusSuccess } from '../../http/envelopes.js';
import { popupField } from '../common/popup.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation, plainJson } from '../common/route-compilers.js';
import { readStoriesDevice, readStoryEvent } from './stories.params.js';
import {
  STORIES_TAGS,
  StoriesParamsSchema,
  StoriesQuerySchema,
  StoriesResponses,
  TrackStoriesBodySchema,
  TrackStoriesResponses,
} from './stories.schemas.js';

/**
 * GET /stories/{code} and POST /track/stories (contract-notes "Beyond interface.md"):
 * the story set for the device, and its views and clicks. Decisions: docs/stories.md.
 */
export const storiesRoutes: PublicRouteModule = (scope) => {
  const { stories } = scope.services;

  scope.get(
    '/stories/:code',
    {
      config: { envelope: 'bare', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      serializerCompiler: plainJson,
      schema: {
        tags: STORIES_TAGS,
        summary: 'A story set for a device',
        description:
          'Its stories in order, each with whether this device (`did`) viewed it and where to start; products read from the catalog now.',
        params: StoriesParamsSchema,
        querystring: StoriesQuerySchema,
        response: StoriesResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const code = (request.params as { code?: unknown }).code;
      return stories.storiesFor(shop, typeof code === 'string' ? code : '', readStoriesDevice(request.input));
    },
  );

  scope.post(
    '/track/stories',
    {
      config: { envelope: 'status', auth: 'shop' },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: STORIES_TAGS,
        summary: 'A device viewed or clicked a story slide',
        description:
          'A view marks the slide viewed for the device; a click makes the device’s next product view `recommended_by=stories`. ' +
          'A repeat is stored once. A slide not of that story of that set is 422.',
        body: TrackStoriesBodySchema,
        response: TrackStoriesResponses,
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      await stories.track(shop.shopId, readStoryEvent(request.input));
      return statusSuccess(await popupField(request));
    },
  );
};
