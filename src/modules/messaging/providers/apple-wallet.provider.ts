import crypto from 'node:crypto';
import http2, { type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import net from 'node:net';
import { allowedRanges, Deadline, pinnedLookup, resolveAllowed, type AllowPrivate } from '../../../net/address-guard.js';
import { SafeFetchError } from '../../../net/safe-fetch.errors.js';
import {
  APNS_PRODUCTION_URL,
  APPLE_WALLET_SECRET_FIELDS,
  AppleWalletSettingsSchema,
  type AppleWalletSettings,
} from './apple-wallet.settings.js';
import type { Provider, SendContext, SendResult, WalletMessage } from './provider.js';

/**
 * `apple_wallet`: the pass-update push of Apple Wallet (docs/messaging-wallet.md). The
 * push carries nothing: an empty JSON object to `/3/device/<push token>` with the pass
 * type id as the topic, over HTTP/2, authenticated by the pass type certificate as the TLS
 * client certificate. It tells the device to ask our PassKit web service which passes
 * changed and to fetch them; the new pass's message field, whose `changeMessage` shows
 * the text, was stored by the wallet service before the push was sent.
 *
 * One HTTP/2 session per (APNs URL, certificate, address rule) is kept open between
 * sends, as Apple asks of providers; it is connected through the private-address guard
 * and pinned to the address judged there.
 */

export interface AppleWalletProviderOptions {
  /** Certificates to trust besides the system's (tests: the local peer's own). */
  readonly ca?: string;
  /** The whole send, from DNS to the answer; default 15 s. */
  readonly timeoutMs?: number;
  /** How long an unused session stays open; default 10 minutes. */
  readonly idleMs?: number;
}

/** APNs device tokens are hex; anything else would be a path of ours to inject into. */
const PUSH_TOKEN = /^[0-9a-fA-F]{16,200}$/;
const MAX_ANSWER_BYTES = 4_096;

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export class AppleWalletProvider implements Provider<'wallet', AppleWalletSettings> {
  readonly vendor = 'apple_wallet';
  readonly channel = 'wallet' as const;
  readonly settingsSchema = AppleWalletSettingsSchema;
  readonly secretFields: readonly string[] = APPLE_WALLET_SECRET_FIELDS;
  private readonly sessions = new Map<string, Promise<ClientHttp2Session>>();

  constructor(private readonly options: AppleWalletProviderOptions = {}) {}

  async send(settings: AppleWalletSettings, message: WalletMessage, context: SendContext): Promise<SendResult> {
    if (!PUSH_TOKEN.test(message.pushToken)) {
      return { ok: false, kind: 'dead_address', message: 'The push token of the registration is not an APNs device token.' };
    }
    const deadline = new Deadline(this.options.timeoutMs ?? 15_000, context.signal, 'request');
    try {
      const session = await this.session(settings, context.allowPrivate, deadline.signal);
      return toResult(await post(session, settings.pass_type_identifier, message.pushToken, deadline.signal));
    } catch (error) {
      const failure = deadline.failure(error);
      // An address the guard refuses stays refused; anything else on the way may pass later.
      if (failure.code === 'refused_address' || failure.code === 'invalid_url') {
        return { ok: false, kind: 'permanent', message: failure.message };
      }
      return { ok: false, kind: 'temporary', message: `APNs could not be reached: ${failure.message}` };
    } finally {
      deadline.clear();
    }
  }

  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      open.map(async (pending) => {
        const session = await pending.catch(() => undefined);
        if (session && !session.closed) await new Promise<void>((resolve) => session.close(resolve));
      }),
    );
  }

  private session(settings: AppleWalletSettings, allowPrivate: AllowPrivate, signal: AbortSignal): Promise<ClientHttp2Session> {
    const origin = new URL(settings.api_url ?? APNS_PRODUCTION_URL).origin;
    const key = sessionKey(origin, settings, allowPrivate);
    let pending = this.sessions.get(key);
    if (!pending) {
      pending = this.connect(origin, settings, allowPrivate, signal);
      this.sessions.set(key, pending);
      const forget = () => {
        if (this.sessions.get(key) === pending) this.sessions.delete(key);
      };
      pending.then((session) => {
        session.once('close', forget);
        session.once('goaway', forget);
        session.once('error', forget);
      }, forget);
    }
    return pending;
  }

  private async connect(
    origin: string,
    settings: AppleWalletSettings,
    allowPrivate: AllowPrivate,
    signal: AbortSignal,
  ): Promise<ClientHttp2Session> {
    const url = new URL(origin);
    if (url.protocol !== 'https:') throw new SafeFetchError('invalid_url', 'The APNs URL must use https.');
    const address = await resolveAllowed(url, allowedRanges(allowPrivate), signal);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const session = http2.connect(origin, {
      lookup: pinnedLookup(address),
      cert: settings.signer_certificate,
      key: settings.signer_key,
      ...(settings.signer_key_passphrase !== undefined ? { passphrase: settings.signer_key_passphrase } : {}),
      ...(this.options.ca !== undefined ? { ca: this.options.ca } : {}),
      // SNI takes a host name only.
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
    });
    // An idle session is closed; the next send opens another.
    session.setTimeout(this.options.idleMs ?? 600_000, () => session.close());
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        session.destroy();
        reject(signal.reason instanceof Error ? signal.reason : new SafeFetchError('aborted', 'The request was cancelled.'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      session.once('connect', () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
      session.once('error', (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      });
    });
    // Later session errors end the session (forgotten above); each request reports its own.
    session.on('error', () => undefined);
    return session;
  }
}

function sessionKey(origin: string, settings: AppleWalletSettings, allowPrivate: AllowPrivate): string {
  const credentials = crypto
    .createHash('sha256')
    .update(settings.signer_certificate)
    .update('\0')
    .update(settings.signer_key)
    .update('\0')
    .update(settings.signer_key_passphrase ?? '')
    .digest('hex');
  return `${origin} ${credentials} ${JSON.stringify(allowPrivate)}`;
}

function post(session: ClientHttp2Session, topic: string, pushToken: string, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const stream = session.request(
      {
        ':method': 'POST',
        ':path': `/3/device/${pushToken}`,
        'apns-topic': topic,
        'content-type': 'application/json',
      },
      { signal },
    );
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('response', (received) => {
      headers = received;
    });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
    });
    stream.on('end', () => {
      const status = Number(headers[':status']);
      // A stream closed before any answer (the peer dropped the connection, a TLS alert).
      if (!Number.isInteger(status)) reject(new SafeFetchError('unreachable', 'APNs closed the connection without an answer.'));
      else resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
    });
    stream.on('close', () => reject(new SafeFetchError('unreachable', 'APNs closed the connection without an answer.')));
    stream.on('error', reject);
    // The pass-update push has no content: the device fetches the pass itself.
    stream.end('{}');
  });
}

/** APNs answers 200 with an apns-id, or a status with `{"reason": …}` (Apple: "Handling notification responses from APNs"). */
function toResult(answer: Answer): SendResult {
  const apnsId = answer.headers['apns-id'];
  if (answer.status === 200) return typeof apnsId === 'string' ? { ok: true, providerMessageId: apnsId } : { ok: true };
  const reason = readReason(answer.body);
  const message = `APNs answered ${answer.status}${reason ? `: ${reason}` : ''}.`;
  // 410: the device token is no longer active for the topic (the pass was removed).
  if (answer.status === 410) return { ok: false, kind: 'dead_address', message };
  if (answer.status === 429 || answer.status >= 500) return { ok: false, kind: 'temporary', message };
  return { ok: false, kind: 'permanent', message };
}

function readReason(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    const reason = typeof parsed === 'object' && parsed !== null ? (parsed as { reason?: unknown }).reason : undefined;
    // Apple's reasons are short identifiers; anything else is not repeated to an admin.
    return typeof reason === 'string' && /^[A-Za-z]{1,64}$/.test(reason) ? reason : undefined;
  } catch {
    return undefined;
  }
}
