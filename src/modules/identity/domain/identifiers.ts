/**
 * Customer identifiers and their normal forms (contract-notes.md, "Identifiers"): phones
 * become `7XXXXXXXXXX`, emails are trimmed and lower-cased, so that the same person
 * written two ways is one key. Pure: no I/O.
 */

/** The identifier kinds a profile holds, in priority order (highest first). */
export const IDENTIFIER_KINDS = ['externalId', 'loyaltyId', 'email', 'phone', 'telegramId'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** The contract's parameter name of each kind, used in messages and merge reasons. */
export const IDENTIFIER_FIELDS = {
  externalId: 'external_id',
  loyaltyId: 'loyalty_id',
  email: 'email',
  phone: 'phone',
  telegramId: 'telegram_id',
} as const satisfies Record<IdentifierKind, string>;
export type IdentifierField = (typeof IDENTIFIER_FIELDS)[IdentifierKind];

/** Some identifiers of one person, already normalised. */
export type Identifiers = Partial<Record<IdentifierKind, string>>;

/** The identifier slots of one profile; null is an empty slot. */
export type IdentifierSlots = Readonly<Record<IdentifierKind, string | null>>;

export const EMPTY_SLOTS: IdentifierSlots = {
  externalId: null,
  loyaltyId: null,
  email: null,
  phone: null,
  telegramId: null,
};

export type Normalized = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

const PHONE_SEPARATORS = /[\s+\-().]/g;
const DIGITS = /^[0-9]+$/;

/**
 * Russian numbers in every usual spelling become `7XXXXXXXXXX`: a leading 8 is the
 * domestic trunk prefix of +7, and ten digits are a number written without it. Other
 * lengths from 11 to 15 digits (E.164's maximum) are taken as international numbers.
 */
export function normalizePhone(raw: string): Normalized {
  const digits = raw.replace(PHONE_SEPARATORS, '');
  if (!DIGITS.test(digits)) {
    return { ok: false, reason: digits === '' ? 'empty' : 'only digits, spaces, +, -, dots and parentheses are allowed' };
  }
  if (digits.length === 11 && digits.startsWith('8')) return { ok: true, value: `7${digits.slice(1)}` };
  if (digits.length === 10) return { ok: true, value: `7${digits}` };
  if (digits.length >= 11 && digits.length <= 15) return { ok: true, value: digits };
  return { ok: false, reason: 'a phone has 10 to 15 digits' };
}

export const EMAIL_MAX_LENGTH = 254;
/** local@domain.tld: no white space or control characters, no empty domain labels. */
const EMAIL_PATTERN = /^[^\s@\p{Cc}]{1,64}@[^\s@.\p{Cc}]+(\.[^\s@.\p{Cc}]+)+$/u;

export function normalizeEmail(raw: string): Normalized {
  const value = raw.trim().toLowerCase();
  if (value.length > EMAIL_MAX_LENGTH) return { ok: false, reason: `an email has at most ${EMAIL_MAX_LENGTH} characters` };
  if (!EMAIL_PATTERN.test(value)) return { ok: false, reason: 'an email looks like name@domain.tld' };
  return { ok: true, value };
}

export const IDENTIFIER_MAX_LENGTH = 255;

/** external_id, loyalty_id and telegram_id are opaque to us: trimmed, 1 to 255 characters. */
export function normalizeOpaqueIdentifier(raw: string): Normalized {
  const value = raw.trim();
  if (value === '') return { ok: false, reason: 'empty' };
  if (value.length > IDENTIFIER_MAX_LENGTH) {
    return { ok: false, reason: `an identifier has at most ${IDENTIFIER_MAX_LENGTH} characters` };
  }
  return { ok: true, value };
}

export function normalizeIdentifier(kind: IdentifierKind, raw: string): Normalized {
  switch (kind) {
    case 'email':
      return normalizeEmail(raw);
    case 'phone':
      return normalizePhone(raw);
    default:
      return normalizeOpaqueIdentifier(raw);
  }
}

export type NormalizedIdentifiers =
  | { readonly ok: true; readonly value: Identifiers }
  | { readonly ok: false; readonly field: string; readonly reason: string };

/** Normalises every given identifier; the first invalid one (in priority order) is reported. */
export function normalizeIdentifiers(raw: Partial<Record<IdentifierKind, string | null | undefined>>): NormalizedIdentifiers {
  const value: Identifiers = {};
  for (const kind of IDENTIFIER_KINDS) {
    const given = raw[kind];
    if (given === undefined || given === null) continue;
    const result = normalizeIdentifier(kind, given);
    if (!result.ok) return { ok: false, field: IDENTIFIER_FIELDS[kind], reason: result.reason };
    value[kind] = result.value;
  }
  return { ok: true, value };
}

/**
 * Device ids (`did`): 8 to 64 characters of [A-Za-z0-9-] (contract-notes, "Identifiers").
 * The ids Patron issues are 10 letters or digits, but SDKs also bring their own: an
 * Android ID (16 hex characters) or a UUID (36 characters with hyphens). The one did
 * rule: every place that checks a did calls this.
 */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;
export const DEVICE_ID_PATTERN_TEXT = '^[A-Za-z0-9-]{8,64}$';

export function isValidDeviceId(value: string): boolean {
  return DEVICE_ID_PATTERN.test(value);
}

/** Session ids (`sid`, `seance`): exactly 10 characters of [A-Za-z0-9] (contract-notes, "Identifiers"). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9]{10}$/;
export const SESSION_ID_PATTERN_TEXT = '^[A-Za-z0-9]{10}$';

export function isValidSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}
