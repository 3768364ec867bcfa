import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors.js';
import type { AudienceImport } from '../modules/audience/audience.types.js';
import { MAX_IMPORTS_LISTED } from '../modules/audience/audience.service.js';
import { toChunks } from '../modules/audience/domain/chunks.js';
import { CsvError, CsvReader, csvRecord } from '../modules/audience/domain/csv.js';
import { MAX_RECORDS_PER_REQUEST } from '../modules/audience/domain/limits.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import { ImportListSchema, ImportSchema, ImportsQuerySchema, UploadQuerySchema, type ImportBody } from './imports.schemas.js';
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
        integerQueryParameters(request, 'limit', 'before');
        next();
      },
    },
    async (request) => {
      const limit = request.query.limit ?? MAX_IMPORTS_LISTED;
      const imports = await audience.listImports(request.params.shop_id, limit, request.query.before);
      const last = imports.at(-1);
      return { imports: imports.map(toImportBody), next_before: imports.length === limit && last !== undefined ? last.id : null };
    },
  );

  // The admin UI's audience upload: a CSV file as `patron import audience` reads it. Its
  // parser is this plugin's own (the admin scope speaks JSON elsewhere).
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/shops/:shop_id/imports',
    {
      schema: {
        tags,
        summary: 'Upload an audience CSV file',
        description:
          'The body is a CSV file (`Content-Type: text/csv`): a header row of audience record field names (interface.md, ' +
          '"Audience user record"; custom property codes too), then one record per row, comma- or semicolon-separated; ' +
          '`kids` and `auto` cells hold JSON. Stored as one import, as POST /import/audience stores its records, and ' +
          'imported in the background: poll `GET …/imports` for its progress and report. ' +
          `At most ${MAX_RECORDS_PER_REQUEST} records and ${MAX_UPLOAD_BYTES} bytes.`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: UploadQuerySchema,
        body: { content: { 'text/csv': { schema: Type.String({ description: 'The CSV file.' }) } } },
        response: withErrors({ 202: ImportSchema }, [404, 413, 415]),
      },
      preValidation: (request, _reply, next) => {
        integerQueryParameters(request, 'segment_id');
        next();
      },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      if (typeof body !== 'string')
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the CSV file as the body, with Content-Type text/csv.');
      const records = csvRecords(body);
      const { segment_id } = request.query;
      const entry = await audience.submitImport(request.params.shop_id, {
        chunks: toChunks(records),
        ...(segment_id === undefined ? {} : { segmentId: segment_id }),
      });
      return reply.code(202).send(toImportBody(entry));
    },
  );

  done();
};

/** The upload's bound: 100,000 records of about 160 bytes of CSV each. */
const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

/** The records of a CSV file under its header's names; a file that is not CSV is refused whole. */
function csvRecords(text: string): Record<string, unknown>[] {
  const reader = new CsvReader();
  let rows: { cells: string[] }[];
  try {
    rows = [...reader.push(text.startsWith('\uFEFF') ? text.slice(1) : text), ...reader.end()];
  } catch (error) {
    if (error instanceof CsvError)
      throw new AppError('VALIDATION_FAILED', `Field \`file\` is not valid CSV: ${error.message}`, { field: 'file' });
    throw error;
  }
  const [header, ...data] = rows;
  if (header === undefined || data.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'Field `file` needs a header row and at least one record.', { field: 'file' });
  }
  if (data.length > MAX_RECORDS_PER_REQUEST) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The file has more than ${MAX_RECORDS_PER_REQUEST} records.`);
  }
  const names = header.cells.map((name) => name.trim());
  return data.map((row) => csvRecord(names, row.cells));
}

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
