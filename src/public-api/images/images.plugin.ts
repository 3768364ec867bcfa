import { Type } from '@sinclair/typebox';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../http/envelopes.js';
import { describeError } from '../../http/http-errors.js';
import { parseThumbnailRef } from '../../modules/images/domain/links.js';

/**
 * GET /images/<shop_id>/<hash>/<size>.jpg: the product thumbnails that
 * `image_url_resized` links to (interface.md, Product). Outside the public API's
 * plumbing (no parameters, envelopes or credentials: an <img> tag sends none), so
 * registered on its own in app.ts.
 *
 * Every miss (a malformed segment, a traversal attempt, an unknown shop, a picture not
 * made yet) answers exactly like an unknown route, so the answer tells nothing about
 * what exists. A thumbnail's path changes whenever its picture link does, so its
 * content never changes: it is cached as immutable.
 */

const JSON_UTF8 = 'application/json; charset=utf-8';
const NOT_FOUND_MESSAGE = 'No endpoint exists at this path.';
const ONE_YEAR_S = 365 * 24 * 3600;

const ParamsSchema = Type.Object({
  shopId: Type.String({ description: 'The shop id (30 hex characters)' }),
  hash: Type.String({ description: 'SHA-256 of the picture link (64 hex characters)' }),
  file: Type.String({ description: '`<size>.jpg`, size one of 120, 140, 160, 180, 200, 220, 310, 520' }),
});

interface ImageParams {
  readonly shopId: string;
  readonly hash: string;
  readonly file: string;
}

export const imagesPlugin: FastifyPluginCallback = (app, _options, done) => {
  app.setErrorHandler((error, request, reply) => {
    const view = describeError(error);
    if (view.internal) request.log.error({ err: error }, 'request failed');
    void reply.code(view.status).type(JSON_UTF8).send(errorBody('status', view.message));
  });

  app.route<{ Params: ImageParams }>({
    // HEAD is served here rather than by Fastify's automatic HEAD route, which would
    // read the whole file to drain it, or answer Content-Length 0 without it.
    method: ['GET', 'HEAD'],
    exposeHeadRoute: false,
    url: '/images/:shopId/:hash/:file',
    schema: {
      tags: ['images'],
      summary: 'A square JPEG thumbnail of a product picture',
      params: ParamsSchema,
    },
    handler: async (request, reply) => {
      const ref = parseThumbnailRef(request.params.shopId, request.params.hash, request.params.file);
      const stored = ref && (await request.server.services.images.findThumbnail(ref));
      if (!stored) return notFound(reply);
      const etag = `"${stored.bytes.toString(16)}-${stored.modifiedAtMs.toString(16)}"`;
      const lastModified = new Date(stored.modifiedAtMs).toUTCString();
      void reply
        .header('cache-control', `public, max-age=${ONE_YEAR_S}, immutable`)
        .header('etag', etag)
        .header('last-modified', lastModified)
        .header('x-content-type-options', 'nosniff');
      if (isNotModified(request, etag, stored.modifiedAtMs)) return reply.code(304).send();
      void reply.type('image/jpeg').header('content-length', String(stored.bytes));
      return request.method === 'HEAD' ? reply.send() : reply.send(stored.open());
    },
  });
  done();
};

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type(JSON_UTF8).send(errorBody('status', NOT_FOUND_MESSAGE));
}

/** RFC 9110 §13.1: If-None-Match wins over If-Modified-Since when both are sent. */
function isNotModified(request: FastifyRequest, etag: string, modifiedAtMs: number): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === etag || tag === '*');
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(modifiedAtMs / 1000) * 1000 <= since;
}
