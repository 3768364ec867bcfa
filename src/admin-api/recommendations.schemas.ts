import { Type, type Static } from '@sinclair/typebox';

/** admin-api.md, Recommendation blocks: the models behind the recommenders. */

export const RebuildQueuedSchema = Type.Object(
  { status: Type.Literal('queued', { description: 'The build is queued; GET …/recommendations/status tells when it is done.' }) },
  { additionalProperties: false },
);

const NullableTime = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const ModelsStatusSchema = Type.Object(
  {
    built_at: NullableTime('When the stored models were built; null before the first build.'),
    building: Type.Boolean({ description: 'A build is running now.' }),
    building_since: NullableTime('When the running build started; null when none runs.'),
    rows_read: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The running build’s progress: orders, views, carts and searches read so far; null when none runs.',
    }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the last build failed, when it did; the models of the build before it still serve.',
    }),
    last_error_at: NullableTime('When the last build failed; null after a build that finished.'),
    orders_read: Type.Integer({ description: 'Orders the last finished build read.' }),
    sessions_read: Type.Integer({ description: 'Sessions with product views the last finished build read.' }),
    items_with_neighbours: Type.Integer({ description: 'Products the last finished build gave also_bought or also_viewed neighbours.' }),
    duration_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'How long the last finished build took.' }),
  },
  { additionalProperties: false },
);
export type ModelsStatusBody = Static<typeof ModelsStatusSchema>;
