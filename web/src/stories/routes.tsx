import type { RouteObject } from 'react-router';

/** Stories: the story sets, a new set, one set's editor with its phone preview and figures. */
export const storyRoutes: RouteObject[] = [
  { path: 'shops/:shopId/stories', lazy: async () => ({ Component: (await import('./sets.screen')).StorySetsScreen }) },
  { path: 'shops/:shopId/stories/new', lazy: async () => ({ Component: (await import('./sets.screen')).NewStorySetScreen }) },
  { path: 'shops/:shopId/stories/:code', lazy: async () => ({ Component: (await import('./set.screen')).StorySetScreen }) },
];
