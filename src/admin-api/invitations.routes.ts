import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { readSessionCookie, setSessionCookie } from './admin-auth.js';
import { withErrors } from './common.schemas.js';
import { clientFacts } from './session.routes.js';
import { AcceptInvitationBodySchema, InvitationParamsSchema, InvitationSchema, SessionSchema, toUserBody } from './users.schemas.js';

const tags = ['users'];
const UNKNOWN = 'The invitation does not exist, was used or has expired.';

/** Invitation links (docs/admin-users.md "Invitations"): read what one offers, use it once to set a password and sign in. */
export const invitationsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const { adminSessions } = app.services;

  app.get(
    '/invitations/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'What an invitation link offers',
        security: [],
        params: InvitationParamsSchema,
        response: withErrors({ 200: InvitationSchema }, [404]),
      },
    },
    async (request) => {
      const invitation = await adminSessions.readInvitation(request.params.token);
      if (invitation === undefined) throw new AppError('NOT_FOUND', UNKNOWN);
      return invitation;
    },
  );

  app.post(
    '/invitations/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Use an invitation link',
        description:
          'Sets the password (and, for an invitation without an email, the email) and signs in, as POST /session. ' +
          'A link works once: afterwards, and after 7 days, it is 404.',
        security: [],
        params: InvitationParamsSchema,
        body: AcceptInvitationBodySchema,
        response: withErrors({ 200: SessionSchema }, [404, 409, 415]),
      },
    },
    async (request, reply) => {
      const started = await adminSessions.acceptInvitation(request.params.token, request.body, clientFacts(request));
      if (started === undefined) throw new AppError('NOT_FOUND', UNKNOWN);
      const replaced = readSessionCookie(request.headers.cookie);
      if (replaced !== undefined) await adminSessions.signOutId(replaced);
      setSessionCookie(request, reply, started.sessionId);
      return { user: toUserBody(started.user), csrf_token: started.csrfToken };
    },
  );

  done();
};
