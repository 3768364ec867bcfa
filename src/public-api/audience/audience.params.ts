import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { validationError } from '../../http/readers.js';
import { toChunks, type RecordChunk } from '../../modules/audience/domain/chunks.js';
import { MAX_RECORDS_PER_REQUEST } from '../../modules/audience/domain/limits.js';
import { AudienceRecords } from './audience-body.js';

/**
 * POST /import/audience (interface.md endpoint 11) mapped to the audience service's
 * input, after the credentials: `audience` (required, an array of at most 100,000
 * records: more is 413), then `segment_id` (an integer; whether the segment exists is the
 * service's answer, 404). Records themselves are checked when the import runs.
 */

export interface AudienceImportRequest {
  readonly chunks: readonly RecordChunk[];
  readonly segmentId?: number;
}

export function toAudienceImportRequest(input: PublicInput): AudienceImportRequest {
  const chunks = readAudience(input.audience);
  const segmentId = readSegmentId(input.segment_id);
  return { chunks, ...(segmentId === undefined ? {} : { segmentId }) };
}

function tooMany(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Parameter \`audience\` must hold at most ${MAX_RECORDS_PER_REQUEST} records.`, {
    field: 'audience',
  });
}

function readAudience(value: unknown): RecordChunk[] {
  if (value === undefined) throw validationError('audience', 'is required');
  // A JSON body: the records as the scanner cut them (audience-body.ts).
  if (value instanceof AudienceRecords) {
    if (value.count > MAX_RECORDS_PER_REQUEST) throw tooMany();
    return [...value.chunks];
  }
  // A form body (`audience[][email]=…`): already parsed, and bounded by the form limits.
  if (!Array.isArray(value)) throw validationError('audience', 'must be an array');
  if (value.length > MAX_RECORDS_PER_REQUEST) throw tooMany();
  return toChunks(value);
}

/** An integer, or a string of digits from a form; absent or empty: no segment. */
function readSegmentId(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw validationError('segment_id', 'must be an integer');
  return n;
}
