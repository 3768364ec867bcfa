import { Type, type Static } from '@sinclair/typebox';
import { importPKCS8, SignJWT } from 'jose';
import { systemClock, type Clock } from '../../../clock.js';
import { safeRequest, type SafeResponse } from '../../../net/safe-request.js';
import type { SafeFetchFailure } from '../../../net/safe-fetch.errors.js';
import type { MobilePushMessage, Provider, SendContext, SendResult } from './provider.js';
import { deadAddress, guardFailure, permanent, retryAfterMs, temporary, vendorWords } from './push-results.js';
import { credentialsKey, pemText, PushTokenCache, type IssuedToken } from './push-token-cache.js';

/**
 * Firebase Cloud Messaging, HTTP v1 API. A service account signs a JWT (RS256) that the
 * token endpoint exchanges for an OAuth access token; the token is cached per service
 * account until shortly before it expires, so a burst of sends costs one exchange.
 * Both URLs are settings, so that a test peer, an emulator or a proxy can stand in.
 */

const HTTP_URL = '^https?://[^\\s/?#]+(?:/[^\\s?#]*)?$';

/**
 * The service-account JSON file of the Firebase project, as downloaded from the console:
 * it can be pasted whole (its other fields are accepted and not used).
 */
export const FcmSettingsSchema = Type.Object(
  {
    project_id: Type.String({ pattern: '^[a-z][a-z0-9.:-]{1,99}$', description: 'The Firebase project id.' }),
    client_email: Type.String({ pattern: '^[^\\s@]+@[^\\s@]+$', maxLength: 320, description: 'The service account.' }),
    private_key: Type.String({
      pattern: '^\\s*-----BEGIN PRIVATE KEY-----',
      maxLength: 16384,
      description: "The service account's RSA key, PKCS#8 PEM (secret).",
    }),
    private_key_id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$', description: 'Sent as the kid of the JWT.' })),
    token_uri: Type.Optional(Type.String({ pattern: HTTP_URL, maxLength: 2048, default: 'https://oauth2.googleapis.com/token' })),
    api_base_url: Type.Optional(
      Type.String({ pattern: HTTP_URL, maxLength: 2048, default: 'https://fcm.googleapis.com', description: 'No trailing path.' }),
    ),
    ttl_seconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 2_419_200, description: 'How long FCM keeps an undelivered message (android.ttl).' }),
    ),
    type: Type.Optional(Type.Literal('service_account')),
    client_id: Type.Optional(Type.String({ maxLength: 128 })),
    auth_uri: Type.Optional(Type.String({ maxLength: 2048 })),
    auth_provider_x509_cert_url: Type.Optional(Type.String({ maxLength: 2048 })),
    client_x509_cert_url: Type.Optional(Type.String({ maxLength: 2048 })),
    universe_domain: Type.Optional(Type.String({ maxLength: 253 })),
  },
  { additionalProperties: false },
);
export type FcmSettings = Static<typeof FcmSettingsSchema>;

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const DEFAULT_API_BASE = 'https://fcm.googleapis.com';
const MAX_ANSWER_BYTES = 64 * 1024;
/** Apple's limit on apns-collapse-id. */
const APNS_COLLAPSE_ID_BYTES = 64;

export interface FcmProviderOptions {
  readonly clock?: Clock;
  /** The whole exchange of one API call, in milliseconds. */
  readonly timeoutMs?: number;
}

/** A failure while getting the access token, carried to `send` as its result. */
class TokenFailure extends Error {
  constructor(readonly result: SendResult) {
    super(result.ok ? '' : result.message);
  }
}

export class FcmProvider implements Provider<'mobile_push', FcmSettings> {
  readonly vendor = 'fcm';
  readonly channel = 'mobile_push';
  readonly settingsSchema = FcmSettingsSchema;
  readonly secretFields = ['private_key'] as const;

  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly tokens: PushTokenCache;

  constructor(options: FcmProviderOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.tokens = new PushTokenCache(this.clock);
  }

  async send(settings: FcmSettings, message: MobilePushMessage, context: SendContext): Promise<SendResult> {
    const key = credentialsKey(settings.token_uri ?? DEFAULT_TOKEN_URI, settings.client_email, settings.private_key);
    const url = `${trimSlash(settings.api_base_url ?? DEFAULT_API_BASE)}/v1/projects/${encodeURIComponent(settings.project_id)}/messages:send`;
    const body = JSON.stringify({ message: fcmMessage(message, settings.ttl_seconds) });
    try {
      // A 401 means the cached token was revoked or expired early: one fresh token, then give up.
      for (let attempt = 0; ; attempt += 1) {
        const token = await this.tokens.get(key, () => this.issueToken(settings, context));
        const answer = await this.call(url, 'application/json; charset=utf-8', body, context, token.value);
        if (!answer.ok) return guardFailure('FCM', answer);
        if (answer.status === 401 && attempt === 0) {
          this.tokens.drop(key, token.value);
          continue;
        }
        return sendOutcome(answer, this.clock.now());
      }
    } catch (error) {
      if (error instanceof TokenFailure) return error.result;
      throw error;
    }
  }

  private async issueToken(settings: FcmSettings, context: SendContext): Promise<IssuedToken> {
    const tokenUri = settings.token_uri ?? DEFAULT_TOKEN_URI;
    const issuedAt = this.clock.now();
    const iat = Math.floor(issuedAt / 1000);
    let assertion: string;
    try {
      const key = await importPKCS8(pemText(settings.private_key), 'RS256');
      assertion = await new SignJWT({ scope: FCM_SCOPE })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(settings.private_key_id ? { kid: settings.private_key_id } : {}) })
        .setIssuer(settings.client_email)
        .setAudience(tokenUri)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .sign(key);
    } catch {
      throw new TokenFailure(permanent('FCM: the private_key of the service account is not a PKCS#8 RSA key.'));
    }
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
    const answer = await this.call(tokenUri, 'application/x-www-form-urlencoded', form, context);
    if (!answer.ok) throw new TokenFailure(guardFailure('FCM token endpoint', answer));
    const json = parseJson(answer.body) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown };
    if (answer.status !== 200 || typeof json?.access_token !== 'string' || json.access_token === '') {
      const code = typeof json?.error === 'string' ? ` ${json.error}` : '';
      const words = typeof json?.error_description === 'string' ? `: ${json.error_description}` : '';
      const message = vendorWords(`FCM token endpoint answered ${answer.status}${code}${words}`);
      const retryable = answer.status === 429 || answer.status >= 500;
      throw new TokenFailure(
        retryable ? temporary(message, retryAfterMs(answer.headers['retry-after'], this.clock.now())) : permanent(message),
      );
    }
    const lifetimeMs = (typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600) * 1000;
    // Renew before expiry so that a token is never sent in its last moments (clock skew, slow calls).
    const margin = Math.min(5 * 60_000, lifetimeMs / 2);
    return { value: json.access_token, issuedAt, refreshAt: issuedAt + lifetimeMs - margin };
  }

  private call(
    url: string,
    contentType: string,
    body: string,
    context: SendContext,
    bearer?: string,
  ): Promise<SafeResponse | SafeFetchFailure> {
    return safeRequest(url, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body,
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      allowPrivate: context.allowPrivate,
      signal: context.signal,
    });
  }
}

/**
 * The `message` of messages:send. `data` goes as built (domain/outgoing.ts): what the app
 * SDKs read, every value a string as FCM requires. The notification block is for apps that
 * let the system show the push. The message code names the notification on the device
 * (Android's tag, iOS's apns-collapse-id), so a resend after a crash replaces the first
 * rather than showing twice; FCM itself has no idempotency key.
 */
export function fcmMessage(message: MobilePushMessage, ttlSeconds?: number): Record<string, unknown> {
  const notification: Record<string, string> = { title: message.title, body: message.body };
  if (message.picture !== undefined) notification.image = message.picture;
  const android: Record<string, unknown> = { priority: 'high' };
  if (ttlSeconds !== undefined) android.ttl = `${ttlSeconds}s`;
  if (message.idKey !== undefined) android.notification = { tag: message.idKey };
  const out: Record<string, unknown> = { token: message.token, notification, data: { ...message.data }, android };
  const apns: Record<string, unknown> = {};
  if (message.idKey !== undefined && Buffer.byteLength(message.idKey) <= APNS_COLLAPSE_ID_BYTES)
    apns.headers = { 'apns-collapse-id': message.idKey };
  // An iOS app gets the picture only through its notification service extension, which runs on mutable-content.
  if (message.picture !== undefined) {
    apns.payload = { aps: { 'mutable-content': 1 } };
    apns.fcm_options = { image: message.picture };
  }
  if (Object.keys(apns).length > 0) out.apns = apns;
  return out;
}

interface FcmErrorBody {
  error?: {
    status?: string;
    message?: string;
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
}

function sendOutcome(answer: SafeResponse, nowMs: number): SendResult {
  const json = parseJson(answer.body) as ({ name?: unknown } & FcmErrorBody) | undefined;
  if (answer.status >= 200 && answer.status < 300) {
    return typeof json?.name === 'string' ? { ok: true, providerMessageId: json.name } : { ok: true };
  }
  const details = json?.error?.details ?? [];
  const errorCode = details.find((d) => typeof d.errorCode === 'string')?.errorCode ?? json?.error?.status ?? '';
  const words = json?.error?.message ?? '';
  const message = vendorWords(`FCM answered ${answer.status}${errorCode ? ` ${errorCode}` : ''}${words ? `: ${words}` : ''}`);
  // Only FCM's own verdict on the token marks it dead: a bare 404 may be a wrong api_base_url.
  if (answer.status === 404 && errorCode === 'UNREGISTERED') return deadAddress(message);
  if (answer.status === 400 && errorCode === 'INVALID_ARGUMENT' && isAboutToken(details, words)) return deadAddress(message);
  if (answer.status === 429 || answer.status >= 500) return temporary(message, retryAfterMs(answer.headers['retry-after'], nowMs));
  return permanent(message);
}

function isAboutToken(details: NonNullable<FcmErrorBody['error']>['details'], words: string): boolean {
  const violations = (details ?? []).flatMap((d) => d.fieldViolations ?? []);
  return violations.some((v) => v.field === 'message.token') || /registration token/i.test(words);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
