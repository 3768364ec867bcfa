import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type SetPath = '/admin/v1/shops/{shop_id}/stories/{code}';
export type StorySet = paths[SetPath]['get']['responses'][200]['content']['application/json'];
export type StorySetBody = NonNullable<paths[SetPath]['put']['requestBody']>['content']['application/json'];
export type StoryElement = StorySet['stories'][number]['slides'][number]['elements'][number];
export type StoryFigures =
  paths['/admin/v1/shops/{shop_id}/stories/{code}/figures']['get']['responses'][200]['content']['application/json'];

export const storyKeys = {
  sets: (shopId: string) => ['shops', shopId, 'stories'] as const,
  set: (shopId: string, code: string) => ['shops', shopId, 'stories', code] as const,
  figures: (shopId: string, code: string) => ['shops', shopId, 'stories', code, 'figures'] as const,
};

/** Every story set of the shop (the API answers them all at once, by code). */
export function useStorySets(shopId: string) {
  return useQuery({
    queryKey: storyKeys.sets(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/stories', { params: { path: { shop_id: shopId } } })),
  });
}

export function useStorySet(shopId: string, code: string) {
  return useQuery({
    queryKey: storyKeys.set(shopId, code),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/stories/{code}', { params: { path: { shop_id: shopId, code } } })),
  });
}

export function useStoryFigures(shopId: string, code: string) {
  return useQuery({
    queryKey: storyKeys.figures(shopId, code),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/stories/{code}/figures', { params: { path: { shop_id: shopId, code } } })),
  });
}

/** Creates or replaces a set whole (PUT); the answer, with every id, becomes the set's cached state. */
export function useSaveStorySet(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: StorySetBody }) =>
      unwrap(api.PUT('/admin/v1/shops/{shop_id}/stories/{code}', { params: { path: { shop_id: shopId, code } }, body })),
    onSuccess: async (set) => {
      queryClient.setQueryData(storyKeys.set(shopId, set.code), set);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: storyKeys.sets(shopId), exact: true }),
        queryClient.invalidateQueries({ queryKey: storyKeys.figures(shopId, set.code) }),
      ]);
    },
  });
}

export function useDeleteStorySet(shopId: string, code: string, onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/v1/shops/{shop_id}/stories/{code}', { params: { path: { shop_id: shopId, code } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: storyKeys.set(shopId, code) });
      await queryClient.invalidateQueries({ queryKey: storyKeys.sets(shopId), exact: true });
      onDeleted();
    },
  });
}
