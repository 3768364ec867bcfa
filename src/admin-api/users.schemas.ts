import { Type, type Static } from '@sinclair/typebox';
import { ADMIN_ROLES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type AdminUser } from '../modules/admin-users/index.js';
import { CursorQuerySchema, limitQuerySchema, pageSchema } from './paging.js';

/** admin-api.md "Admin users" and docs/admin-users.md: the shapes of users, sessions, invitations and tokens. */

export const RoleSchema = Type.Union(
  ADMIN_ROLES.map((role) => Type.Literal(role)),
  { description: 'owner: everything; admin: everything but owners; marketer: no shops, users or credentials; analyst: reads only.' },
);

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@]{1,64}@[^\\s@.]+(\\.[^\\s@.]+)+$',
  examples: ['anna@example.org'],
});
const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'At least 10 characters.' });
const ShopList = Type.Array(Type.String({ pattern: '^[0-9a-f]{30}$' }), { maxItems: 1000 });
const Shops = Type.Union([ShopList, Type.Null()], { description: 'The shops the user is limited to; null: every shop.' });
const Time = Type.String({ format: 'date-time' });

export const UserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: RoleSchema,
  shops: Shops,
  created_at: Time,
  last_sign_in_at: Type.Union([Time, Type.Null()]),
  status: Type.Union([Type.Literal('active'), Type.Literal('invited')], { description: 'invited: no password set yet.' }),
  disabled: Type.Boolean({ description: 'A disabled user cannot sign in; their sessions and tokens are revoked.' }),
});
export type UserBody = Static<typeof UserSchema>;

export const UserListSchema = Type.Object({ items: Type.Array(UserSchema) });

export const UserIdParamsSchema = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The user id.' }) });
export const TokenParamsSchema = Type.Object({
  id: UserIdParamsSchema.properties.id,
  token_id: Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The API token id.' }),
});

export const CreateUserBodySchema = Type.Object(
  { email: Email, password: Type.Optional(Password), role: RoleSchema, shops: Type.Optional(Shops) },
  { additionalProperties: false },
);
export const CreatedUserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: RoleSchema,
  shops: Shops,
  invite_url: Type.Optional(Type.String({ description: 'Without a password: the invitation link, shown only here.' })),
});
export const UpdateUserBodySchema = Type.Object(
  { role: Type.Optional(RoleSchema), shops: Type.Optional(Shops), disabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export const InviteUrlSchema = Type.Object({ invite_url: Type.String({ description: 'A one-time link, valid 7 days.' }) });

export const CreateTokenBodySchema = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const CreatedTokenSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  token: Type.String({ description: 'The bearer token (`pat_…`), shown only here.' }),
});
export const TokenListSchema = Type.Object({
  items: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), created_at: Time, last_used_at: Type.Union([Time, Type.Null()]) }),
  ),
});

export const SignInBodySchema = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);
export const SessionSchema = Type.Object({
  user: UserSchema,
  csrf_token: Type.String({ description: 'Send as X-CSRF-Token on every state-changing request made with the session cookie.' }),
});
export const PasswordChangeBodySchema = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }), new_password: Password },
  { additionalProperties: false },
);

export const InvitationParamsSchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }) });
export const InvitationSchema = Type.Object({
  email: Type.Union([Type.String(), Type.Null()], { description: 'null: the person types it (the first owner).' }),
  role: RoleSchema,
});
export const AcceptInvitationBodySchema = Type.Object({ email: Type.Optional(Email), password: Password }, { additionalProperties: false });

export function toUserBody(user: AdminUser): UserBody {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    shops: user.shops === null ? null : [...user.shops],
    created_at: new Date(user.createdAt).toISOString(),
    last_sign_in_at: user.lastSignInAt === null ? null : new Date(user.lastSignInAt).toISOString(),
    status: user.status,
    disabled: user.disabled,
  };
}

export const SESSION_PAGE_DEFAULT = 50;
export const SESSION_PAGE_MAX = 200;

export const SessionListQuerySchema = Type.Object(
  { limit: limitQuerySchema(SESSION_PAGE_DEFAULT, SESSION_PAGE_MAX), cursor: CursorQuerySchema },
  { additionalProperties: false },
);

export const OwnSessionSchema = Type.Object({
  id: Type.String({ description: 'The public id of the session (not its cookie): pass it to DELETE to sign that session out.' }),
  created_at: Type.String({ format: 'date-time', description: 'When it signed in.' }),
  last_seen_at: Type.String({ format: 'date-time', description: 'Its last request, to the minute.' }),
  ip: Type.Union([Type.String(), Type.Null()], { description: 'The address it signed in from.' }),
  user_agent: Type.Union([Type.String(), Type.Null()], { description: 'The browser it signed in with (300 characters at most).' }),
  current: Type.Boolean({ description: 'True for the session this request came with.' }),
});
export const OwnSessionListSchema = pageSchema(OwnSessionSchema, 'Your live sessions, newest first.');

export const OwnSessionParamsSchema = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'A session id from GET /session/sessions.' }),
});
