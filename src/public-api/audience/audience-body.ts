import { AppError } from '../../errors.js';
import { inputFromJsonValue, JSON_MAX_DEPTH, type PublicInput } from '../../http/input.js';

/**
 * The JSON body of POST /import/audience, read without building 100,000 record objects
 * at once: a scanner walks the bytes of the body, checking the whole JSON grammar as it
 * goes (so a body that is not JSON is refused as a whole, 400, like any other public
 * body), and cuts the `audience` elements into chunks of raw JSON text, exactly as sent,
 * which the import stores (modules/audience) and parses one chunk at a time when it runs.
 * The other top-level values are parsed as usual; JSON null counts as absent
 * (http/input.ts) for them, while records are the import's to read.
 */

/** The records of an `audience` array, as stored chunks: each the records' JSON texts separated by commas. */
export class AudienceRecords {
  constructor(
    /** How many records the array holds. */
    readonly count: number,
    /** The records in order, at most `chunkRecords` per chunk; empty when count is over the maximum. */
    readonly chunks: readonly string[],
  ) {}
}

export interface ScanOptions {
  readonly chunkRecords: number;
  /** Beyond this many records, they are only counted (the request gets 413). */
  readonly maxRecords: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function notJson(): AppError {
  return new AppError('BAD_REQUEST', 'The request body is not valid JSON.');
}

function tooDeep(): AppError {
  return new AppError('VALIDATION_FAILED', `The request body is nested deeper than ${JSON_MAX_DEPTH} levels.`, { field: 'body' });
}

/** The characters JSON allows after a backslash (besides u): " \\ / b f n r t. */
const ESCAPES: ReadonlySet<number> = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

function isHex(byte: number | undefined): boolean {
  return byte !== undefined && (isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notJson();
  }
}

/** The body as public input, with `audience` an AudienceRecords when it is an array. */
export function scanAudienceBody(body: Buffer, options: ScanOptions): PublicInput {
  const scanner = new Scanner(body);
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
function scanRecords(scanner: Scanner, options: ScanOptions): AudienceRecords {
  const { body } = scanner;
  const chunks: string[] = [];
  let count = 0;
  let first = 0;
  let last = 0;
  let pending = 0;
  const flush = () => {
    chunks.push(body.toString('utf8', first, last));
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

class Scanner {
  pos = 0;

  constructor(readonly body: Buffer) {}

  atEnd(): boolean {
    return this.pos >= this.body.length;
  }

  byte(): number | undefined {
    return this.body[this.pos];
  }

  skipSpace(): void {
    while (isSpace(this.body[this.pos])) this.pos += 1;
  }

  expect(byte: number): void {
    if (this.body[this.pos] !== byte) throw notJson();
    this.pos += 1;
  }

  /** On a `"`: moves past the closing quote (one not preceded by an odd run of backslashes). */
  skipString(): void {
    let from = this.pos + 1;
    for (;;) {
      const quote = this.body.indexOf(QUOTE, from);
      if (quote === -1) throw notJson();
      let slashes = 0;
      while (this.body[quote - 1 - slashes] === BACKSLASH) slashes += 1;
      if (slashes % 2 === 0) {
        this.pos = quote + 1;
        return;
      }
      from = quote + 1;
    }
  }

  /** Moves past one JSON value, checking its grammar (RFC 8259); `depth` is its nesting. */
  checkValue(depth: number): void {
    const first = this.body[this.pos];
    if (first === QUOTE) return this.checkString();
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      if (depth > JSON_MAX_DEPTH + 1) throw tooDeep();
      const object = first === OPEN_OBJECT;
      const close = object ? CLOSE_OBJECT : CLOSE_ARRAY;
      this.pos += 1;
      this.skipSpace();
      if (this.byte() === close) {
        this.pos += 1;
        return;
      }
      for (;;) {
        if (object) {
          if (this.byte() !== QUOTE) throw notJson();
          this.checkString();
          this.skipSpace();
          this.expect(COLON);
          this.skipSpace();
        }
        this.checkValue(depth + 1);
        this.skipSpace();
        if (this.byte() === COMMA) {
          this.pos += 1;
          this.skipSpace();
          continue;
        }
        this.expect(close);
        return;
      }
    }
    if (first === 0x74) return this.literal('true');
    if (first === 0x66) return this.literal('false');
    if (first === 0x6e) return this.literal('null');
    this.checkNumber();
  }

  /** On a `"`: past the closing quote; escapes must be JSON's, control characters escaped. */
  private checkString(): void {
    const { body } = this;
    let at = this.pos + 1;
    for (;;) {
      const byte = body[at];
      if (byte === undefined || byte < 0x20) throw notJson();
      if (byte === QUOTE) break;
      if (byte === BACKSLASH) {
        const escaped = body[at + 1];
        if (escaped === 0x75) {
          for (let i = 2; i < 6; i += 1) if (!isHex(body[at + i])) throw notJson();
          at += 6;
          continue;
        }
        if (escaped === undefined || !ESCAPES.has(escaped)) throw notJson();
        at += 2;
        continue;
      }
      at += 1;
    }
    this.pos = at + 1;
  }

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  private checkNumber(): void {
    const { body } = this;
    let at = this.pos;
    if (body[at] === 0x2d) at += 1;
    if (body[at] === 0x30) at += 1;
    else if (isDigit(body[at]) && body[at] !== 0x30) while (isDigit(body[at])) at += 1;
    else throw notJson();
    if (body[at] === 0x2e) {
      at += 1;
      if (!isDigit(body[at])) throw notJson();
      while (isDigit(body[at])) at += 1;
    }
    if (body[at] === 0x65 || body[at] === 0x45) {
      at += 1;
      if (body[at] === 0x2b || body[at] === 0x2d) at += 1;
      if (!isDigit(body[at])) throw notJson();
      while (isDigit(body[at])) at += 1;
    }
    this.pos = at;
  }

  private literal(word: string): void {
    for (let i = 0; i < word.length; i += 1) if (this.body[this.pos + i] !== word.charCodeAt(i)) throw notJson();
    this.pos += word.length;
  }

  /**
   * Moves past one value without checking it: a string, an object or array (brackets
   * counted, strings skipped), or a scalar (up to the next separator). For records past
   * the maximum, whose request is refused anyway.
   */
  skipValue(depth: number): void {
    const first = this.body[this.pos];
    if (first === QUOTE) return this.skipString();
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let level = 0;
      while (this.pos < this.body.length) {
        const byte = this.body[this.pos] as number;
        if (byte === QUOTE) {
          this.skipString();
          continue;
        }
        if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
          level += 1;
          if (depth + level > JSON_MAX_DEPTH + 1) throw tooDeep();
        } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
          level -= 1;
          if (level === 0) {
            this.pos += 1;
            return;
          }
        }
        this.pos += 1;
      }
      throw notJson();
    }
    const start = this.pos;
    while (this.pos < this.body.length) {
      const byte = this.body[this.pos];
      if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) break;
      this.pos += 1;
    }
    if (this.pos === start) throw notJson();
  }
}
