import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { ClientFacts } from '../modules/admin-users/index.js';
import { clearSessionCookie, FORBIDDEN_MESSAGE, readSessionCookie, setSessionCookie } from './admin-auth.js';
import { ADMIN_SECURITY, withErrors } from './common.schemas.js';
import { PasswordChangeBodySchema, SessionSchema, SignInBodySchema, toUserBody } from './users.schemas.js';

const tags = ['users'];
const WRONG = 'Email or password is wrong.';

/** The admin UI's sign-in (docs/admin-users.md "Sessions"): a session cookie and its CSRF token. */
export const sessionRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { adminSessions } = app.services;

  app.post(
    '/session',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in',
        description:
          'Sets the `patron_session` cookie (HttpOnly, SameSite=Lax, Secure over https): a new session every time. ' +
          'A wrong email and a wrong password get the same 401. Failed attempts are limited per address and per email (429).',
        security: [],
        body: SignInBodySchema,
        response: withErrors({ 200: SessionSchema }, [415]),
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const emailKey = `email:${email.trim().toLowerCase()}`;
      app.limits.checkCredentialAttempt('admin_sign_in', request.ip);
      app.limits.checkCredentialAttempt('admin_sign_in', emailKey);
      const user = await adminSessions.checkPassword(email, password);
      const byAddress = app.limits.attemptCredential('admin_sign_in', request.ip, () => user !== undefined);
      const byEmail = app.limits.attemptCredential('admin_sign_in', emailKey, () => user !== undefined);
      if (user === undefined || !byAddress || !byEmail) throw new AppError('UNAUTHORIZED', WRONG);
      const started = await adminSessions.startSession(user, clientFacts(request), readSessionCookie(request.headers.cookie));
      setSessionCookie(request, reply, started.sessionId);
      return { user: toUserBody(started.user), csrf_token: started.csrfToken };
    },
  );

  app.get(
    '/session',
    {
      schema: {
        tags,
        summary: 'The signed-in user',
        description: 'With the session cookie: the user and the CSRF token; 401 when the session has ended.',
        security: ADMIN_SECURITY,
        response: withErrors({ 200: SessionSchema }, []),
      },
    },
    async (request) => {
      const principal = request.adminPrincipal;
      if (request.adminSession === undefined || principal?.kind !== 'user')
        throw new AppError('UNAUTHORIZED', 'No session: sign in first.');
      const user = await app.services.adminAccounts.requireUser(principal.userId);
      return { user: toUserBody(user), csrf_token: request.adminSession.csrfToken };
    },
  );

  app.delete(
    '/session',
    {
      schema: {
        tags,
        summary: 'Sign out',
        description: 'Revokes the session on the server (its cookie is worthless from now on) and clears the cookie.',
        security: ADMIN_SECURITY,
        response: withErrors({ 204: Type.Null({ description: 'Signed out.' }) }, []),
      },
    },
    async (request, reply) => {
      if (request.adminSession === undefined) throw new AppError('UNAUTHORIZED', 'No session: sign in first.');
      await adminSessions.signOut(request.adminSession.idHash);
      clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/session/password',
    {
      schema: {
        tags,
        summary: 'Change your password',
        description: 'Signs you out of every other session. A wrong current password counts as a failed sign-in.',
        security: ADMIN_SECURITY,
        body: PasswordChangeBodySchema,
        response: withErrors({ 204: Type.Null({ description: 'Changed.' }) }, [415]),
      },
    },
    async (request, reply) => {
      const principal = request.adminPrincipal;
      if (principal?.kind !== 'user') throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
      app.limits.checkCredentialAttempt('admin_sign_in', request.ip);
      const user = await app.services.adminAccounts.requireUser(principal.userId);
      const { current_password, new_password } = request.body;
      const changed = await adminSessions.changePassword(user, request.adminSession?.idHash, current_password, new_password);
      if (!app.limits.attemptCredential('admin_sign_in', request.ip, () => changed)) {
        throw new AppError('VALIDATION_FAILED', 'Field `current_password` is not your current password.', { field: 'current_password' });
      }
      return reply.code(204).send(null);
    },
  );

  done();
};

export function clientFacts(request: FastifyRequest): ClientFacts {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null };
}
