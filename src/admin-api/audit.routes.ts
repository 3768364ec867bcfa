import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import type { AuditEntry } from '../modules/audit/index.js';
import { ADMIN_SECURITY, withErrors } from './common.schemas.js';
import { AUDIT_PAGE_DEFAULT, AuditPageSchema, AuditQuerySchema, type AuditPageBody } from './audit.schemas.js';
import type { AdminPrincipal } from './principal.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['audit'];

/** Roles that read the audit log (issue 35: owners and admins, and the superuser). */
const READERS = new Set(['owner', 'admin']);

/** docs/audit-log.md, "Reading". */
export const auditRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const audit = app.services.audit;

  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: 'Read the audit log, newest first',
        description:
          'Every successful change made through the admin API or the UI, and every sign-in: who, when, what, and the state ' +
          'before and after, with secrets redacted. Paging is by `next_cursor`; an entry written while the pages are read ' +
          'comes before the first page, so none is skipped or repeated. A user limited to some shops sees only their entries.',
        security: ADMIN_SECURITY,
        querystring: AuditQuerySchema,
        response: withErrors({ 200: AuditPageSchema }, [403]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit', 'user_id');
        next();
      },
    },
    async (request) => {
      const shops = readableShops(request.adminPrincipal);
      const query = request.query;
      if (shops !== null && query.shop_id !== undefined && !shops.includes(query.shop_id)) throw forbidden();
      const page = await audit.list({
        shopId: query.shop_id,
        userId: query.user_id,
        action: query.action,
        limit: query.limit ?? AUDIT_PAGE_DEFAULT,
        cursor: query.cursor,
        shops,
      });
      if (!page.ok) throw new AppError('VALIDATION_FAILED', 'Query parameter `cursor` is not valid.', { field: 'cursor' });
      const body: AuditPageBody = { items: page.items.map(toEntryBody), next_cursor: page.nextCursor };
      return body;
    },
  );

  done();
};

/**
 * The shops whose entries the caller may read (null: all, and those of no shop); a
 * caller who may not read the log at all is refused here.
 */
function readableShops(principal: AdminPrincipal | undefined): readonly string[] | null {
  if (principal?.kind === 'superuser') return null;
  if (principal?.kind !== 'user' || !READERS.has(principal.role)) throw forbidden();
  return principal.shops;
}

function forbidden(): AppError {
  return new AppError('FORBIDDEN', 'You do not have access to this.');
}

function toEntryBody(entry: AuditEntry): AuditPageBody['items'][number] {
  const actor: AuditPageBody['items'][number]['actor'] =
    entry.actor.kind === 'superuser'
      ? { kind: 'superuser' }
      : { kind: 'user', user_id: entry.actor.userId, email: entry.actor.email, ...(entry.actor.via ? { via: entry.actor.via } : {}) };
  return {
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    actor,
    shop_id: entry.shopId,
    method: entry.method,
    path: entry.path,
    action: entry.action,
    status: entry.status,
    before: entry.before,
    after: entry.after,
    ip: entry.ip,
  };
}
