import type { RouteObject } from 'react-router';

/** The users section: the team, and one user (role, shops, invitation, tokens). */
export const userRoutes: RouteObject[] = [
  { path: 'users', lazy: async () => ({ Component: (await import('./users-list.screen')).UsersListScreen }) },
  { path: 'users/:userId', lazy: async () => ({ Component: (await import('./user.screen')).UserScreen }) },
];
