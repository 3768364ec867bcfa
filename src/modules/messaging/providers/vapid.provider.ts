import { createECDH } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import webpush from 'web-push';
import { systemClock, type Clock } from '../../../clock.js';
import { safeRequest, type SafeResponse } from '../../../net/safe-request.js';
import type { Provider, SendContext, SendResult, WebPushMessage } from './provider.js';
import { deadAddress, guardFailure, permanent, retryAfterMs, temporary, vendorWords } from './push-results.js';

/**
 * Web push with VAPID (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292
 * authentication) through the web-push package: it encrypts the payload for the
 * browser's keys and signs the VAPID JWT; the request itself goes out through safeRequest,
 * because a subscription's endpoint is a URL a browser (anyone) gave us, and must pass
 * the private-address guard like every other outbound call.
 */

export const VapidSettingsSchema = Type.Object(
  {
    vapid_public_key: Type.String({
      pattern: '^[A-Za-z0-9_-]{87}$',
      description: 'The uncompressed P-256 public key, base64url: the applicationServerKey of pushManager.subscribe.',
    }),
    vapid_private_key: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'The P-256 private key, base64url (secret).' }),
    subject: Type.String({
      pattern: '^(mailto:[^\\s]+|https://[^\\s]+)$',
      maxLength: 320,
      description: 'A mailto: or https: contact the push service can reach the shop at.',
    }),
    ttl_seconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 2_419_200, default: 86_400, description: 'How long the push service keeps the message (TTL).' }),
    ),
    urgency: Type.Optional(
      Type.Union([Type.Literal('very-low'), Type.Literal('low'), Type.Literal('normal'), Type.Literal('high')], {
        default: 'normal',
      }),
    ),
  },
  { additionalProperties: false },
);
export type VapidSettings = Static<typeof VapidSettingsSchema>;

/**
 * One aes128gcm record is at most 4096 bytes (RFC 8188) and push services take one record:
 * its header (86 bytes), the GCM tag (16) and the padding delimiter (1) leave this much.
 */
export const MAX_WEB_PUSH_PAYLOAD_BYTES = 4096 - 86 - 16 - 1;
/** A Topic header: at most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4). */
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/** A new VAPID key pair for a shop, in the settings' own field names. */
export function generateVapidKeys(): { vapid_public_key: string; vapid_private_key: string } {
  const keys = webpush.generateVAPIDKeys();
  return { vapid_public_key: keys.publicKey, vapid_private_key: keys.privateKey };
}

export interface VapidProviderOptions {
  readonly clock?: Clock;
  /** The whole exchange of one push, in milliseconds. */
  readonly timeoutMs?: number;
  /**
   * Accept http: subscription endpoints. Browsers only ever give https: ones; a local
   * test peer or a development push service needs this.
   */
  readonly allowHttpEndpoints?: boolean;
}

export class VapidProvider implements Provider<'web_push', VapidSettings> {
  readonly vendor = 'vapid';
  readonly channel = 'web_push';
  readonly settingsSchema = VapidSettingsSchema;
  readonly secretFields = ['vapid_private_key'] as const;

  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly allowHttpEndpoints: boolean;

  constructor(options: VapidProviderOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.allowHttpEndpoints = options.allowHttpEndpoints ?? false;
  }

  async send(settings: VapidSettings, message: WebPushMessage, context: SendContext): Promise<SendResult> {
    const refused = this.checkSubscription(message.subscription);
    if (refused) return deadAddress(refused);
    const payload = JSON.stringify(webPushPayload(message));
    if (Buffer.byteLength(payload) > MAX_WEB_PUSH_PAYLOAD_BYTES) {
      return permanent(`Web push: the notification is larger than the ${MAX_WEB_PUSH_PAYLOAD_BYTES} bytes a push service takes.`);
    }
    let details: webpush.RequestDetails;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: message.subscription.endpoint, keys: { ...message.subscription.keys } },
        payload,
        {
          vapidDetails: { subject: settings.subject, publicKey: settings.vapid_public_key, privateKey: settings.vapid_private_key },
          TTL: settings.ttl_seconds ?? 86_400,
          urgency: settings.urgency ?? 'normal',
          contentEncoding: 'aes128gcm',
          // RFC 8030 §5.4: a resend after a crash replaces the first while the push service still holds it.
          ...(message.idKey !== undefined && TOPIC.test(message.idKey) && { topic: message.idKey }),
        },
      );
    } catch {
      return permanent('Web push: the VAPID settings could not sign the request.');
    }
    const headers: Record<string, string> = {};
    // safeRequest sets Content-Length from the body itself.
    for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    const answer = await safeRequest(details.endpoint, {
      method: 'POST',
      headers,
      body: details.body ?? Buffer.alloc(0),
      timeoutMs: this.timeoutMs,
      maxBytes: 16 * 1024,
      allowPrivate: context.allowPrivate,
      signal: context.signal,
    });
    if (!answer.ok) return guardFailure('Web push', answer);
    return sendOutcome(answer, this.clock.now());
  }

  /** Why a subscription can never be delivered to, or undefined when it can be tried. */
  private checkSubscription(subscription: WebPushMessage['subscription']): string | undefined {
    let endpoint: URL;
    try {
      endpoint = new URL(subscription.endpoint);
    } catch {
      return 'Web push: the subscription endpoint is not a URL.';
    }
    if (endpoint.protocol !== 'https:' && !(this.allowHttpEndpoints && endpoint.protocol === 'http:')) {
      return 'Web push: the subscription endpoint is not an https URL.';
    }
    const p256dh = Buffer.from(subscription.keys.p256dh, 'base64url');
    if (Buffer.from(subscription.keys.auth, 'base64url').length < 16) return 'Web push: the subscription auth secret is too short.';
    try {
      // Encryption needs a point on P-256: computing a shared secret with it is the check.
      const probe = createECDH('prime256v1');
      probe.generateKeys();
      probe.computeSecret(p256dh);
    } catch {
      return 'Web push: the subscription p256dh key is not a P-256 public key.';
    }
    return undefined;
  }
}

/** What the browser's service worker receives, as JSON: absent fields are left out. */
export function webPushPayload(message: WebPushMessage): Record<string, unknown> {
  return {
    title: message.title,
    body: message.body,
    ...(message.url !== undefined ? { url: message.url } : {}),
    ...(message.icon !== undefined ? { icon: message.icon } : {}),
    ...(message.picture !== undefined ? { image: message.picture } : {}),
    data: { ...message.data },
  };
}

function sendOutcome(answer: SafeResponse, nowMs: number): SendResult {
  if (answer.status >= 200 && answer.status < 300) {
    const location = answer.headers.location;
    return typeof location === 'string' ? { ok: true, providerMessageId: location } : { ok: true };
  }
  const words = answerWords(answer);
  const message = vendorWords(`Push service answered ${answer.status}${words ? `: ${words}` : ''}`);
  // 404 and 410: the subscription expired or the browser unsubscribed (RFC 8030, 7.3).
  if (answer.status === 404 || answer.status === 410) return deadAddress(message);
  if (answer.status === 429 || answer.status >= 500) return temporary(message, retryAfterMs(answer.headers['retry-after'], nowMs));
  return permanent(message);
}

/** The service's own explanation: Mozilla answers JSON with `message`, others plain text. */
function answerWords(answer: SafeResponse): string {
  const type = String(answer.headers['content-type'] ?? '');
  const text = answer.body.toString('utf8');
  if (type.includes('json')) {
    try {
      const json = JSON.parse(text) as { message?: unknown; error?: unknown };
      if (typeof json.message === 'string') return json.message;
      if (typeof json.error === 'string') return json.error;
    } catch {
      return '';
    }
    return '';
  }
  return type.startsWith('text/plain') ? text : '';
}
