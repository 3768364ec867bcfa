import type { PublicInput } from '../../http/input.js';
import { isPlainObject } from '../../http/input.js';
import { validationError } from '../../http/readers.js';
import { checkSubscription, type WebPushSubscription } from '../../modules/messaging/domain/web-push-subscription.js';

/**
 * The subscription of POST /web_push/subscriptions: what PushSubscription.toJSON() gives
 * (`endpoint` and `keys: {p256dh, auth}`), either at the top level or under
 * `subscription`; a form may send `keys[p256dh]` / `keys[auth]` or flat `p256dh` / `auth`.
 */
export function readSubscription(input: PublicInput): WebPushSubscription {
  const source = isPlainObject(input.subscription) ? input.subscription : input;
  const keys = isPlainObject(source.keys) ? source.keys : source;
  const checked = checkSubscription(source.endpoint, keys.p256dh, keys.auth);
  if (!checked.ok) throw validationError(checked.field, checked.reason);
  return checked.value;
}

/** DELETE /web_push/subscriptions: the endpoint, at the top level or under `subscription`. */
export function readEndpoint(input: PublicInput): string {
  const source = isPlainObject(input.subscription) ? input.subscription : input;
  const endpoint = source.endpoint;
  if (typeof endpoint !== 'string' || endpoint === '') throw validationError('endpoint', 'is required');
  if (endpoint.length > 2048) throw validationError('endpoint', 'must be at most 2048 characters');
  return endpoint;
}
