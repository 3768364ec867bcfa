import type { Channel } from '../providers/provider.js';
import type { RenderedMessage } from '../template-engine.js';
import { isApnsDeviceToken } from '../providers/mobile-push-routing.js';

/**
 * A channel's test send (docs/messaging.md, "Channels in the admin API"): the address an
 * admin typed, read as the channel's address, and the short fixed message sent to it.
 */

export type TestAddress =
  | { readonly ok: true; readonly address: string; readonly platform: 'ios' | 'android' | null }
  | { readonly ok: false; readonly message: string };

const EMAIL = /^[^\s@<>()",;:]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;
const CHAT_ID = /^-?[0-9]{1,20}$/;
const TELEGRAM_CHANNEL = /^@[A-Za-z][A-Za-z0-9_]{4,31}$/;
const PUSH_TOKEN = /^[A-Za-z0-9_:.-]{8,4096}$/;

/** `to` of POST …/channels/{channel}/test as the channel's address; a refusal names what the channel takes. */
export function testAddress(channel: Channel, to: string): TestAddress {
  const text = to.trim();
  switch (channel) {
    case 'email':
      return EMAIL.test(text) ? { ok: true, address: text, platform: null } : refuse('an email address (name@example.org)');
    case 'sms':
    case 'whatsapp': {
      const digits = text.replace(/[\s()+-]/g, '');
      return /^[0-9]{7,15}$/.test(digits) ? { ok: true, address: digits, platform: null } : refuse('a phone number in international form');
    }
    case 'telegram':
      return CHAT_ID.test(text) || TELEGRAM_CHANNEL.test(text)
        ? { ok: true, address: text, platform: null }
        : refuse('a Telegram chat id (digits) or @channel name');
    case 'max':
      return CHAT_ID.test(text) ? { ok: true, address: text, platform: null } : refuse('a MAX user or chat id (digits)');
    case 'mobile_push':
      if (!PUSH_TOKEN.test(text)) return refuse('a device push token');
      return { ok: true, address: text, platform: isApnsDeviceToken(text) ? 'ios' : 'android' };
    case 'web_push':
      return webPushAddress(text);
    case 'wallet':
      // The update push of a pass names no pass: the device asks what changed, and a test
      // device finds nothing. Only the push token matters.
      return /^[0-9A-Fa-f]{16,200}$/.test(text)
        ? { ok: true, address: JSON.stringify({ serialNumber: 'test', pushToken: text }), platform: null }
        : refuse('the APNs push token a device registered its pass with (hexadecimal)');
  }
}

/** The fixed text of a test send: says what it is and nothing else. */
export function testContent(channel: Channel, shopName: string): RenderedMessage {
  const text = `Patron test message: the ${channel} channel of ${shopName} works.`;
  const push = { title: 'Patron test message', body: text };
  return {
    email: {
      subject: `Patron test message (${shopName})`,
      html: `<!doctype html><html><body><p>${escapeHtml(text)}</p></body></html>`,
      text,
    },
    sms: { body: text },
    mobile_push: push,
    web_push: push,
    telegram: { text },
    whatsapp: { text },
    max: { text },
    wallet: { text },
  };
}

function webPushAddress(text: string): TestAddress {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('a browser PushSubscription as JSON ({"endpoint", "keys": {"p256dh", "auth"}})');
  }
  const sub = value as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  const ok =
    typeof sub?.endpoint === 'string' &&
    /^https?:\/\//.test(sub.endpoint) &&
    sub.endpoint.length <= 2048 &&
    typeof sub.keys?.p256dh === 'string' &&
    typeof sub.keys.auth === 'string';
  if (!ok) return refuse('a browser PushSubscription as JSON ({"endpoint", "keys": {"p256dh", "auth"}})');
  const keys = sub.keys as { p256dh: string; auth: string };
  return { ok: true, address: JSON.stringify({ endpoint: sub.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }), platform: null };
}

function refuse(what: string): TestAddress {
  return { ok: false, message: `Field \`to\` must be ${what}.` };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
