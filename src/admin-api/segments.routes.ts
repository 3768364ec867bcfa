import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Segment } from '../modules/audience/audience.types.js';
import { AppError } from '../errors.js';
import { ADMIN_SECURITY, ShopIdParamsSchema, withErrors } from './common.schemas.js';
import {
  CreatedSegmentSchema,
  CreateSegmentBodySchema,
  SegmentListSchema,
  SegmentParamsSchema,
  SegmentSchema,
  type SegmentBody,
} from './segments.schemas.js';

const tags = ['segments'];

/** admin-api.md, Segments: what POST /import/audience loads into (`segment_id`). */
export const segmentsRoutes: FastifyPluginCallbackTypebox = (app, _options, done) => {
  const segments = app.services.segments;

  app.post(
    '/shops/:shop_id/segments',
    {
      schema: {
        tags,
        summary: 'Create a segment',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        body: CreateSegmentBodySchema,
        response: withErrors({ 201: CreatedSegmentSchema }, [404, 415]),
      },
    },
    async (request, reply) => {
      const segment = await segments.createSegment(request.params.shop_id, request.body);
      return reply.code(201).send({ id: segment.id, name: segment.name });
    },
  );

  app.get(
    '/shops/:shop_id/segments',
    {
      schema: {
        tags,
        summary: 'List segments with their sizes',
        security: ADMIN_SECURITY,
        params: ShopIdParamsSchema,
        response: withErrors({ 200: SegmentListSchema }, [404]),
      },
    },
    async (request) => ({ segments: (await segments.listSegments(request.params.shop_id)).map(toSegmentBody) }),
  );

  app.get(
    '/shops/:shop_id/segments/:id',
    {
      schema: {
        tags,
        summary: 'Read a segment and its size',
        security: ADMIN_SECURITY,
        params: SegmentParamsSchema,
        response: withErrors({ 200: SegmentSchema }, [404]),
      },
    },
    async (request) => toSegmentBody(await segments.getSegment(request.params.shop_id, segmentId(request.params.id))),
  );

  app.delete(
    '/shops/:shop_id/segments/:id',
    {
      schema: {
        tags,
        summary: 'Delete a segment',
        description: 'Its profiles stay; they only leave the segment. An import still running into it goes on without it.',
        security: ADMIN_SECURITY,
        params: SegmentParamsSchema,
        response: withErrors({ 204: Type.Null({ description: 'Deleted.' }) }, [404]),
      },
    },
    async (request, reply) => {
      await segments.deleteSegment(request.params.shop_id, segmentId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  done();
};

/** A path id that is not a positive integer names no segment: 404, as a malformed shop_id does. */
function segmentId(raw: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new AppError('NOT_FOUND', 'The segment does not exist.');
  return Number(raw);
}

function toSegmentBody(segment: Segment): SegmentBody {
  return { id: segment.id, name: segment.name, size: segment.size };
}
