import type { RouteObject } from 'react-router';

/** The audit log of changes made through the admin API and this app. */
export const auditRoutes: RouteObject[] = [
  { path: 'audit', lazy: async () => ({ Component: (await import('./audit.screen')).AuditScreen }) },
];
