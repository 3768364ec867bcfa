/**
 * A browser's PushSubscription as the public subscribe endpoint takes it
 * (docs/messaging-push.md, "Web push subscriptions"). Pure: checked before it is stored, so
 * that a subscription the vapid vendor could never encrypt for is refused at once, with
 * the reason, instead of failing at every message.
 */

export interface WebPushSubscription {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

export const MAX_ENDPOINT_LENGTH = 2048;
/** An uncompressed P-256 point: 0x04, then X and Y of 32 bytes each (RFC 8291 section 3.1). */
const P256DH_BYTES = 65;
/** The authentication secret (RFC 8291 section 3.2). */
const AUTH_BYTES = 16;

export type SubscriptionCheck = { ok: true; value: WebPushSubscription } | { ok: false; field: string; reason: string };

export function checkSubscription(endpoint: unknown, p256dh: unknown, auth: unknown): SubscriptionCheck {
  if (typeof endpoint !== 'string' || endpoint === '') return { ok: false, field: 'endpoint', reason: 'is required' };
  if (endpoint.length > MAX_ENDPOINT_LENGTH)
    return { ok: false, field: 'endpoint', reason: `must be at most ${MAX_ENDPOINT_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, field: 'endpoint', reason: 'must be an https URL' };
  }
  // Browsers give https endpoints only; anything else is not a push service.
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '')
    return { ok: false, field: 'endpoint', reason: 'must be an https URL' };
  const key = decodeKey(p256dh);
  if (!key || key.length !== P256DH_BYTES || key[0] !== 0x04) {
    return { ok: false, field: 'keys.p256dh', reason: `must be an uncompressed P-256 point, ${P256DH_BYTES} bytes in base64url` };
  }
  const secret = decodeKey(auth);
  if (!secret || secret.length !== AUTH_BYTES) return { ok: false, field: 'keys.auth', reason: `must be ${AUTH_BYTES} bytes in base64url` };
  return { ok: true, value: { endpoint, p256dh: p256dh as string, auth: auth as string } };
}

/** The delivery address of a subscription: the JSON that domain/outgoing.ts reads back. */
export function subscriptionAddress(subscription: WebPushSubscription): string {
  return JSON.stringify({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } });
}

/** The endpoint of a delivery address; undefined when the address is not a subscription's JSON. */
export function endpointOfAddress(address: string): string | undefined {
  try {
    const value: unknown = JSON.parse(address);
    const endpoint = (value as { endpoint?: unknown } | null)?.endpoint;
    return typeof endpoint === 'string' ? endpoint : undefined;
  } catch {
    return undefined;
  }
}

/** base64url without padding, as PushSubscription.toJSON() gives it (standard base64 with padding taken too). */
function decodeKey(value: unknown): Buffer | undefined {
  if (typeof value !== 'string' || value.length > 128) return undefined;
  const text = value.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  return Buffer.from(text, 'base64url');
}
