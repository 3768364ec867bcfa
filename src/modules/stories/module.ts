import type { ViewAttributionSource } from '../tracking/index.js';
import { StoriesService, type StoriesDeps } from './stories.service.js';
import { StorySetsService, type StorySetsDeps } from './story-sets.service.js';

export interface StoriesServices {
  /** Story sets of the admin API, with their figures (docs/stories.md). */
  readonly storySets: StorySetsService;
  /** GET /stories/{code} and POST /track/stories. */
  readonly stories: StoriesService;
}

export interface StoriesModule {
  readonly services: StoriesServices;
  /** A product view after a story click is the stories' (recommended_by `stories`). */
  readonly viewAttribution: ViewAttributionSource;
}

export type StoriesModuleDeps = StorySetsDeps & Pick<StoriesDeps, 'products'>;

export function createStoriesModule(deps: StoriesModuleDeps): StoriesModule {
  const storySets = new StorySetsService(deps);
  const stories = new StoriesService({ ...deps, storySets });
  return {
    services: { storySets, stories },
    viewAttribution: {
      name: 'stories',
      takeForViews: (trx, shopId, dids, now) => stories.takeClickAttributions(trx, shopId, dids, now),
    },
  };
}
