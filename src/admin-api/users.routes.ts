import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { ADMIN_SECURITY, withErrors } from './common.schemas.js';
import {
  CreatedTokenSchema,
  CreatedUserSchema,
  CreateTokenBodySchema,
  CreateUserBodySchema,
  InviteUrlSchema,
  TokenListSchema,
  TokenParamsSchema,
  UpdateUserBodySchema,
  UserIdParamsSchema,
  UserListSchema,
  UserSchema,
  toUserBody,
} from './users.schemas.js';

const tags = ['users'];
const NO_CONTENT = { 204: Type.Null({ description: 'Done.' }) };

/**
 * admin-api.md "Admin users": the team, their invitation links and API tokens. Who may
 * call which is the scope's authorization hook's (admin-auth.ts), not these handlers'.
 */
export const usersRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const accounts = app.services.adminAccounts;

  app.get(
    '/users',
    { schema: { tags, summary: 'List users', security: ADMIN_SECURITY, response: withErrors({ 200: UserListSchema }, []) } },
    async () => ({ items: (await accounts.listUsers()).map(toUserBody) }),
  );

  app.post(
    '/users',
    {
      schema: {
        tags,
        summary: 'Create a user',
        description:
          'With a password the user can sign in at once; without one the answer carries `invite_url`, a one-time link ' +
          'valid 7 days, shown only here. 409 when the email (in any case) is taken.',
        security: ADMIN_SECURITY,
        body: CreateUserBodySchema,
        response: withErrors({ 201: CreatedUserSchema }, [409, 415]),
      },
    },
    async (request, reply) => {
      const { user, inviteToken } = await accounts.createUser(request.body);
      const created = { id: user.id, email: user.email, role: user.role, shops: user.shops === null ? null : [...user.shops] };
      return reply.code(201).send(inviteToken === undefined ? created : { ...created, invite_url: inviteUrl(request, inviteToken) });
    },
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Read a user',
        security: ADMIN_SECURITY,
        params: UserIdParamsSchema,
        response: withErrors({ 200: UserSchema }, [404]),
      },
    },
    async (request) => toUserBody(await accounts.requireUser(Number(request.params.id))),
  );

  app.patch(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Change a user',
        description:
          'Role, shops, disabled. Disabling revokes their sessions and tokens; the last owner cannot be demoted or disabled (409).',
        security: ADMIN_SECURITY,
        params: UserIdParamsSchema,
        body: UpdateUserBodySchema,
        response: withErrors({ 200: UserSchema }, [404, 409, 415]),
      },
    },
    async (request) => toUserBody(await accounts.updateUser(Number(request.params.id), request.body)),
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Remove a user',
        description: 'Their sessions and tokens stop working at once; the last owner cannot be removed (409).',
        security: ADMIN_SECURITY,
        params: UserIdParamsSchema,
        response: withErrors(NO_CONTENT, [404, 409]),
      },
    },
    async (request, reply) => {
      await accounts.deleteUser(Number(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/:id/invitation',
    {
      schema: {
        tags,
        summary: 'A new invitation link for a user',
        description: "Also an admin's way to reset a password: earlier links stop working; using this one sets a new password.",
        security: ADMIN_SECURITY,
        params: UserIdParamsSchema,
        response: withErrors({ 201: InviteUrlSchema }, [404]),
      },
    },
    async (request, reply) => {
      const token = await accounts.issueInvitation(Number(request.params.id));
      return reply.code(201).send({ invite_url: inviteUrl(request, token) });
    },
  );

  app.post(
    '/users/:id/tokens',
    {
      schema: {
        tags,
        summary: 'Create an API token',
        description: "A Bearer token (`pat_…`) with the user's rights, as they are at each request; shown only here.",
        security: ADMIN_SECURITY,
        params: UserIdParamsSchema,
        body: CreateTokenBodySchema,
        response: withErrors({ 201: CreatedTokenSchema }, [404, 415]),
      },
    },
    async (request, reply) => reply.code(201).send(await accounts.createApiToken(Number(request.params.id), request.body.name)),
  );

  app.get(
    '/users/:id/tokens',
    {
      schema: {
        tags,
        summary: "A user's API tokens",
        security: ADMIN_SECURITY,
        params: UserIdParamsSchema,
        response: withErrors({ 200: TokenListSchema }, [404]),
      },
    },
    async (request) => ({
      items: (await accounts.listApiTokens(Number(request.params.id))).map((token) => ({
        id: token.id,
        name: token.name,
        created_at: new Date(token.createdAt).toISOString(),
        last_used_at: token.lastUsedAt === null ? null : new Date(token.lastUsedAt).toISOString(),
      })),
    }),
  );

  app.delete(
    '/users/:id/tokens/:token_id',
    {
      schema: {
        tags,
        summary: 'Revoke an API token',
        security: ADMIN_SECURITY,
        params: TokenParamsSchema,
        response: withErrors(NO_CONTENT, [404]),
      },
    },
    async (request, reply) => {
      await accounts.deleteApiToken(Number(request.params.id), Number(request.params.token_id));
      return reply.code(204).send(null);
    },
  );

  done();
};

/** `<protocol>://<host>/admin/invite/<token>`, as the caller reached this server. */
function inviteUrl(request: FastifyRequest, token: string): string {
  if (!/^[\w.:[\]-]+$/.test(request.host)) throw new AppError('BAD_REQUEST', 'The Host header is not a host name.');
  return `${request.protocol}://${request.host}/admin/invite/${token}`;
}
