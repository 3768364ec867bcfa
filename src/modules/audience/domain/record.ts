import { IDENTIFIER_FIELDS, normalizeIdentifier, type IdentifierKind, type Identifiers } from '../../identity/index.js';
import { describeTextProblem, findUnstorableText } from '../../../storable-text.js';
import { readPropertyValue, type CustomPropertyType, type PropertyValue } from './custom-properties.js';
import { asObject, isAbsent, readBirthday, readFlag, readGender, readInteger, readText, type Read } from './fields.js';
import { readCar, readKid, readList, readPushToken, type Car, type FieldProblem, type Kid, type PushPlatform } from './record-parts.js';

export { MAX_LIST_ENTRIES, PUSH_PLATFORMS, type Car, type FieldProblem, type Kid, type PushPlatform } from './record-parts.js';

/**
 * One audience record (interface.md, "Audience user record") checked and normalised,
 * pure. The decisions per field (docs/audience.md, "Per record: skipped or dropped"):
 * - the record is SKIPPED when it is not an object, has none of email, phone, loyalty_id,
 *   external_id, or one of those four is invalid (an invalid key could put the data on
 *   the wrong person), or any of its names or texts cannot be stored (a NUL, a lone
 *   surrogate: storable-text.ts);
 * - any other bad value DROPS that field (or that kids / auto entry) and the rest is
 *   stored; each drop is reported with its reason;
 * - a key that is neither a field of the table nor a custom property of the shop is
 *   reported as an unknown property and not stored.
 */

export const TEXT_FIELDS = [
  'first_name',
  'middle_name',
  'last_name',
  'location',
  'loyalty_card_location',
  'loyalty_status',
  'fb_id',
  'vk_id',
] as const;
/** The subscription flags of a profile (interface.md, "Audience user record"). */
export const SUBSCRIPTION_FLAGS = [
  'email_bulk',
  'email_chain',
  'email_transactional',
  'sms_bulk',
  'sms_chain',
  'sms_transactional',
] as const;
export type SubscriptionFlag = (typeof SUBSCRIPTION_FLAGS)[number];
export const FLAG_FIELDS = ['bought_something', ...SUBSCRIPTION_FLAGS] as const;
/** Bonus balances of an external programme: whole bonuses, never negative. */
export const MAX_BONUSES = 1_000_000_000;
export const INTEGER_FIELDS = {
  age: [0, 150],
  loyalty_bonuses: [0, MAX_BONUSES],
  loyalty_bonuses_to_next_level: [0, MAX_BONUSES],
} as const;
type TextField = (typeof TEXT_FIELDS)[number];
type FlagField = (typeof FLAG_FIELDS)[number];
type IntegerField = keyof typeof INTEGER_FIELDS;

/** The stored fields, under their contract names; absent = not given. */
export type AudienceFields = Partial<Record<TextField, string>> &
  Partial<Record<FlagField, boolean>> &
  Partial<Record<IntegerField, number>> & {
    gender?: 'm' | 'f';
    birthday?: string;
    kids?: readonly Kid[];
    auto?: readonly Car[];
  };

/** Keys per record; a larger object is not a customer record. */
export const MAX_RECORD_KEYS = 500;

/** The identifiers that make a record importable (interface.md: at least one is required). */
export const KEY_IDENTIFIERS: readonly IdentifierKind[] = ['email', 'phone', 'loyaltyId', 'externalId'];

/** Every name the record table gives a meaning; custom property codes may not take one. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set<string>([
  ...Object.values(IDENTIFIER_FIELDS),
  ...TEXT_FIELDS,
  ...FLAG_FIELDS,
  ...Object.keys(INTEGER_FIELDS),
  'gender',
  'birthday',
  'kids',
  'auto',
  'mobile_token',
  'mobile_token_platform',
]);

export type SkipReason =
  | 'not_an_object'
  | 'too_many_fields'
  | 'no_identifier'
  | 'invalid_email'
  | 'invalid_phone'
  | 'invalid_loyalty_id'
  | 'invalid_external_id'
  | 'invalid_text';

export interface AudienceRecord {
  readonly identifiers: Identifiers;
  readonly fields: AudienceFields;
  readonly properties: Readonly<Record<string, PropertyValue>>;
  readonly pushToken?: { readonly token: string; readonly platform: PushPlatform };
}

export type RecordCheck =
  | { readonly kind: 'skipped'; readonly reason: SkipReason; readonly message: string }
  | {
      readonly kind: 'accepted';
      readonly record: AudienceRecord;
      readonly dropped: readonly FieldProblem[];
      readonly unknown: readonly string[];
    };

export interface RecordContext {
  /** The shop's custom properties: code → type. */
  readonly properties: ReadonlyMap<string, CustomPropertyType>;
  /** YYYY-MM-DD in the shop's time zone: the latest birthday. */
  readonly today: string;
}

export function checkRecord(raw: unknown, context: RecordContext): RecordCheck {
  const input = asObject(raw);
  if (!input) return skip('not_an_object', 'a record must be a JSON object');
  const keys = Object.keys(input);
  if (keys.length > MAX_RECORD_KEYS) return skip('too_many_fields', `a record has at most ${MAX_RECORD_KEYS} fields`);
  // Text no database of ours can store (storable-text.ts): the whole record is skipped,
  // as for an invalid identifier, rather than failing the batch that holds it.
  const unstorable = findUnstorableText(input);
  if (unstorable) {
    const where = unstorable.inName ? `a field name${unstorable.path === '' ? '' : ` in ${unstorable.path}`}` : unstorable.path;
    return skip('invalid_text', `${where} ${describeTextProblem(unstorable.problem)}`);
  }
  const read = readRecordFields(input, context);
  const badKey = read.invalidIdentifiers.find((problem) => problem.kind !== 'telegramId');
  if (badKey) return skip(`invalid_${badKey.field}` as SkipReason, `${badKey.field} ${badKey.reason}`);
  if (!KEY_IDENTIFIERS.some((kind) => read.identifiers[kind] !== undefined)) {
    return skip('no_identifier', 'none of email, phone, loyalty_id, external_id is given');
  }
  const { identifiers, fields, properties, pushToken } = read;
  return {
    kind: 'accepted',
    record: { identifiers, fields, properties, ...(pushToken ? { pushToken } : {}) },
    // An invalid telegram_id only loses itself: it is not a key of the record.
    dropped: [...read.invalidIdentifiers, ...read.dropped].map(({ field, reason }) => ({ field, reason })),
    unknown: read.unknown,
  };
}

/** Every part of a record read on its own, before any rule about the record as a whole. */
export interface RecordFields {
  readonly identifiers: Identifiers;
  /** Given identifiers that are not valid, in the order of KEY_IDENTIFIERS then telegram_id. */
  readonly invalidIdentifiers: readonly (FieldProblem & { readonly kind: IdentifierKind })[];
  readonly fields: AudienceFields;
  readonly properties: Readonly<Record<string, PropertyValue>>;
  readonly pushToken?: { readonly token: string; readonly platform: PushPlatform };
  /** Fields (or kids / auto entries) whose value is bad, with the reason. */
  readonly dropped: readonly FieldProblem[];
  /** Keys that are neither a field of the record table nor a custom property of the shop. */
  readonly unknown: readonly string[];
}

/**
 * Reads every key of a record object by the record table: the audience import (which
 * skips or drops by the rules above) and POST /profile/set (which refuses any problem)
 * share it, so that a field means the same and is checked the same in both.
 */
export function readRecordFields(input: Readonly<Record<string, unknown>>, context: RecordContext): RecordFields {
  const identifiers: Identifiers = {};
  const invalidIdentifiers: (FieldProblem & { kind: IdentifierKind })[] = [];
  for (const kind of [...KEY_IDENTIFIERS, 'telegramId'] as const) {
    const field = IDENTIFIER_FIELDS[kind];
    const value = input[field];
    if (isAbsent(value)) continue;
    const read = readIdentifier(kind, value);
    if (read.ok) identifiers[kind] = read.value;
    else invalidIdentifiers.push({ kind, field, reason: read.reason });
  }

  const dropped: FieldProblem[] = [];
  const fields: Record<string, unknown> = {};
  const properties: Record<string, PropertyValue> = {};
  const unknown: string[] = [];
  for (const key of Object.keys(input)) {
    const value = input[key];
    if (isAbsent(value) || SEPARATE_KEYS.has(key)) continue;
    const reader = FIELD_READERS.get(key);
    if (reader) {
      const read = reader(value, context.today, dropped);
      if (read.ok) fields[key] = read.value;
      else dropped.push({ field: key, reason: read.reason });
      continue;
    }
    const type = context.properties.get(key);
    if (type === undefined) {
      unknown.push(key);
      continue;
    }
    const read = readPropertyValue(type, value);
    if (read.ok) properties[key] = read.value;
    else dropped.push({ field: key, reason: read.reason });
  }

  const pushToken = readPushToken(input, dropped);
  return { identifiers, invalidIdentifiers, fields, properties, ...(pushToken ? { pushToken } : {}), dropped, unknown };
}

/** Keys read apart from the field loop: the identifiers and the push token pair. */
const SEPARATE_KEYS: ReadonlySet<string> = new Set<string>([...Object.values(IDENTIFIER_FIELDS), 'mobile_token', 'mobile_token_platform']);

type FieldReader = (value: unknown, today: string, dropped: FieldProblem[]) => Read<unknown>;

/** The reader of each field of the record table (identifiers and the push token aside). */
const FIELD_READERS: ReadonlyMap<string, FieldReader> = new Map<string, FieldReader>([
  ...TEXT_FIELDS.map((field): [string, FieldReader] => [field, (value) => readText(value)]),
  ...FLAG_FIELDS.map((field): [string, FieldReader] => [field, (value) => readFlag(value)]),
  ...(Object.entries(INTEGER_FIELDS) as [IntegerField, readonly [number, number]][]).map(([field, [min, max]]): [string, FieldReader] => [
    field,
    (value) => readInteger(value, min, max),
  ]),
  ['gender', (value) => readGender(value)],
  ['birthday', (value, today) => readBirthday(value, today)],
  ['kids', (value, today, dropped) => readList(value, dropped, 'kids', (entry) => readKid(entry, today))],
  ['auto', (value, _today, dropped) => readList(value, dropped, 'auto', readCar)],
]);

function skip(reason: SkipReason, message: string): RecordCheck {
  return { kind: 'skipped', reason, message };
}

/** Identity's normal forms (docs/identity.md); a phone or an id may come as a JSON number. */
function readIdentifier(kind: IdentifierKind, value: unknown): Read<string> {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) text = String(value);
  else return { ok: false, reason: 'must be a string' };
  const normalized = normalizeIdentifier(kind, text);
  return normalized.ok ? normalized : { ok: false, reason: `is not valid: ${normalized.reason}` };
}
