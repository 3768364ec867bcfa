import { AppError } from '../../errors.js';
import { inputFromJsonValue, type PublicInput } from '../../http/input.js';
import { textProblem, unstorableText } from '../../http/text-rule.js';
import type { RecordChunk } from '../../modules/audience/domain/chunks.js';
import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  JsonScanner,
  notJson,
  OPEN_ARRAY,
  OPEN_OBJECT,
  parseJson,
  QUOTE,
} from './json-scanner.js';

/**
 * The JSON body of POST /import/audience, read without building 100,000 record objects
 * at once: a scanner walks the bytes of the body, checking the whole JSON grammar as it
 * goes (so a body that is not JSON is refused as a whole, 400, like any other public
 * body), and cuts the `audience` elements into chunks: views of the body's bytes, exactly
 * as sent, which the import stores (modules/audience) and parses one chunk at a time
 * when it runs.
 * The other top-level values are parsed as usual; JSON null counts as absent
 * (http/input.ts) for them, while records are the import's to read.
 */

/** The records of an `audience` array, as stored chunks: each the records' JSON texts separated by commas. */
export class AudienceRecords {
  constructor(
    /** How many records the array holds. */
    readonly count: number,
    /** The records in order (modules/audience/domain/chunks.ts); empty when count is over the maximum. */
    readonly chunks: readonly RecordChunk[],
  ) {}
}

export interface ScanOptions {
  readonly chunkRecords: number;
  /** A chunk ends before the record that would take its text past this many bytes. */
  readonly chunkBytes: number;
  /** Beyond this many records, they are only counted (the request gets 413). */
  readonly maxRecords: number;
}

/** The body as public input, with `audience` an AudienceRecords when it is an array. */
export function scanAudienceBody(body: Buffer, options: ScanOptions): PublicInput {
  const scanner = new JsonScanner(body);
  // A UTF-8 byte order mark, which some tools write before JSON.
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) scanner.pos = 3;
  scanner.skipSpace();
  if (scanner.atEnd()) return {};
  if (scanner.byte() !== OPEN_OBJECT) {
    parseJson(body.toString('utf8', scanner.pos));
    throw new AppError('VALIDATION_FAILED', 'The request body must be a JSON object.', { field: 'body' });
  }
  scanner.pos += 1;
  scanner.skipSpace();
  const input: PublicInput = {};
  if (scanner.byte() === CLOSE_OBJECT) scanner.pos += 1;
  else {
    for (;;) {
      if (scanner.byte() !== QUOTE) throw notJson();
      const keyStart = scanner.pos;
      scanner.skipString();
      const key = parseJson(body.toString('utf8', keyStart, scanner.pos)) as string;
      // The text rule of every input (http/text-rule.ts), for the names this scanner reads itself.
      const keyProblem = textProblem(key);
      if (keyProblem) throw unstorableText('A parameter name', '', keyProblem);
      scanner.skipSpace();
      scanner.expect(COLON);
      scanner.skipSpace();
      if (scanner.atEnd()) throw notJson();
      if (key === 'audience' && scanner.byte() === OPEN_ARRAY) {
        input.audience = scanRecords(scanner, options);
      } else {
        const valueStart = scanner.pos;
        scanner.checkValue(1);
        const value = parseJson(body.toString('utf8', valueStart, scanner.pos));
        // Later keys win, as in JSON.parse; null is absent; __proto__ is never a parameter.
        delete input[key];
        if (value !== null && key !== '__proto__') input[key] = inputFromJsonValue(key, value);
      }
      scanner.skipSpace();
      if (scanner.byte() === COMMA) {
        scanner.pos += 1;
        scanner.skipSpace();
        continue;
      }
      scanner.expect(CLOSE_OBJECT);
      break;
    }
  }
  scanner.skipSpace();
  if (!scanner.atEnd()) throw notJson();
  return input;
}

/** The scanner is on `[`; it ends after the matching `]`. */
function scanRecords(scanner: JsonScanner, options: ScanOptions): AudienceRecords {
  const { body } = scanner;
  const chunks: RecordChunk[] = [];
  let count = 0;
  let first = 0;
  let last = 0;
  let pending = 0;
  const flush = () => {
    chunks.push({ body: body.subarray(first, last), records: pending });
    pending = 0;
  };

  scanner.pos += 1;
  scanner.skipSpace();
  if (scanner.byte() === CLOSE_ARRAY) {
    scanner.pos += 1;
    return new AudienceRecords(0, []);
  }
  for (;;) {
    const start = scanner.pos;
    // Beyond the maximum the request is refused anyway (413): only the boundaries matter.
    if (count < options.maxRecords) scanner.checkValue(2);
    else scanner.skipValue(2);
    count += 1;
    if (count <= options.maxRecords) {
      if (pending > 0 && scanner.pos - first > options.chunkBytes) flush();
      if (pending === 0) first = start;
      last = scanner.pos;
      pending += 1;
      if (pending === options.chunkRecords) flush();
    }
    scanner.skipSpace();
    if (scanner.byte() === COMMA) {
      scanner.pos += 1;
      scanner.skipSpace();
      continue;
    }
    scanner.expect(CLOSE_ARRAY);
    break;
  }
  if (count > options.maxRecords) return new AudienceRecords(count, []);
  if (pending > 0) flush();
  return new AudienceRecords(count, chunks);
}
