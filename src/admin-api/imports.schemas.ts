import { Type, type Static } from '@sinclair/typebox';
import { MAX_IMPORTS_LISTED } from '../modules/audience/audience.service.js';

const Time = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: `${description} (ISO 8601), or null.` });
const Counts = (description: string) => Type.Record(Type.String(), Type.Integer(), { description });

export const ImportSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Import id, per shop; newer imports have larger ids.' }),
    kind: Type.Literal('audience'),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')], {
      description: 'queued (stored, waiting for a worker, or for a retry), running, done, failed (for good).',
    }),
    received: Type.Integer({ description: 'Records the request carried.' }),
    imported: Type.Integer({ description: 'Records imported so far.' }),
    skipped: Type.Integer({ description: 'Records skipped so far (see errors and skipped_reasons).' }),
    errors: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'Position of the record in `audience`, from 0.' }),
        reason: Type.String({ description: 'no_identifier, not_an_object, invalid_phone …, or stopped (where a failed import stopped).' }),
        message: Type.String(),
      }),
      { description: 'The first 100 skipped records with their reasons; a failed import adds where it stopped.' },
    ),
    started_at: Time('When a worker first took the import'),
    finished_at: Time('When the import ended, done or failed'),
    source: Type.Union([Type.Literal('api'), Type.Literal('cli')], { description: 'POST /import/audience or `patron import audience`.' }),
    segment_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The segment the records were loaded into.' }),
    processed: Type.Integer({ description: 'Records read so far (imported + skipped): where a stopped import stands.' }),
    profiles_created: Type.Integer({ description: 'New profiles; the other imported records went to existing profiles.' }),
    warnings: Type.Array(Type.Object({ index: Type.Integer(), field: Type.String(), message: Type.String() }), {
      description: 'The first 100 fields dropped from imported records (a bad value), with the reason.',
    }),
    skipped_reasons: Counts('Skipped records per reason, all of them.'),
    dropped_fields: Counts('Dropped fields per field name, all of them.'),
    unknown_properties: Counts(
      'Keys that are neither a record field nor a custom property of the shop, with how many records had each (up to 100 codes); not stored.',
    ),
    history: Type.Array(Type.Object({ status: Type.String(), at: Type.String({ format: 'date-time' }) }), {
      description: 'Status changes, oldest first.',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { description: 'One audience import: the "system log" of interface.md endpoint 11.' },
);
export type ImportBody = Static<typeof ImportSchema>;

export const ImportListSchema = Type.Object(
  {
    imports: Type.Array(ImportSchema),
    next_before: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Pass it as `before` for the next (older) page; null when this page is the last.',
    }),
  },
  { description: `The shop's audience imports, newest first, at most ${MAX_IMPORTS_LISTED} a page.` },
);
export type ImportListBody = Static<typeof ImportListSchema>;

export const ImportsQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_IMPORTS_LISTED,
        default: MAX_IMPORTS_LISTED,
        description: `How many of the newest imports to answer: 1 to ${MAX_IMPORTS_LISTED}.`,
      }),
    ),
    before: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Only imports older than this id: the `next_before` of the previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UploadQuerySchema = Type.Object(
  {
    segment_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'The segment to load the records into; an unknown one is 404.' }),
    ),
  },
  { additionalProperties: false },
);
