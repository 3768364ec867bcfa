import { createHash, createPrivateKey, randomUUID } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type MailMessage from 'nodemailer/lib/mailer/mail-message';
import { isGuardAllowed, resolveGuardedHost } from '../../../net/address-guard.js';
import type { EmailMessage, Provider, SendContext, SendResult } from './provider.js';
import { composeMime, fromHeaderValue } from './mime-message.js';
import { checkMessage, parseMailbox } from './smtp-message-checks.js';
import { classifyRecipientReply, classifySmtpError } from './smtp-errors.js';
import { parseSmtpUrl, SMTP_SECRET_FIELDS, SmtpSettingsSchema, type SmtpEndpoint, type SmtpSettings } from './smtp-settings.js';

export { redactSmtpUrl, SmtpSettingsSchema, type SmtpSettings } from './smtp-settings.js';

/**
 * Email through an SMTP server of the shop's choosing (vendor 'smtp'), with nodemailer.
 *
 * One connection pool per distinct settings, keyed by their hash: sends of one shop reuse
 * their connections, and changed settings get a new pool (the old one is closed once
 * idle). The server's host is resolved once per pool through the outbound guard
 * (net/safe-fetch.ts) and the pool connects to that address only, naming the host for
 * TLS alone; every send checks the pinned address against its own SendContext.
 */

const DEFAULT_TIMEOUT_MS = 30_000;
/** A pool unused this long is closed at the next send; its settings were probably replaced. */
const IDLE_POOL_MS = 10 * 60_000;
/** Messages one pooled connection sends before it is replaced, unless `pool.max_messages` says otherwise. */
export const DEFAULT_MAX_MESSAGES_PER_CONNECTION = 1000;

export interface SmtpProviderOptions {
  /** Default 10 minutes. */
  readonly idlePoolMs?: number;
}
interface Pool {
  readonly transport: Mail;
  readonly address: string;
}

interface PoolEntry {
  readonly pool: Promise<Pool>;
  lastUsed: number;
}

type Prepared =
  | {
      readonly ok: true;
      readonly endpoint: SmtpEndpoint;
      readonly fromAddress: string;
      readonly fromDomain: string;
      /** The From header's value, encoded once per settings (mime-message.ts). */
      readonly fromHeader: string;
    }
  | Extract<SendResult, { ok: false }>;

export class SmtpProvider implements Provider<'email', SmtpSettings> {
  readonly vendor = 'smtp';
  readonly channel = 'email' as const;
  readonly settingsSchema = SmtpSettingsSchema;
  readonly secretFields: readonly string[] = SMTP_SECRET_FIELDS;

  private readonly pools = new Map<string, PoolEntry>();
  /**
   * The checks and pool key of a settings object. Delivery hands the same object for a
   * while (channels.service.ts caches it), and checking a DKIM key and hashing the
   * settings at every send cost more than composing the message.
   */
  private readonly checked = new WeakMap<SmtpSettings, { readonly prepared: Prepared; readonly key: string }>();
  private readonly idlePoolMs: number;

  constructor(options: SmtpProviderOptions = {}) {
    this.idlePoolMs = options.idlePoolMs ?? IDLE_POOL_MS;
  }

  async send(settings: SmtpSettings, message: EmailMessage, context: SendContext): Promise<SendResult> {
    if (context.signal?.aborted) return { ok: false, kind: 'temporary', message: 'The send was cancelled before it started.' };
    const { prepared, key: poolKey } = this.check(settings);
    if (!prepared.ok) return prepared;
    const refused = checkMessage(message);
    if (refused) return refused;
    const secrets = [prepared.endpoint.user, prepared.endpoint.pass].filter((s): s is string => s !== undefined);

    let pool: Pool;
    try {
      pool = await this.poolFor(poolKey, settings, prepared.endpoint, context);
    } catch (error) {
      return error instanceof GuardRefusal ? error.result : classifySmtpError(error, secrets);
    }
    if (!isGuardAllowed(pool.address, context.allowPrivate)) return refusedAddress();

    const key = message.idKey !== undefined && /^[A-Za-z0-9._-]{1,200}$/.test(message.idKey) ? message.idKey : randomUUID();
    const messageId = `<${key}@${prepared.fromDomain}>`;
    const envelope = { from: prepared.fromAddress, to: [message.to, ...message.cc, ...message.bcc] };
    const subject = oneLine(message.subject);
    const raw = composeMime({
      from: prepared.fromHeader,
      to: message.to,
      cc: message.cc,
      subject,
      messageId,
      date: new Date(),
      headers: message.headers,
      text: message.text,
      html: message.html,
      boundary: nextBoundary(),
    });
    try {
      let info: SentInfo;
      if (raw && !settings.dkim) {
        info = await sendPrepared(pool.transport, new PreparedMail(raw, envelope, messageId));
      } else {
        const mail: Mail.Options = raw
          ? { raw, envelope, disableFileAccess: true, disableUrlAccess: true }
          : {
              from: settings.from,
              to: message.to,
              cc: [...message.cc],
              bcc: [...message.bcc],
              subject,
              html: message.html,
              text: message.text,
              headers: { ...message.headers },
              messageId,
              envelope,
              disableFileAccess: true,
              disableUrlAccess: true,
            };
        info = (await pool.transport.sendMail(mail)) as SentInfo;
      }
      // Copies went out, so a refused main recipient is reported but never retried.
      const main = info.rejectedErrors?.find((e) => e.recipient === message.to);
      if (main?.response !== undefined) {
        const failure = classifyRecipientReply(main.response, secrets);
        return failure.kind === 'temporary' ? { ...failure, kind: 'permanent' } : failure;
      }
      return { ok: true, providerMessageId: messageId };
    } catch (error) {
      return classifySmtpError(error, secrets, error instanceof Error && HANDED_OVER in error);
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(pools.map(async (entry) => (await entry.pool).transport.close()));
  }

  private check(settings: SmtpSettings): { readonly prepared: Prepared; readonly key: string } {
    let checked = this.checked.get(settings);
    if (!checked) {
      checked = {
        prepared: prepare(settings),
        key: createHash('sha256')
          .update(JSON.stringify(canonical(settings)))
          .digest('hex'),
      };
      this.checked.set(settings, checked);
    }
    return checked;
  }

  private poolFor(key: string, settings: SmtpSettings, endpoint: SmtpEndpoint, context: SendContext): Promise<Pool> {
    const now = performance.now();
    this.closeIdle(now, key);
    let entry = this.pools.get(key);
    if (!entry) {
      const created: PoolEntry = { pool: openPool(settings, endpoint, context), lastUsed: now };
      this.pools.set(key, created);
      // A pool that could not open is forgotten, so the next send resolves the host again.
      created.pool.catch(() => {
        if (this.pools.get(key) === created) this.pools.delete(key);
      });
      entry = created;
    }
    // Marked used before any await, so that no other send can find it idle and close it under us.
    entry.lastUsed = now;
    return entry.pool;
  }

  private closeIdle(now: number, keep: string): void {
    for (const [key, entry] of this.pools) {
      if (key === keep || now - entry.lastUsed <= this.idlePoolMs) continue;
      this.pools.delete(key);
      entry.pool.then(
        (pool) => pool.transport.close(),
        () => undefined,
      );
    }
  }
}

interface SentInfo {
  readonly rejectedErrors?: { recipient?: string; response?: string }[];
}

/**
 * A composed message as nodemailer's pool takes it from its Mailer (a transport's
 * `send(mail, callback)`): the envelope, the Message-ID, and a stream of the bytes. The
 * pool reads only these members (smtp-pool, pool-resource.js), and the provider tests
 * send through it. Handing the pool this instead of `sendMail({ raw })` skips the
 * Mailer's plugin steps and its MIME node's stream pipeline (a PassThrough, a newline
 * transform and an aborted AbortController per message), which cost as much CPU again as
 * the rest of the send. A message to sign with DKIM goes through sendMail, whose stream
 * step signs it.
 */
class PreparedMail {
  readonly data: { readonly envelope: { from: string; to: string[] } };
  readonly message: {
    getEnvelope(): { from: string; to: string[] };
    messageId(): string;
    getHeader(key: string): string | undefined;
    createReadStream(): Readable;
  };

  constructor(raw: Buffer, envelope: { readonly from: string; readonly to: readonly string[] }, messageId: string) {
    this.data = { envelope: { from: envelope.from, to: [...envelope.to] } };
    this.message = {
      // The pool adds to the envelope it is given (dsn), so each call gets its own.
      getEnvelope: () => ({ from: envelope.from, to: [...envelope.to] }),
      messageId: () => messageId,
      getHeader: (key) => (key.toLowerCase() === 'message-id' ? messageId : undefined),
      createReadStream: () =>
        new Readable({
          read() {
            this.push(raw);
            this.push(null);
          },
        }),
    };
  }
}

function sendPrepared(transport: Mail, mail: PreparedMail): Promise<SentInfo> {
  return new Promise((resolve, reject) => {
    transport.transporter.send(mail as unknown as MailMessage, (error, info) =>
      error ? reject(error) : resolve((info ?? {}) as unknown as SentInfo),
    );
  });
}

class GuardRefusal extends Error {
  constructor(readonly result: Extract<SendResult, { ok: false }>) {
    super(result.message);
  }
}

async function openPool(settings: SmtpSettings, endpoint: SmtpEndpoint, context: SendContext): Promise<Pool> {
  const timeout = settings.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const guarded = await resolveGuardedHost(endpoint.host, {
    allowPrivate: context.allowPrivate,
    timeoutMs: timeout,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (!guarded.ok) {
    if (guarded.code === 'refused_address') throw new GuardRefusal(refusedAddress());
    const message =
      guarded.code === 'unresolvable'
        ? 'The host name of the SMTP server could not be resolved.'
        : 'The host name of the SMTP server could not be resolved in time.';
    throw new GuardRefusal({ ok: false, kind: 'temporary', message });
  }
  const servername = net.isIP(endpoint.host) === 0 ? endpoint.host : undefined;
  const transport = nodemailer.createTransport({
    pool: true,
    // The checked address, never the name: nodemailer would resolve the name again.
    host: guarded.address,
    port: endpoint.port,
    secure: endpoint.implicitTls,
    requireTLS: endpoint.starttls === 'required',
    ignoreTLS: endpoint.starttls === 'never',
    ...(servername ? { servername } : {}),
    tls: {
      rejectUnauthorized: endpoint.tlsVerify,
      minVersion: 'TLSv1.2',
      ...(servername ? { servername } : {}),
    },
    ...(endpoint.user !== undefined ? { auth: { user: endpoint.user, pass: endpoint.pass ?? '' } } : {}),
    ...(endpoint.ehlo !== undefined ? { name: endpoint.ehlo } : {}),
    maxConnections: settings.pool?.max_connections ?? 5,
    // nodemailer's default (100) replaces a connection, with its greeting and EHLO, every 100 messages.
    maxMessages: settings.pool?.max_messages ?? DEFAULT_MAX_MESSAGES_PER_CONNECTION,
    ...(settings.pool?.rate_per_second !== undefined ? { rateLimit: settings.pool.rate_per_second, rateDelta: 1000 } : {}),
    // A message whose connection broke is failed, not resent by the pool: the job queue
    // retries it with backoff, and the wait stays bounded by one timeout.
    maxRequeues: 0,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(settings.dkim
      ? {
          dkim: {
            domainName: settings.dkim.domain,
            keySelector: settings.dkim.selector,
            privateKey: settings.dkim.private_key,
          },
        }
      : {}),
  });
  markHandover(transport);
  return { transport, address: guarded.address };
}

/** Set on the error of a send whose whole message had been read into its connection. */
const HANDED_OVER = Symbol('smtp message handed over');

type PoolSend = (mail: MailMessage, callback: (error: Error | null, info: unknown) => void) => void;

/**
 * Wraps the pool's send, through which both ways of sending pass (sendPrepared, and
 * sendMail's signed stream): the message stream read to its end means the server has
 * been, or is being, sent the whole message and its final dot. An error after that (a
 * timeout, a broken connection) is marked HANDED_OVER, so that it is reported as an
 * unknown outcome (smtp-errors.ts) rather than retried as a send that never happened.
 */
function markHandover(transport: Mail): void {
  const transporter = transport.transporter as unknown as { send: PoolSend };
  const send = transporter.send.bind(transporter);
  transporter.send = (mail, callback) => {
    let handedOver = false;
    const message = mail.message as unknown as { createReadStream(): Readable };
    const createReadStream = message.createReadStream.bind(message);
    message.createReadStream = () =>
      createReadStream().once('end', () => {
        handedOver = true;
      });
    send(mail, (error, info) => {
      if (error && handedOver) Object.defineProperty(error, HANDED_OVER, { value: true });
      callback(error, info);
    });
  };
}

/** Checks the settings beyond their schema; the reasons go to an admin. */
function prepare(settings: SmtpSettings): Prepared {
  const parsed = parseSmtpUrl(settings.smtp_url);
  if (!parsed.ok) return { ok: false, kind: 'permanent', message: parsed.reason };
  const from = parseMailbox(settings.from);
  if (!from) return { ok: false, kind: 'permanent', message: 'The from setting is not an email address or "Name <address>".' };
  if (settings.dkim) {
    try {
      if (createPrivateKey(settings.dkim.private_key).asymmetricKeyType !== 'rsa') throw new Error('not rsa');
    } catch {
      return { ok: false, kind: 'permanent', message: 'The DKIM private key is not a readable RSA key in PEM.' };
    }
  }
  return {
    ok: true,
    endpoint: parsed.endpoint,
    fromAddress: from,
    fromDomain: from.slice(from.lastIndexOf('@') + 1),
    fromHeader: fromHeaderValue(settings.from.trim()),
  };
}

const BOUNDARY_PREFIX = `=_patron_${randomUUID().slice(0, 8)}_`;
let boundaries = 0;

/** A multipart boundary unique in this process; `=_` keeps it out of quoted-printable and base64 text. */
function nextBoundary(): string {
  boundaries = (boundaries + 1) % Number.MAX_SAFE_INTEGER;
  return `${BOUNDARY_PREFIX}${boundaries.toString(36)}`;
}

/** A subject is one header line: line breaks a template may produce become spaces. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function refusedAddress(): Extract<SendResult, { ok: false }> {
  return {
    ok: false,
    kind: 'permanent',
    message: 'The SMTP server is on a local or private network address, which is not allowed (PATRON_FETCH_ALLOW_PRIVATE).',
  };
}

/** Settings with object keys sorted, so that equal settings hash alike whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
