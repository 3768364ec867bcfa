import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';

type PopupPath = '/admin/v1/shops/{shop_id}/popups/{id}';
export type Popup = paths[PopupPath]['get']['responses'][200]['content']['application/json'];
export type PopupBody = NonNullable<paths['/admin/v1/shops/{shop_id}/popups']['post']['requestBody']>['content']['application/json'];

export const popupKeys = {
  list: (shopId: string) => ['shops', shopId, 'popups'] as const,
  one: (shopId: string, id: string) => ['shops', shopId, 'popups', id] as const,
};

/** Every popup of the shop with its figures, newest first (the API answers them all at once). */
export function usePopups(shopId: string) {
  return useQuery({
    queryKey: popupKeys.list(shopId),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/popups', { params: { path: { shop_id: shopId } } })),
  });
}

export function usePopup(shopId: string, id: string) {
  return useQuery({
    queryKey: popupKeys.one(shopId, id),
    queryFn: () => unwrap(api.GET('/admin/v1/shops/{shop_id}/popups/{id}', { params: { path: { shop_id: shopId, id } } })),
  });
}

/** Creates a popup (POST) or replaces the fields of one (PATCH with every field the form holds). */
export function useSavePopup(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: PopupBody }) =>
      id === undefined
        ? unwrap(api.POST('/admin/v1/shops/{shop_id}/popups', { params: { path: { shop_id: shopId } }, body }))
        : unwrap(api.PATCH('/admin/v1/shops/{shop_id}/popups/{id}', { params: { path: { shop_id: shopId, id: String(id) } }, body })),
    onSuccess: async (popup) => {
      queryClient.setQueryData(popupKeys.one(shopId, String(popup.id)), popup);
      await queryClient.invalidateQueries({ queryKey: popupKeys.list(shopId), exact: true });
    },
  });
}
