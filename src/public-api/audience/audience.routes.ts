import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { statusSuccess } from '../../http/envelopes.js';
import { assertUtf8Body } from '../../http/text-rule.js';
import { AUDIENCE_BODY_LIMIT, CHUNK_BYTES, CHUNK_RECORDS, MAX_RECORDS_PER_REQUEST } from '../../modules/audience/domain/limits.js';
import { authenticatedShop } from '../auth.js';
import type { PublicRouteModule } from '../types.js';
import { noSchemaValidation } from '../common/route-compilers.js';
import { StatusOkSchema, statusResponses } from '../common/envelopes.schemas.js';
import { readBoundedBody } from './audience-body-reader.js';
import { scanAudienceBody } from './audience-body.js';
import { toAudienceImportRequest } from './audience.params.js';
import { AUDIENCE_TAGS, ImportAudienceBodySchema } from './audience.schemas.js';

const JSON_TYPES = ['application/json', 'text/plain'];

/**
 * POST /import/audience (interface.md endpoint 11): shop_id and shop_secret, the status
 * envelope. The answer comes once the records are stored durably as a queued import; an
 * `audience.import` job imports them (modules/audience).
 *
 * This route module has its own JSON parser (a child context of the public scope, so no
 * other route sees it): the body may be far larger than PATRON_BODY_LIMIT, up to
 * AUDIENCE_BODY_LIMIT, and is cut into chunks of raw records rather than parsed whole
 * (audience-body.ts). Form bodies keep the scope's parser and limits. The other
 * parameters follow the text rule of every input (http/text-rule.ts); a record holding
 * text that cannot be stored is skipped with its reason when the import runs.
 */
export const audienceRoutes: PublicRouteModule = (scope) => {
  const audience = scope.services.audience;
  const bodyLimit = Math.max(scope.initialConfig.bodyLimit ?? 0, AUDIENCE_BODY_LIMIT);

  scope.removeContentTypeParser(JSON_TYPES);
  scope.addContentTypeParser(JSON_TYPES, async (request: FastifyRequest, payload: IncomingMessage) => {
    const body = await readBoundedBody(payload, request.headers['content-length'], bodyLimit);
    assertUtf8Body(body);
    return scanAudienceBody(body, { chunkRecords: CHUNK_RECORDS, chunkBytes: CHUNK_BYTES, maxRecords: MAX_RECORDS_PER_REQUEST });
  });

  scope.post(
    '/import/audience',
    {
      config: { envelope: 'status', auth: 'shop+secret' },
      validatorCompiler: noSchemaValidation,
      schema: {
        tags: AUDIENCE_TAGS,
        summary: 'Import customers (audience), optionally into a segment',
        description:
          'Answers `{"status":"success"}` as soon as the records are stored; they are imported in the background ' +
          'and the outcome is in the import log. `audience` not an array: 422; more than ' +
          `${MAX_RECORDS_PER_REQUEST} records or a body over the limit: 413; an unknown segment_id: 404.`,
        body: ImportAudienceBodySchema,
        response: statusResponses(StatusOkSchema),
      },
    },
    async (request) => {
      const shop = authenticatedShop(request);
      const { chunks, segmentId } = toAudienceImportRequest(request.input);
      await audience.submitImport(shop.shopId, { chunks, ...(segmentId === undefined ? {} : { segmentId }) });
      return statusSuccess();
    },
  );
};
