import { describe, expect, it } from 'vitest';
import { apnsAccepts, fcmAccepts } from '../../../../src/modules/messaging/providers/mobile-push-routing.js';
import type { MobilePushMessage } from '../../../../src/modules/messaging/providers/provider.js';

const base = { title: 't', body: 'b', data: {} };
const apnsToken = 'ab12'.repeat(16);
const fcmToken = 'dQw4w9WgXcQ:APA91bH' + 'x'.repeat(140);

function message(platform: 'ios' | 'android', token: string): MobilePushMessage {
  return { ...base, platform, token };
}

describe('mobile push routing', () => {
  it('sends iOS APNs tokens to APNs only', () => {
    expect(apnsAccepts(message('ios', apnsToken))).toBe(true);
    expect(fcmAccepts(message('ios', apnsToken))).toBe(false);
  });

  it('sends Android tokens to FCM only, whatever they look like', () => {
    expect(fcmAccepts(message('android', fcmToken))).toBe(true);
    expect(apnsAccepts(message('android', fcmToken))).toBe(false);
    expect(fcmAccepts(message('android', apnsToken))).toBe(true);
    expect(apnsAccepts(message('android', apnsToken))).toBe(false);
  });

  it('sends iOS tokens of the Firebase SDK to FCM', () => {
    expect(fcmAccepts(message('ios', fcmToken))).toBe(true);
    expect(apnsAccepts(message('ios', fcmToken))).toBe(false);
  });
});
