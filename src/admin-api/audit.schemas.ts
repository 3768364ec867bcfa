import { Type, type Static } from '@sinclair/typebox';

/** GET /admin/v1/audit (docs/audit-log.md): the shape every helper of issue 35 builds against. */

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

export const AuditQuerySchema = Type.Object(
  {
    shop_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only the entries of this shop.' })),
    user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only the changes this user made.' })),
    action: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: '^[a-z0-9_]+(\\.[a-z0-9_]+)*(\\.\\*)?$',
        description: 'Only this action (`shop.update`); ending in `.*`, every action under it (`loyalty.*`).',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: AUDIT_PAGE_MAX,
        default: AUDIT_PAGE_DEFAULT,
        description: `How many entries to answer: 1 to ${AUDIT_PAGE_MAX}, ${AUDIT_PAGE_DEFAULT} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 32, description: 'The `next_cursor` of the previous page.' })),
  },
  { additionalProperties: false },
);
export type AuditQueryBody = Static<typeof AuditQuerySchema>;

const AuditActorSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('superuser'), Type.Literal('user')], { description: 'superuser: the admin token.' }),
    user_id: Type.Optional(Type.Integer()),
    email: Type.Optional(Type.String()),
    via: Type.Optional(Type.Union([Type.Literal('session'), Type.Literal('token')], { description: 'The UI session, or an API token.' })),
  },
  { description: 'Who made the change.' },
);

export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actor: AuditActorSchema,
  shop_id: Type.Union([Type.String(), Type.Null()], { description: 'null: a change of no one shop (a user, a sign-in).' }),
  method: Type.String(),
  path: Type.String({ description: 'The URL path, without the query; credentials in it replaced.' }),
  action: Type.String({ description: 'What was done, derived from the method and route (`shop.secret.rotate`).' }),
  status: Type.Integer({ description: 'The status answered.' }),
  before: Type.Unknown({ description: 'The resource as its GET answered just before the change; null when none was read.' }),
  after: Type.Unknown({ description: '`{"request", "response"}`: what was sent and answered, secrets redacted, bounded in size.' }),
  ip: Type.Union([Type.String(), Type.Null()]),
});

export const AuditPageSchema = Type.Object(
  {
    items: Type.Array(AuditEntrySchema, { description: 'Newest first.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass it as `cursor` for the next page; null on the last.' }),
  },
  { description: 'A page of the audit log.' },
);
export type AuditPageBody = Static<typeof AuditPageSchema>;
