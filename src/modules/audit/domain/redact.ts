/**
 * What the audit log keeps of a request or an answer: everything but secrets. Pure: the
 * capture hook and services.audit.record pass values through `redact` before they are
 * stored. A secret is found by the name of its key (a password, a token, a private key,
 * a certificate's contents…) or by its shape (a PEM block, a user's API token, a URL that
 * carries a password), at any depth.
 */

export const REDACTED = '[redacted]';

/** Strings longer than this are cut (a template's HTML, a pasted feed): the log is not a copy store. */
export const MAX_STRING_CHARS = 2048;

/** Deeper than this, a value is replaced by a marker (the admin scope's text rule bounds nesting before this). */
const MAX_DEPTH = 32;

/** Words of a key that name a secret wherever they stand in it (`shop_secret`, `smtp_password`, `signer_key_passphrase`). */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'apikey',
  'privatekey',
  'dkim',
  'pem',
  'p12',
  'pfx',
  'cert',
  'otp',
]);

/**
 * Words that name a secret only when they end the key: `token`, `access_token`,
 * `signer_key`, `api_key`, but not `token_id` or `token_name` (a token's handle, shown in
 * the token list), nor `key_count`.
 */
const SECRET_LAST_WORDS = new Set(['token', 'key']);

/** A key that names a public half (`vapid_public_key`) is not a secret. */
const PUBLIC_WORDS = new Set(['public']);

/**
 * Keys that end with these words name a fact about a secret, not the secret itself:
 * `token_id`, `token_name`, `previous_secret_expires_at`, `secret_count`.
 */
const ABOUT_WORDS = new Set(['id', 'ids', 'name', 'names', 'at', 'count', 'length', 'type']);

/** Values secret by their shape, whatever their key: PEM blocks, user API tokens, bearer credentials. */
const SECRET_VALUE = /^(-----BEGIN [A-Z0-9 ]+-----|pat_[A-Za-z0-9_-]{8,}|Bearer\s+\S)/;

/** The words of a key: `smtpPassword`, `smtp-password` and `smtp_password` give ['smtp', 'password']. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** True when a value under this key is a secret and must not be kept. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  if (words.length === 0) return false;
  if (words.some((word) => PUBLIC_WORDS.has(word)) || ABOUT_WORDS.has(words[words.length - 1] as string)) return false;
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  // `api_key`, `private_key` and the like: their joined form counts too (`apiKey` → api, key).
  const joined = words.join('');
  if (joined === 'apikey' || joined === 'privatekey' || joined === 'accesskey' || joined === 'secretkey') return true;
  return SECRET_LAST_WORDS.has(words[words.length - 1] as string);
}

/**
 * A copy of `value` without secrets: values under secret keys become "[redacted]",
 * strings of a secret shape too, a URL's password is replaced, and long strings are cut
 * with a marker that says how long they were. Anything that JSON cannot hold is dropped
 * as JSON.stringify would drop it.
 */
export function redact(value: unknown): unknown {
  return redactAt(value, 0);
}

function redactAt(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? String(value) : value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactAt(item, depth + 1));
  // Only data parsed from JSON is walked. Any other object (a request stream, a socket)
  // is a graph of live objects whose walk, even bounded in depth, never ends in practice.
  if (!isPlainObject(value)) return '[not JSON data]';
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function') continue;
    out[key] = isSecretKey(key) && item !== null ? REDACTED : redactAt(item, depth + 1);
  }
  return out;
}

function redactString(text: string): string {
  if (SECRET_VALUE.test(text)) return REDACTED;
  const unpassworded = withoutUrlPassword(text);
  return unpassworded.length > MAX_STRING_CHARS ? truncateString(unpassworded, MAX_STRING_CHARS) : unpassworded;
}

/** `smtp://user:secret@host` → `smtp://user:[redacted]@host`; other strings as they are. */
function withoutUrlPassword(text: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s]*)@/i.exec(text);
  if (!match) return text;
  const userinfo = match[2] as string;
  const colon = userinfo.indexOf(':');
  if (colon < 0) return text;
  return `${match[1]}${userinfo.slice(0, colon)}:${REDACTED}@${text.slice(match[0].length)}`;
}

/** The first `max` characters and a marker naming the full length. */
export function truncateString(text: string, max: number): string {
  return `${text.slice(0, max)}… [truncated: ${text.length} characters]`;
}

/** An object as JSON.parse makes it: its prototype is Object's, or none. */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
