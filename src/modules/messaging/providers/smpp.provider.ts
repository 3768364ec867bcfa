import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import smpp from 'smpp';
import { allowedRanges, resolveAllowed, type AllowPrivate } from '../../../net/address-guard.js';
import { formatDuration, SafeFetchError } from '../../../net/safe-fetch.errors.js';
import type { Provider, SendContext, SendResult, SmsMessage } from './provider.js';
import { encodeSms, ESM_CLASS_UDHI } from './sms-encoding.js';
import { SmppBindRefused, SmppConnectionError, SmppSession } from './smpp-session.js';

/**
 * SMS over SMPP 3.4: one transmitter session per distinct account, kept open between
 * sends (an SMSC counts binds, and a bind per message would be slow and often refused),
 * replaced when it closes, unbound after a quiet spell and on close(). The SMSC host is
 * resolved and judged by the private-address guard and the TCP connection goes to the
 * judged address. Long texts are split with UDH concatenation (sms-encoding.ts).
 */

export const SmppSettingsSchema = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 253, description: "The SMSC's host name or address." }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'Default 2775.' })),
    system_id: Type.String({ minLength: 1, maxLength: 15, description: 'The account name of the bind.' }),
    password: Type.String({ maxLength: 64, description: 'The password of the bind (a secret).' }),
    system_type: Type.Optional(Type.String({ maxLength: 12 })),
    source_addr: Type.String({ minLength: 1, maxLength: 20, description: 'The sender: a number or an alphanumeric name.' }),
    source_addr_ton: Type.Optional(Type.Integer({ minimum: 0, maximum: 6, description: 'Default 5 for a name, 1 for a number.' })),
    source_addr_npi: Type.Optional(Type.Integer({ minimum: 0, maximum: 18, description: 'Default 0 for a name, 1 for a number.' })),
  },
  { additionalProperties: false },
);
export type SmppSettings = Static<typeof SmppSettingsSchema>;

export interface SmppProviderOptions {
  /** Connect, bind and every part's answer, per send. Default 10 s. */
  readonly timeoutMs?: number;
  /** A session unused this long is unbound. Default 5 minutes. */
  readonly idleMs?: number;
}

const DEFAULT_PORT = 2775;
const TON_INTERNATIONAL = 1;
const NPI_ISDN = 1;
const TON_ALPHANUMERIC = 5;

const TEMPORARY_STATUSES = new Set(['ESME_RTHROTTLED', 'ESME_RMSGQFUL']);
const BIND_REASONS: Readonly<Record<string, string>> = {
  ESME_RINVPASWD: 'the password is wrong',
  ESME_RINVSYSID: 'the system_id is unknown',
  ESME_RINVSYSTYP: 'the system_type is not accepted',
  ESME_RBINDFAIL: 'the bind failed',
  ESME_RALYBND: 'the account is already bound',
};

interface PooledSession {
  readonly session: Promise<SmppSession>;
  idle?: NodeJS.Timeout;
}

export class SmppProvider implements Provider<'sms', SmppSettings> {
  readonly vendor = 'smpp';
  readonly channel = 'sms' as const;
  readonly settingsSchema = SmppSettingsSchema;
  readonly secretFields = ['password'] as const;

  private readonly sessions = new Map<string, PooledSession>();
  private readonly timeoutMs: number;
  private readonly idleMs: number;
  private reference = Math.floor(Math.random() * 256);

  constructor(options: SmppProviderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.idleMs = options.idleMs ?? 5 * 60_000;
  }

  async send(settings: SmppSettings, message: SmsMessage, context: SendContext): Promise<SendResult> {
    const to = message.to.replace(/^\+/, '');
    if (!/^\d{5,20}$/.test(to)) {
      return { ok: false, kind: 'dead_address', message: 'The phone number is not a number in international form.' };
    }
    this.reference = (this.reference + 1) % 256;
    const encoded = encodeSms(message.body, this.reference);
    if (!encoded.ok) return { ok: false, kind: 'permanent', message: encoded.reason };

    const signals = [AbortSignal.timeout(this.timeoutMs), ...(context.signal ? [context.signal] : [])];
    const signal = AbortSignal.any(signals);
    let session: SmppSession | undefined;
    try {
      session = await this.acquire(settings, context.allowPrivate, signal);
      const alphanumeric = /[^0-9]/.test(settings.source_addr);
      const ids: string[] = [];
      for (const part of encoded.value.parts) {
        const answer = await session.submit(
          {
            source_addr_ton: settings.source_addr_ton ?? (alphanumeric ? TON_ALPHANUMERIC : TON_INTERNATIONAL),
            source_addr_npi: settings.source_addr_npi ?? (alphanumeric ? 0 : NPI_ISDN),
            source_addr: settings.source_addr,
            dest_addr_ton: TON_INTERNATIONAL,
            dest_addr_npi: NPI_ISDN,
            destination_addr: to,
            esm_class: encoded.value.parts.length > 1 ? ESM_CLASS_UDHI : 0,
            data_coding: encoded.value.dataCoding,
            short_message: part,
          },
          signal,
        );
        if (answer.command_status !== 0) return submitRefused(answer.command_status);
        ids.push(String(answer.message_id));
      }
      // Every part has its own id at the SMSC (and its own delivery receipt): all are kept.
      return { ok: true, providerMessageId: ids.join(',') };
    } catch (error) {
      if (signal.aborted && !(error instanceof SmppBindRefused)) {
        // An SMSC that lets a submit go unanswered is most often a connection a NAT or firewall
        // dropped silently: the next send should not wait on it again, so it binds afresh.
        session?.destroy();
        return this.timedOut();
      }
      return this.failure(error);
    }
  }

  async close(): Promise<void> {
    const pooled = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      pooled.map(async (entry) => {
        clearTimeout(entry.idle);
        const session = await entry.session.catch(() => undefined);
        await session?.unbind();
      }),
    );
  }

  /**
   * The open session of this account, or a new one. Sends that arrive while a bind is under
   * way wait for it and share its outcome: a refused bind is not retried once per waiter.
   */
  private async acquire(settings: SmppSettings, allowPrivate: AllowPrivate, signal: AbortSignal): Promise<SmppSession> {
    const key = sessionKey(settings, allowPrivate);
    for (let found = this.sessions.get(key); found; found = this.sessions.get(key)) {
      // A failed bind removes its own entry, so one found here is open, closed since, or still binding.
      const existing = await found.session;
      if (existing.isOpen) {
        this.touch(key, found);
        return existing;
      }
      // Closed: replace it, unless a concurrent send already did (then use that one).
      if (this.sessions.get(key) === found) {
        this.drop(key);
        break;
      }
    }
    const opening = this.open(settings, allowPrivate, signal);
    const entry: PooledSession = { session: opening };
    this.sessions.set(key, entry);
    opening.catch(() => {
      if (this.sessions.get(key) === entry) this.sessions.delete(key);
    });
    const session = await opening;
    this.touch(key, entry);
    return session;
  }

  private async open(settings: SmppSettings, allowPrivate: AllowPrivate, signal: AbortSignal): Promise<SmppSession> {
    const address = await resolveAllowed(settings.host, allowedRanges(allowPrivate), signal);
    return SmppSession.open(
      address,
      settings.port ?? DEFAULT_PORT,
      {
        system_id: settings.system_id,
        password: settings.password,
        system_type: settings.system_type ?? '',
      },
      signal,
    );
  }

  /** Restarts the quiet-spell timer: an account that stops sending does not hold a bind forever. */
  private touch(key: string, entry: PooledSession): void {
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      if (this.sessions.get(key) !== entry) return;
      this.sessions.delete(key);
      void entry.session.then(
        (session) => session.unbind(),
        () => undefined,
      );
    }, this.idleMs);
    entry.idle.unref();
  }

  private drop(key: string): void {
    clearTimeout(this.sessions.get(key)?.idle);
    this.sessions.delete(key);
  }

  private failure(error: unknown): SendResult {
    if (error instanceof SmppBindRefused) {
      const name = statusName(error.status);
      const reason = BIND_REASONS[name] ?? 'the bind was refused';
      return { ok: false, kind: 'permanent', message: `The SMSC refused the bind: ${reason} (${name}).` };
    }
    if (error instanceof SafeFetchError) {
      if (error.code === 'refused_address') {
        return { ok: false, kind: 'permanent', message: 'The SMSC host is a local or private network address, which is not allowed.' };
      }
      return { ok: false, kind: 'temporary', message: 'The SMSC host name could not be resolved.' };
    }
    if (error instanceof SmppConnectionError) {
      if (error.code === 'ETIMEDOUT') return this.timedOut();
      if (error.code === 'ECONNREFUSED') return { ok: false, kind: 'temporary', message: 'The SMSC refused the connection.' };
      return { ok: false, kind: 'temporary', message: error.message };
    }
    // allowedRanges refuses a malformed PATRON_FETCH_ALLOW_PRIVATE: a configuration error, not this message's.
    return { ok: false, kind: 'temporary', message: 'The SMS could not be sent over SMPP.' };
  }

  private timedOut(): SendResult {
    return { ok: false, kind: 'temporary', message: `The SMSC did not answer within ${formatDuration(this.timeoutMs)}.` };
  }
}

function submitRefused(status: number): SendResult {
  const name = statusName(status);
  if (TEMPORARY_STATUSES.has(name)) return { ok: false, kind: 'temporary', message: `The SMSC is busy (${name}).` };
  if (name === 'ESME_RINVDSTADR') {
    return { ok: false, kind: 'dead_address', message: 'The SMSC refused the destination number (ESME_RINVDSTADR).' };
  }
  return { ok: false, kind: 'permanent', message: `The SMSC refused the message (${name}).` };
}

/** The ESME_* name of a command_status, or its hex value for a vendor-specific one. */
function statusName(status: number): string {
  const hex = `0x${status.toString(16).padStart(8, '0')}`;
  const name = Object.entries(smpp.errors).find(([, code]) => code === status)?.[0];
  return name ?? hex;
}

/** Sessions are shared by accounts that are the same in every field the bind or the guard depends on. */
function sessionKey(settings: SmppSettings, allowPrivate: AllowPrivate): string {
  const parts = [
    settings.host,
    settings.port ?? DEFAULT_PORT,
    settings.system_id,
    settings.password,
    settings.system_type ?? '',
    allowPrivate,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
