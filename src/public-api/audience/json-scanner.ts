import { AppError } from '../../errors.js';
import { JSON_MAX_DEPTH } from '../../http/input.js';

/**
 * A JSON scanner over the bytes of a body (UTF-8): it moves past values, checking their
 * grammar (RFC 8259) without building them, so that a large body is validated without
 * the objects JSON.parse would make. Multi-byte characters need no decoding: every byte
 * of one is above 0x7F, and JSON's structure is ASCII.
 */

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

export function notJson(): AppError {
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

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notJson();
  }
}

export class JsonScanner {
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
