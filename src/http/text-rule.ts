import { isUtf8 } from 'node:buffer';
import { AppError } from '../errors.js';
import { describeTextProblem, findValueProblem, type TextProblem } from '../storable-text.js';

export { describeTextProblem, textProblem, type TextProblem } from '../storable-text.js';

/**
 * The one rule for text that enters Patron (docs/input.md): every string of a request —
 * a value or an object key, in the query string, a path, a JSON, form or multipart body —
 * must be storable text. PostgreSQL's text and jsonb cannot hold U+0000, and reject text
 * that is not valid UTF-8; a lone UTF-16 surrogate (`"\ud800"` in JSON) is such text. So
 * both are refused at the edge with 422 naming the field, on both databases alike,
 * instead of failing later inside a query (500) or being stored differently per database.
 *
 * The scopes apply it while they walk their input anyway (public: http/input.ts; admin:
 * one hook over params, query string and body), so it costs one regular expression test
 * per string.
 */

/**
 * The 422 for an unstorable string; `subject` is how the scope names the field (e.g.
 * "Parameter `item_id`"). A name that is itself unstorable is not repeated in the answer.
 */
export function unstorableText(subject: string, field: string, problem: TextProblem): AppError {
  return new AppError('VALIDATION_FAILED', `${subject} ${describeTextProblem(problem)}, which is not allowed.`, { field });
}

/** A request body's bytes as text, and whether they were not UTF-8 (then each bad sequence is U+FFFD). */
export interface DecodedBody {
  readonly text: string;
  readonly notUtf8: boolean;
}

/**
 * Bytes that are not UTF-8 would become U+FFFD silently in a plain decode. They are
 * decoded so, and flagged: once the body is parsed, the parser names the field they
 * were in (invalidBytesError) and refuses it by the rule.
 */
export function decodeBody(bytes: Buffer): DecodedBody {
  return { text: bytes.toString('utf8'), notUtf8: !isUtf8(bytes) };
}

/** The check of decodeBody for a route that reads the bytes itself: the body as a whole. */
export function assertUtf8Body(bytes: Buffer): void {
  if (!isUtf8(bytes)) throw unstorableText('The request body', 'body', 'invalid_utf8');
}

/**
 * The 422 for a parsed body whose bytes were not UTF-8, naming the first field (or name)
 * holding a replacement character; `style` spells the path as the scope does
 * (`items[0][id]` public, `items[0].id` admin).
 */
export function invalidBytesError(value: unknown, style: 'public' | 'admin'): AppError {
  const found = findReplacement(value, '', style, 0);
  const subject = style === 'public' ? 'Parameter' : 'Field';
  if (found === undefined) return unstorableText('The request body', 'body', 'invalid_utf8');
  return found.inName
    ? unstorableText(found.path === '' ? 'A name in the request body' : `A name in \`${found.path}\``, found.path, 'invalid_utf8')
    : unstorableText(`${subject} \`${found.path}\``, found.path, 'invalid_utf8');
}

function findReplacement(
  value: unknown,
  path: string,
  style: 'public' | 'admin',
  depth: number,
): { path: string; inName: boolean } | undefined {
  if (typeof value === 'string') return value.includes('\uFFFD') ? { path, inName: false } : undefined;
  // Parsed bodies are already bounded in depth by the time this runs; the bound is a guard.
  if (typeof value !== 'object' || value === null || depth > MAX_VALUE_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findReplacement(value[i], `${path}[${i}]`, style, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\uFFFD')) return { path, inName: true };
    const childPath = path === '' ? key : style === 'public' ? `${path}[${key}]` : `${path}.${key}`;
    const found = findReplacement(child, childPath, style, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** How the admin scope names a part of the request in messages (as admin-api/validation-message.ts does). */
export type RequestPart = 'params' | 'querystring' | 'body';

const PART_SUBJECTS: Readonly<Record<RequestPart, string>> = {
  params: 'Path parameter',
  querystring: 'Query parameter',
  body: 'Field',
};

/** Deepest nesting accepted in a parsed body by checkStorableValue: deeper is 422, not a stack overflow. */
export const MAX_VALUE_DEPTH = 64;

/**
 * Checks every key and string of an already parsed value (admin params, query string or
 * JSON body) by the rule above, and bounds its nesting (storable-text.ts findValueProblem).
 * Throws the 422 for the first problem.
 */
export function checkStorableValue(value: unknown, part: RequestPart, maxDepth: number = MAX_VALUE_DEPTH): void {
  // Only parsed data is walked: a raw-body route's stream (the feed upload) is not text.
  const found = findValueProblem(value, { maxDepth, walksInto: isParsedRecord });
  if (found === undefined) return;
  if (found.kind === 'too_deep') {
    throw new AppError('VALIDATION_FAILED', `${PART_WHOLE[part]} is nested deeper than ${maxDepth} levels.`, {
      field: found.path,
    });
  }
  const { path, inName, problem } = found.text;
  const subject = PART_SUBJECTS[part];
  if (inName) {
    const where = path === '' ? PART_WHOLE[part].toLowerCase() : `${subject.toLowerCase()} \`${path}\``;
    throw unstorableText(`A name in ${where}`, path, problem);
  }
  throw unstorableText(path === '' ? PART_WHOLE[part] : `${subject} \`${path}\``, path, problem);
}

const PART_WHOLE: Readonly<Record<RequestPart, string>> = {
  params: 'The path',
  querystring: 'The query string',
  body: 'The request body',
};

/**
 * A record a parser built: a plain object, or one without Object.prototype in its chain
 * (the router's params and the query-string parser's result are made by null-prototype
 * constructors).
 */
function isParsedRecord(value: object): boolean {
  let proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return true;
  while (proto !== null) {
    if (proto === Object.prototype) return false;
    proto = Object.getPrototypeOf(proto);
  }
  return true;
}
