import crypto from 'node:crypto';

/**
 * Standard Webhooks signing (docs/webhooks.md, "Headers and verification"): a secret is
 * `whsec_` and the base64 of its key bytes; a signature is `v1,` and the base64
 * HMAC-SHA256, under those bytes, of `<webhook-id>.<webhook-timestamp>.<body>`; the
 * `webhook-signature` header lists one signature per secret in force, space-delimited, so
 * that a receiver can move to a rotated secret without missing a delivery.
 */

export const SECRET_PREFIX = 'whsec_';
/** Bytes of a new secret: the specification asks for 24 to 64. */
export const SECRET_BYTES = 32;
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** `whsec_` and the standard base64 of `bytes` (drawn by the caller: this module has no randomness). */
export function formatSecret(bytes: Buffer): string {
  return `${SECRET_PREFIX}${bytes.toString('base64')}`;
}

/** The key bytes of a `whsec_` secret; undefined when it is not one. */
export function secretKey(secret: string): Buffer | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES ? key : undefined;
}

/** One `v1,<base64>` signature of a delivery attempt; `timestamp` in whole seconds. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = secretKey(secret);
  if (!key) throw new Error('A webhook secret must be whsec_ and the base64 of 24 to 64 bytes');
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one attempt, signed with every secret given (the current one first). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, body)).join(' '),
  };
}
