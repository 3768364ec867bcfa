import type { RouteObject } from 'react-router';

/** Sign-in and invitation: the screens seen before a session exists. */
export const authRoutes: RouteObject[] = [
  { path: 'sign-in', lazy: async () => ({ Component: (await import('./sign-in.screen')).SignInScreen }) },
  { path: 'invite/:token', lazy: async () => ({ Component: (await import('./invitation.screen')).InvitationScreen }) },
];
