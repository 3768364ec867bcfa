import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { accountRoutes } from './account/routes';
import { ApiError, setUnauthorizedHandler } from './api/client';
import { auditRoutes } from './audit/routes';
import { campaignRoutes } from './campaigns/routes';
import { RequireSession } from './auth/require-session';
import { authRoutes } from './auth/routes';
import { SESSION_KEY } from './auth/session';
import { customerRoutes } from './customers/routes';
import { dashboardRoutes } from './dashboards/routes';
import { catalogRoutes } from './catalog/routes';
import { chainRoutes } from './chains/routes';
import { eventRoutes } from './events/routes';
import { I18nProvider, useI18n } from './i18n/i18n';
import { loyaltyRoutes } from './loyalty/routes';
import { messagingRoutes } from './messaging/routes';
import { recommendationRoutes } from './recommendations/routes';
import { popupRoutes } from './popups/routes';
import { npsRoutes } from './nps/routes';
import { storyRoutes } from './stories/routes';
import { shopRoutes } from './shops/routes';
import { templateRoutes } from './templates/routes';
import { userRoutes } from './users/routes';
import { Empty } from './ui/states';
import { cssVariablesResolver, theme } from './ui/theme';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal is an answer, not a hiccup: only network failures and 5xx are retried, once.
      retry: (count, error) => count < 1 && !(error instanceof ApiError && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

// A call that answers 401 means the session ended: forget it, and RequireSession sends the
// person to sign-in with the path they were on.
setUnauthorizedHandler(() => queryClient.setQueryData(SESSION_KEY, null));

function NotFound() {
  const { t } = useI18n();
  return <Empty>{t('error.notFound')}</Empty>;
}

// Each section's screens are their own chunks (the routes' `lazy`): the first load fetches
// the frame alone (docs/admin-ui.md, bundle budget).
const router = createBrowserRouter(
  [
    ...authRoutes,
    {
      path: '/',
      Component: RequireSession,
      children: [
        { index: true, element: <Navigate to="/shops" replace /> },
        ...shopRoutes,
        ...eventRoutes,
        ...customerRoutes,
        ...accountRoutes,
        ...userRoutes,
        ...auditRoutes,
        ...catalogRoutes,
        ...loyaltyRoutes,
        ...dashboardRoutes,
        ...campaignRoutes,
        ...templateRoutes,
        ...chainRoutes,
        ...messagingRoutes,
        ...recommendationRoutes,
        ...popupRoutes,
        ...npsRoutes,
        ...storyRoutes,
        { path: '*', Component: NotFound },
      ],
    },
  ],
  { basename: '/admin' },
);

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <I18nProvider>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>
  );
}
