import { Type, type Static } from '@sinclair/typebox';
import { SEGMENT_NAME_MAX_LENGTH } from '../modules/audience/segments.service.js';
import { ShopIdParam } from './common.schemas.js';

const SegmentId = Type.Integer({ description: 'Segment id: a small integer per shop, what POST /import/audience takes as `segment_id`.' });
const Name = Type.String({ minLength: 1, maxLength: SEGMENT_NAME_MAX_LENGTH, description: 'Display name.' });

export const CreateSegmentBodySchema = Type.Object({ name: Name }, { additionalProperties: false });
export type CreateSegmentBody = Static<typeof CreateSegmentBodySchema>;

export const CreatedSegmentSchema = Type.Object({ id: SegmentId, name: Name }, { description: 'The new segment.' });
export type CreatedSegmentBody = Static<typeof CreatedSegmentSchema>;

export const SegmentSchema = Type.Object(
  { id: SegmentId, name: Name, size: Type.Integer({ minimum: 0, description: 'Profiles in the segment.' }) },
  { description: 'A segment with its size.' },
);
export type SegmentBody = Static<typeof SegmentSchema>;

export const SegmentListSchema = Type.Object({ segments: Type.Array(SegmentSchema) }, { description: 'The segments of the shop, by id.' });
export type SegmentListBody = Static<typeof SegmentListSchema>;

export const SegmentParamsSchema = Type.Object({
  shop_id: ShopIdParam,
  id: Type.String({ description: 'The segment id.' }),
});
export type SegmentParams = Static<typeof SegmentParamsSchema>;
