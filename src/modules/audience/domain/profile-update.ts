import type { Identifiers } from '../../identity/index.js';
import type { PropertyValue } from './custom-properties.js';
import { MAX_RECORD_KEYS, readRecordFields, type AudienceFields, type PushPlatform, type RecordContext } from './record.js';

/**
 * What an app sets on its customer's profile (POST /profile/set, POST
 * /subscriptions/manage), checked by the fields of the audience record, pure.
 *
 * The difference from an import (docs/profiles.md, "Bad input"): an import keeps what it
 * can of a record and reports the rest, because nobody is waiting for the answer; an app
 * waits for this answer, so a bad value refuses the whole update, naming the field, and
 * nothing is stored. A key that is neither a field nor a custom property of the shop is
 * not a bad value but a property the shop has not created (yet): it is left out and
 * named (`ignored`), and the rest is stored, because the mobile SDK drops any failure
 * unseen and the app would lose every field of the update for one key.
 *
 * The mobile SDK sends every object or array value as a JSON string (`kids`, `auto`):
 * those two are decoded here; a custom property's value is taken as sent.
 */

/** Keys of the transport, not of the profile: credentials, the device, the session. */
const TRANSPORT_KEYS: ReadonlySet<string> = new Set(['shop_id', 'shop_secret', 'did', 'sid', 'seance', 'stream', 'v', 'segment']);

/** Fields the SDK sends as JSON text. */
const JSON_TEXT_FIELDS = ['kids', 'auto'] as const;

export interface ProfileUpdate {
  readonly identifiers: Identifiers;
  readonly fields: AudienceFields;
  readonly properties: Readonly<Record<string, PropertyValue>>;
  readonly pushToken?: { readonly token: string; readonly platform: PushPlatform };
}

export type ProfileUpdateCheck =
  /** `ignored`: the unknown keys, in the order given. */
  | { readonly ok: true; readonly update: ProfileUpdate; readonly ignored: readonly string[] }
  | { readonly ok: false; readonly field: string; readonly message: string };

export function checkProfileUpdate(input: Readonly<Record<string, unknown>>, context: RecordContext): ProfileUpdateCheck {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (!TRANSPORT_KEYS.has(key)) record[key] = value;
  if (Object.keys(record).length > MAX_RECORD_KEYS) {
    return { ok: false, field: 'body', message: `A profile update has at most ${MAX_RECORD_KEYS} fields.` };
  }
  for (const field of JSON_TEXT_FIELDS) {
    const value = record[field];
    if (typeof value !== 'string' || value.trim() === '') continue;
    try {
      record[field] = JSON.parse(value) as unknown;
    } catch {
      return refuse(field, 'must be a JSON array');
    }
  }

  const read = readRecordFields(record, context);
  const problem = read.invalidIdentifiers[0] ?? read.dropped[0];
  if (problem) return refuse(problem.field, problem.reason);
  const { identifiers, fields, properties, pushToken } = read;
  return { ok: true, update: { identifiers, fields, properties, ...(pushToken ? { pushToken } : {}) }, ignored: read.unknown };
}

function refuse(field: string, reason: string): ProfileUpdateCheck {
  return { ok: false, field, message: `Parameter \`${field}\` ${reason}.` };
}
