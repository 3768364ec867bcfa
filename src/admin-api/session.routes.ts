import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { ClientFacts } from '../modules/admin-users/index.js';
import { clearSessionCookie, FORBIDDEN_MESSAGE, readSessionCookie, setSessionCookie } from './admin-auth.js';
import { ADMIN_SECURITY, withErrors } from './common.schemas.js';
import { cursorKey, encodeCursor } from './paging.js';
import { integerQueryParameters } from './query-integers.js';
import {
  OwnSessionListSchema,
  OwnSessionParamsSchema,
  PasswordChangeBodySchema,
  SESSION_PAGE_DEFAULT,
  SessionListQuerySchema,
  SessionSchema,
  SignInBodySchema,
  toUserBody,
} from './users.schemas.js';

const tags = ['users'];
const WRONG = 'Email or password is wrong.';
const SESSION_KEY = ['integer', 'string'] as const;

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

  app.get(
    '/session/sessions',
    {
      schema: {
        tags,
        summary: 'Your live sessions',
        description:
          'The sessions you are signed in with, newest first, `current` marking this one. Keyset paging: pass `next_cursor` ' +
          'back as `cursor`. Signed in with the admin token, there are none to list (403).',
        security: ADMIN_SECURITY,
        querystring: SessionListQuerySchema,
        response: withErrors({ 200: OwnSessionListSchema }, []),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const principal = request.adminPrincipal;
      if (principal?.kind !== 'user') throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
      const key = cursorKey(request.query.cursor, SESSION_KEY);
      const before = key === null ? null : { createdAt: key[0], publicId: key[1] };
      const limit = request.query.limit ?? SESSION_PAGE_DEFAULT;
      const page = await adminSessions.listSessions(principal.userId, request.adminSession?.idHash, before, limit);
      const last = page.items.at(-1);
      return {
        items: page.items.map((s) => ({
          id: s.id,
          created_at: new Date(s.createdAt).toISOString(),
          last_seen_at: new Date(s.lastSeenAt).toISOString(),
          ip: s.ip,
          user_agent: s.userAgent,
          current: s.current,
        })),
        next_cursor: page.more && last ? encodeCursor([last.createdAt, last.id]) : null,
      };
    },
  );

  app.delete(
    '/session/sessions/:id',
    {
      schema: {
        tags,
        summary: 'Sign one of your sessions out',
        description: 'Revokes one of your own live sessions (this one included: its cookie is cleared). Another user’s is a 404.',
        security: ADMIN_SECURITY,
        params: OwnSessionParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Signed out.' }) }, [404]),
      },
    },
    async (request, reply) => {
      const principal = request.adminPrincipal;
      if (principal?.kind !== 'user') throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
      const revoked = await adminSessions.revokeSession(principal.userId, request.params.id, request.adminSession?.idHash);
      if (revoked === undefined) throw new AppError('NOT_FOUND', 'Session not found.');
      if (revoked.current) clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  done();
};

export function clientFacts(request: FastifyRequest): ClientFacts {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null };
}
