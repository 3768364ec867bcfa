import { AppError } from '../../errors.js';
import type { PublicInput } from '../../http/input.js';
import { validationError } from '../../http/readers.js';
import { isValidDeviceId, normalizeIdentifiers, type IdentifierKind } from '../../modules/identity/domain/identifiers.js';
import { isValidSliderCode, MAX_TAG_LENGTH } from '../../modules/sliders/domain/slider.js';
import { DEVICE_ID_NOT_VALID, IDENTIFIER_NOT_VALID } from '../common/identity.params.js';

/**
 * GET /slider (interface.md endpoint 10) mapped to the sliders service's input. Checked
 * in the order of the endpoint's parameter list, after the shop: code, the identifier
 * group, tags. Every failure is 422 (contract-notes, "Secrets and errors": a missing or
 * malformed parameter); whether the code names a slider is the service's answer (404).
 * A GET has no body, so every value is a query-string string, or a list or an object
 * from bracket notation.
 */

/** The contract's sentence for a code that names no slider (interface.md, "Errors"). */
export const INVALID_SLIDER_CODE = 'Invalid slider code';

/** Bounds of our own on `tags`: a client asks for a few tags, never for thousands. */
export const MAX_REQUEST_TAGS = 50;
export const MAX_TAGS_PARAMETER_LENGTH = 4000;

export interface SliderRequest {
  readonly code: string;
  /** undefined: no filter (absent, or nothing but commas and spaces). */
  readonly tags: readonly string[] | undefined;
}

export function toSliderRequest(input: PublicInput): SliderRequest {
  const code = readCode(input);
  checkIdentified(input);
  return { code, tags: readTags(input) };
}

function readCode(input: PublicInput): string {
  const value = input.code;
  if (value === undefined || value === '') throw validationError('code', 'is required');
  if (typeof value !== 'string' || !isValidSliderCode(value)) throw notValid('code');
  return value;
}

/** The identifier group of GET /slider, in the contract's names. */
const SLIDER_IDENTIFIERS: ReadonlyArray<readonly [IdentifierKind, string]> = [
  ['email', 'email'],
  ['phone', 'phone'],
  ['externalId', 'external_id'],
];

/**
 * did, email, phone or external_id: at least one, each well-formed by the identity
 * module's rules (docs/identity.md, "Identifiers"). They are only checked: reading a
 * slider records nothing about the visitor (docs/sliders.md). Empty values count as
 * absent, as on /push/custom: SDKs send the fields they do not know as empty strings.
 */
function checkIdentified(input: PublicInput): void {
  let given = false;
  const did = input.did;
  if (did !== undefined && did !== '') {
    if (typeof did !== 'string' || !isValidDeviceId(did)) {
      throw new AppError('VALIDATION_FAILED', DEVICE_ID_NOT_VALID, { field: 'did' });
    }
    given = true;
  }
  const raw: Partial<Record<IdentifierKind, string>> = {};
  for (const [kind, field] of SLIDER_IDENTIFIERS) {
    const value = input[field];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw notValid(field);
    raw[kind] = value;
    given = true;
  }
  const normalized = normalizeIdentifiers(raw);
  if (!normalized.ok) throw notValid(normalized.field);
  if (!given) throw new AppError('VALIDATION_FAILED', IDENTIFIER_NOT_VALID, { field: 'did' });
}

/**
 * `tags`: comma-separated (`men,sale`), or as a list (`tags[]=men&tags[]=sale`, a JSON
 * array), whose elements may be comma-separated too. Each tag is trimmed; empty ones are
 * dropped.
 */
function readTags(input: PublicInput): readonly string[] | undefined {
  const value = input.tags;
  if (value === undefined) return undefined;
  const parts = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(parts) || !parts.every((part): part is string => typeof part === 'string')) {
    throw validationError('tags', 'must be a comma-separated list of tags');
  }
  if (parts.reduce((length, part) => length + part.length + 1, 0) > MAX_TAGS_PARAMETER_LENGTH) {
    throw validationError('tags', `must be at most ${MAX_TAGS_PARAMETER_LENGTH} characters long`);
  }
  const tags = parts
    .flatMap((part) => part.split(','))
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length > MAX_REQUEST_TAGS) throw validationError('tags', `must hold at most ${MAX_REQUEST_TAGS} tags`);
  if (tags.some((tag) => tag.length > MAX_TAG_LENGTH)) {
    throw validationError('tags', `must hold tags of at most ${MAX_TAG_LENGTH} characters`);
  }
  return tags.length === 0 ? undefined : tags;
}

function notValid(field: string): AppError {
  return new AppError('VALIDATION_FAILED', `Parameter \`${field}\` is not valid.`, { field });
}
