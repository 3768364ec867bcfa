import type { FastifyPluginAsyncTypebox, FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import type { FeedImportRecord, FeedImportResult, FeedStatus } from '../modules/catalog/catalog.types.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  FeedImportListSchema,
  FeedImportResultSchema,
  FeedImportsQuerySchema,
  FeedPatchSchema,
  FeedStatusSchema,
  JsonFeedSchema,
  type FeedImportRecordBody,
  type FeedImportResultBody,
  type FeedStatusBody,
} from './feed.schemas.js';

const tags = ['feed'];
const XML_TYPES = ['application/xml', 'text/xml'];

/**
 * admin-api.md, Product feed. The upload (PUT) lives in its own encapsulated plugin: its
 * body parsers hand the raw request stream to the import, which reads it as it arrives
 * (a feed may be far larger than any body Fastify would buffer), so the JSON parser of the
 * admin scope is replaced there and nowhere else.
 */
export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(feedUploadRoutes);
  await app.register(feedSettingsRoutes);
};

const feedUploadRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const limit = app.services.catalog.maxFeedBytes;
  app.removeContentTypeParser('application/json');
  // The stream is the body: size is enforced while the import reads (config PATRON_FEED_MAX_BYTES).
  app.addContentTypeParser([...XML_TYPES, 'application/json'], (_request, payload, parsed) => parsed(null, payload));

  app.put(
    '/shops/:shop_id/feed',
    {
      // The body is a stream read by the import, not an object to validate; the schemas
      // below document it. Params are one string, checked by the service.
      validatorCompiler: () => () => true,
      schema: {
        tags,
        summary: 'Replace the catalog with a product feed (YML or JSON)',
        description:
          'YML (`application/xml` or `text/xml`) or the same content as JSON (`application/json`), streamed. ' +
          'Answers once the new catalog is served; products absent from the feed are removed. A malformed ' +
          `feed answers 422 and the previous catalog stays served. At most PATRON_FEED_MAX_BYTES (now ${limit}) bytes.`,
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: {
          content: {
            'application/json': { schema: JsonFeedSchema },
            'application/xml': { schema: Type.String({ description: 'A YML document (yml_catalog).' }) },
            'text/xml': { schema: Type.String({ description: 'A YML document (yml_catalog).' }) },
          },
        },
        response: withErrors({ 200: FeedImportResultSchema }, [404, 409, 413, 415]),
      },
    },
    async (request) => {
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) {
        throw new AppError('PAYLOAD_TOO_LARGE', `The feed is larger than ${limit} bytes.`);
      }
      const type = request.headers['content-type'] ?? '';
      // Without a body Fastify runs no parser and the body is undefined: say what to send.
      if (request.body === undefined || request.body === null) {
        if (type === '') {
          throw new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            'The feed must be sent as the body, with Content-Type application/xml, text/xml or application/json.',
          );
        }
        throw new AppError('VALIDATION_FAILED', 'The request has no feed: send the feed document as the body.', { field: 'feed' });
      }
      const result = await app.services.catalog.importFeed({
        shopId: request.params.shop_id,
        format: /^application\/json\b/i.test(type) ? 'json' : 'yml',
        body: request.body as Readable,
        source: 'admin',
        maxBytes: limit,
        ...charsetOf(type),
      });
      return toResultBody(result);
    },
  );
  done();
};

const feedSettingsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const catalog = app.services.catalog;

  app.get(
    '/shops/:shop_id/feed',
    {
      schema: {
        tags,
        summary: "The shop's feed: URL, schedule, served generation and last import",
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: FeedStatusSchema }, [404]),
      },
    },
    async (request) => toStatusBody(await catalog.getFeed(request.params.shop_id)),
  );

  app.patch(
    '/shops/:shop_id/feed',
    {
      schema: {
        tags,
        summary: 'Set the feed URL fetched on a schedule, and its interval',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: FeedPatchSchema,
        response: withErrors({ 200: FeedStatusSchema }, [404, 415]),
      },
    },
    async (request) => {
      const body = request.body;
      const status = await catalog.updateFeed(request.params.shop_id, {
        ...(body.feed_url !== undefined ? { feedUrl: body.feed_url } : {}),
        ...(body.refresh_minutes !== undefined ? { refreshMinutes: body.refresh_minutes } : {}),
      });
      return toStatusBody(status);
    },
  );

  app.get(
    '/shops/:shop_id/feed/imports',
    {
      schema: {
        tags,
        summary: 'The import log, newest first',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        querystring: FeedImportsQuerySchema,
        response: withErrors({ 200: FeedImportListSchema }, [404]),
      },
      // The app validates without coercion and a query string is text: a decimal limit
      // becomes a number here; anything else stays text for the schema to refuse.
      preValidation: (request, _reply, next) => {
        const query = request.query as Record<string, unknown>;
        for (const name of ['limit', 'before']) {
          const value = query[name];
          if (typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value)) query[name] = Number(value);
        }
        next();
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 20;
      const page = await catalog.listImports(request.params.shop_id, limit, request.query.before);
      const last = page.at(-1);
      return { imports: page.map(toRecordBody), next_before: page.length === limit && last !== undefined ? last.generation : null };
    },
  );
  done();
};

function charsetOf(contentType: string): { charset?: string } {
  const match = /;\s*charset\s*=\s*"?([A-Za-z0-9._-]{1,40})"?/i.exec(contentType);
  return match?.[1] ? { charset: match[1].toLowerCase() } : {};
}

function iso(ms: number): string;
function iso(ms: number | null): string | null;
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function toResultBody(result: FeedImportResult): FeedImportResultBody {
  return {
    products: result.products,
    categories: result.categories,
    locations: result.locations,
    skipped: result.skipped.map((s) => ({ id: s.id, reason: s.reason })),
  };
}

function toRecordBody(record: FeedImportRecord): FeedImportRecordBody {
  return {
    generation: record.generation,
    source: record.source,
    status: record.status,
    products: record.products,
    categories: record.categories,
    locations: record.locations,
    skipped_count: record.skippedCount,
    skipped: record.skipped.map((s) => ({ id: s.id, reason: s.reason })),
    error: record.error,
    started_at: iso(record.startedAt),
    finished_at: iso(record.finishedAt),
  };
}

function toStatusBody(status: FeedStatus): FeedStatusBody {
  return {
    feed_url: status.feedUrl,
    refresh_minutes: status.refreshMinutes,
    generation: status.generation,
    landed_at: iso(status.landedAt),
    next_fetch_at: iso(status.nextFetchAt),
    last_import: status.lastImport ? toRecordBody(status.lastImport) : null,
  };
}
