import { Type, type Static } from '@sinclair/typebox';
import { importPKCS8, SignJWT } from 'jose';
import { systemClock, type Clock } from '../../../clock.js';
import { Http2SessionPool, type Http2Answer } from './http2-session-pool.js';
import { isApnsDeviceToken } from './mobile-push-routing.js';
import type { MobilePushMessage, Provider, SendContext, SendResult } from './provider.js';
import { deadAddress, guardFailure, permanent, retryAfterMs, temporary, vendorWords } from './push-results.js';
import { credentialsKey, pemText, PushTokenCache, type IssuedToken } from './push-token-cache.js';

/**
 * Apple Push Notification service over HTTP/2 with token authentication: an ES256 JWT
 * made from the shop's .p8 key authorises every request on a long-lived connection.
 * Apple refuses a provider token older than an hour and one renewed more often than every
 * 20 minutes (TooManyProviderTokenUpdates), so a token is kept for `tokenRefreshMs`
 * (40 minutes) and shared by all sends of those credentials.
 */

export const APNS_ORIGINS = {
  production: 'https://api.push.apple.com',
  sandbox: 'https://api.sandbox.push.apple.com',
} as const;

export const ApnsSettingsSchema = Type.Object(
  {
    team_id: Type.String({ pattern: '^[A-Z0-9]{10}$', description: 'The Apple Developer team id.' }),
    key_id: Type.String({ pattern: '^[A-Z0-9]{10}$', description: 'The id of the APNs authentication key.' }),
    private_key: Type.String({
      pattern: '^\\s*-----BEGIN PRIVATE KEY-----',
      maxLength: 4096,
      description: 'The content of the AuthKey_<key_id>.p8 file: a P-256 key, PKCS#8 PEM (secret).',
    }),
    bundle_id: Type.String({
      pattern: '^[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*$',
      maxLength: 155,
      description: 'The app, sent as apns-topic.',
    }),
    environment: Type.Optional(
      Type.Union([Type.Literal('production'), Type.Literal('sandbox')], {
        default: 'production',
        description: 'sandbox for development builds of the app.',
      }),
    ),
    api_url: Type.Optional(
      Type.String({
        pattern: '^https://[^\\s/?#@]+/?$',
        maxLength: 300,
        description: 'Overrides the environment: another APNs origin (a proxy, a test peer).',
      }),
    ),
    ttl_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2_419_200,
        default: 86_400,
        description: 'How long APNs keeps trying an offline device (apns-expiration); 0: once, now.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApnsSettings = Static<typeof ApnsSettingsSchema>;

/** Apple's limit on the JSON payload of an alert notification. */
const MAX_PAYLOAD_BYTES = 4096;
/** Apple's limit on apns-collapse-id. */
const MAX_COLLAPSE_ID_BYTES = 64;

export interface ApnsProviderOptions {
  readonly clock?: Clock;
  /** The whole exchange of one notification, connecting included, in milliseconds. */
  readonly timeoutMs?: number;
  /** How long a provider token is used before a new one is signed: 20 to 60 minutes (Apple's window). */
  readonly tokenRefreshMs?: number;
  /**
   * Extra trusted certificates (PEM) for the APNs connection. Only a local test peer
   * needs it; the real APNs certificates chain to the system's roots.
   */
  readonly ca?: string | Buffer;
}

class TokenFailure extends Error {
  constructor(readonly result: SendResult) {
    super(result.ok ? '' : result.message);
  }
}

export class ApnsProvider implements Provider<'mobile_push', ApnsSettings> {
  readonly vendor = 'apns';
  readonly channel = 'mobile_push';
  readonly settingsSchema = ApnsSettingsSchema;
  readonly secretFields = ['private_key'] as const;

  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly tokenRefreshMs: number;
  private readonly tokens: PushTokenCache;
  private readonly sessions: Http2SessionPool;

  constructor(options: ApnsProviderOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.tokenRefreshMs = options.tokenRefreshMs ?? 40 * 60_000;
    if (this.tokenRefreshMs < 20 * 60_000 || this.tokenRefreshMs > 60 * 60_000) {
      throw new Error('tokenRefreshMs must be between 20 and 60 minutes');
    }
    this.tokens = new PushTokenCache(this.clock);
    this.sessions = new Http2SessionPool(options.ca ? { ca: options.ca } : {});
  }

  /** HTTP/2 sessions opened so far: one per credentials while connections last. */
  get sessionsOpened(): number {
    return this.sessions.sessionsOpened;
  }

  /** HTTP/2 sessions open now. */
  get sessionsOpen(): number {
    return this.sessions.sessionsOpen;
  }

  async send(settings: ApnsSettings, message: MobilePushMessage, context: SendContext): Promise<SendResult> {
    if (!isApnsDeviceToken(message.token)) return permanent('APNs: the device token is not a hexadecimal APNs token.');
    const payload = JSON.stringify(apnsPayload(message));
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      return permanent(`APNs: the notification is larger than the ${MAX_PAYLOAD_BYTES} bytes Apple accepts.`);
    }
    const key = credentialsKey(settings.team_id, settings.key_id, settings.private_key);
    let token: IssuedToken;
    try {
      token = await this.tokens.get(key, () => this.signToken(settings));
    } catch (error) {
      if (error instanceof TokenFailure) return error.result;
      throw error;
    }
    const ttl = settings.ttl_seconds ?? 86_400;
    const origin = (settings.api_url ?? APNS_ORIGINS[settings.environment ?? 'production']).replace(/\/$/, '');
    const answer = await this.sessions.post(key, origin, `/3/device/${message.token}`, {
      headers: {
        authorization: `bearer ${token.value}`,
        'apns-topic': settings.bundle_id,
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'apns-expiration': String(ttl === 0 ? 0 : Math.floor(this.clock.now() / 1000) + ttl),
        // A resend after a crash replaces the notification already shown; APNs has no idempotency key.
        ...(message.idKey !== undefined &&
          Buffer.byteLength(message.idKey) <= MAX_COLLAPSE_ID_BYTES && { 'apns-collapse-id': message.idKey }),
        'content-type': 'application/json',
      },
      body: payload,
      timeoutMs: this.timeoutMs,
      maxBytes: 16 * 1024,
      allowPrivate: context.allowPrivate,
      signal: context.signal,
    });
    if (!answer.ok) return guardFailure('APNs', answer);
    const result = sendOutcome(answer, this.clock.now());
    // Apple thinks the token too old (a clock step, a long pause): the next attempt signs a new one.
    if (!result.ok && reasonOf(answer) === 'ExpiredProviderToken') this.tokens.drop(key, token.value);
    return result;
  }

  async close(): Promise<void> {
    await this.sessions.close();
  }

  private async signToken(settings: ApnsSettings): Promise<IssuedToken> {
    const issuedAt = this.clock.now();
    try {
      const key = await importPKCS8(pemText(settings.private_key), 'ES256');
      const value = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: settings.key_id })
        .setIssuer(settings.team_id)
        .setIssuedAt(Math.floor(issuedAt / 1000))
        .sign(key);
      return { value, issuedAt, refreshAt: issuedAt + this.tokenRefreshMs };
    } catch {
      throw new TokenFailure(permanent('APNs: the private_key is not a P-256 key in PKCS#8 PEM (the .p8 file).'));
    }
  }
}

/**
 * The APNs JSON: Apple's `aps` dictionary (the alert iOS shows itself, and the native
 * iOS SDK reads), then the message's data keys at the top level, where the app SDKs read
 * them. `gcm.message_id` carries the message code because React Native Firebase hands an
 * iOS notification to the app's JavaScript only when that key is there (and takes it as
 * the message id the React Native SDK stores pushes and drops repeats by). A data key
 * named `aps` is left out: it would replace Apple's dictionary.
 */
export function apnsPayload(message: MobilePushMessage): Record<string, unknown> {
  const aps: Record<string, unknown> = { alert: { title: message.title, body: message.body } };
  // The picture is downloaded by the app's notification service extension, which iOS runs only on mutable-content.
  if (message.picture !== undefined) aps['mutable-content'] = 1;
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message.data)) if (name !== 'aps') payload[name] = value;
  if (message.idKey !== undefined) payload['gcm.message_id'] = message.idKey;
  payload.aps = aps;
  return payload;
}

function reasonOf(answer: Http2Answer): string {
  try {
    const json = JSON.parse(answer.body.toString('utf8')) as { reason?: unknown };
    return typeof json.reason === 'string' ? json.reason : '';
  } catch {
    return '';
  }
}

function sendOutcome(answer: Http2Answer, nowMs: number): SendResult {
  if (answer.status === 200) {
    const id = answer.headers['apns-id'];
    return typeof id === 'string' ? { ok: true, providerMessageId: id } : { ok: true };
  }
  const reason = reasonOf(answer);
  const message = vendorWords(`APNs answered ${answer.status}${reason ? ` ${reason}` : ''}`);
  if (answer.status === 410 || (answer.status === 400 && reason === 'BadDeviceToken')) return deadAddress(message);
  if (answer.status === 403 && reason === 'ExpiredProviderToken') return temporary(message);
  if (answer.status === 429 || answer.status === 500 || answer.status === 503) {
    return temporary(message, retryAfterMs(answer.headers['retry-after'], nowMs));
  }
  return permanent(message);
}
