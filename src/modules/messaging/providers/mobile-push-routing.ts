import type { MobilePushMessage } from './provider.js';

/**
 * Which mobile_push vendor carries a device token when a shop configured both (the
 * registry's `accepts` predicates, registry.ts). APNs takes iOS tokens in APNs's own form
 * (hexadecimal); FCM takes Android tokens and every token that is not an APNs token, which
 * covers iOS apps registered through the Firebase SDK. The two never both accept a token,
 * so the order of registration does not matter, and an APNs token is never sent to FCM
 * (which would answer INVALID_ARGUMENT and get the token marked dead).
 */

const APNS_DEVICE_TOKEN = /^[0-9A-Fa-f]{64,200}$/;

export function isApnsDeviceToken(token: string): boolean {
  return APNS_DEVICE_TOKEN.test(token);
}

export function apnsAccepts(message: MobilePushMessage): boolean {
  return message.platform === 'ios' && isApnsDeviceToken(message.token);
}

export function fcmAccepts(message: MobilePushMessage): boolean {
  return message.platform === 'android' || !isApnsDeviceToken(message.token);
}
