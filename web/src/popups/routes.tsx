import type { RouteObject } from 'react-router';

/** Popups: the list with figures, a new popup, one popup's figures, preview and targeting. */
export const popupRoutes: RouteObject[] = [
  { path: 'shops/:shopId/popups', lazy: async () => ({ Component: (await import('./popups.screen')).PopupsScreen }) },
  { path: 'shops/:shopId/popups/new', lazy: async () => ({ Component: (await import('./popups.screen')).NewPopupScreen }) },
  { path: 'shops/:shopId/popups/:id', lazy: async () => ({ Component: (await import('./popup.screen')).PopupScreen }) },
];
