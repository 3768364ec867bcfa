import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { AudienceImport } from '../modules/audience/audience.types.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { ImportListSchema, ImportsQuerySchema, type ImportBody } from './imports.schemas.js';
import { integerQueryParameters } from './query-integers.js';

const tags = ['audience'];

/** admin-api.md, Import logs: the "system log" of POST /import/audience (interface.md endpoint 11). */
export const importsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const audience = app.services.audience;

  app.get(
    '/shops/:shop_id/imports',
    {
      schema: {
        tags,
        summary: 'List audience imports (the import log)',
        description:
          'Newest first. Counts are complete; `errors` holds the first 100 skipped records with their reasons ' +
          '(and, for a failed import, where it stopped), `warnings` the first 100 dropped fields.',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: ImportsQuerySchema,
        response: withErrors({ 200: ImportListSchema }, [404]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'limit');
        next();
      },
    },
    async (request) => {
      const imports = await audience.listImports(request.params.shop_id, request.query.limit);
      return { imports: imports.map(toImportBody) };
    },
  );

  done();
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toImportBody(entry: AudienceImport): ImportBody {
  const { log } = entry;
  return {
    id: entry.id,
    kind: entry.kind,
    status: entry.status,
    received: entry.received,
    imported: entry.imported,
    skipped: entry.skipped,
    errors: log.errors.map((e) => ({ ...e })),
    started_at: iso(entry.startedAt),
    finished_at: iso(entry.finishedAt),
    source: entry.source,
    segment_id: entry.segmentId,
    processed: entry.processed,
    profiles_created: entry.profilesCreated,
    warnings: log.warnings.map((w) => ({ ...w })),
    skipped_reasons: { ...log.skipped_reasons },
    dropped_fields: { ...log.dropped_fields },
    unknown_properties: { ...log.unknown_properties },
    history: log.history.map((h) => ({ status: h.status, at: new Date(h.at).toISOString() })),
    created_at: new Date(entry.createdAt).toISOString(),
  };
}
