import type { PublicInput } from '../../http/input.js';
import { validationError } from '../../http/readers.js';
import { IDENTIFIER_FIELDS } from '../../modules/identity/domain/identifiers.js';
import { interpretSource, type RecommendedBy } from '../../modules/tracking/domain/source.js';
import type { EventIdentifiers } from '../../modules/tracking/tracking.types.js';
import { IDENTIFIER_KIND_OF, readCustomerIdentifiers } from '../common/identity.params.js';

/** Parameters shared by POST /push and POST /push/custom: optional texts, the event's identifiers and `source`. */

export interface TextOptions {
  readonly maxLength: number;
  /** Accept a JSON number as its decimal text (ids such as order_id are often numbers in JSON). */
  readonly numbers?: boolean;
}

/**
 * An optional free-text parameter where an empty value means "not given" (order_id,
 * delivery_type, payment_type of POST /push; category and label of /push/custom).
 * Arrays, objects and booleans are 422 naming the parameter.
 */
export function readOptionalText(input: PublicInput, name: string, options: TextOptions): string | undefined {
  let value = input[name];
  if (options.numbers && typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw validationError(name, 'must be a string');
  if (value.length > options.maxLength) throw validationError(name, `must be at most ${options.maxLength} characters`);
  return value;
}

/** The customer identifiers of an event (readCustomerIdentifiers) under the contract's names, as events store them. */
export function readIdentifiers(input: PublicInput): EventIdentifiers {
  const identifiers = readCustomerIdentifiers(input);
  const out: { -readonly [K in keyof EventIdentifiers]: EventIdentifiers[K] } = {};
  for (const [kind, field] of IDENTIFIER_KIND_OF) {
    const value = identifiers[kind];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** For messages: the contract names of the identifier kinds. */
export const IDENTIFIER_PARAMETERS: readonly string[] = Object.values(IDENTIFIER_FIELDS);

export const SOURCE_NOT_VALID = 'must be a JSON object with `code` and `from`, or a string holding one';

/**
 * `source` of POST /push and POST /push/custom (interface.md, Events, source rules 1-3):
 * absent, undefined; applied, the two attribution fields (the code cut at
 * `maxCodeLength`); ignored, both null; an empty string or text that is not JSON, 422.
 */
export function readSource(
  input: PublicInput,
  maxCodeLength: number,
): { recommendedBy: RecommendedBy | null; recommendedCode: string | null } | undefined {
  if (input.source === undefined) return undefined;
  const outcome = interpretSource(input.source);
  if (outcome.kind === 'invalid') throw validationError('source', SOURCE_NOT_VALID);
  if (outcome.kind === 'ignored') return { recommendedBy: null, recommendedCode: null };
  return { recommendedBy: outcome.recommendedBy, recommendedCode: outcome.recommendedCode.slice(0, maxCodeLength) };
}
