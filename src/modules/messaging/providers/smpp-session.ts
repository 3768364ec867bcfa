import smpp, { type PDU, type Session } from 'smpp';
import type { Address } from '../../../net/address-guard.js';

/**
 * One SMPP 3.4 session bound as a transmitter, over the `smpp` package's client. It
 * answers the SMSC's enquire_link and unbind (an SMSC drops a session that stays silent
 * to them), sends its own enquire_link while idle so that a dead peer is noticed, and
 * fails every request still waiting for an answer when the connection closes: the
 * package itself would leave their callbacks pending forever.
 */

export interface SmppBind {
  readonly system_id: string;
  readonly password: string;
  readonly system_type: string;
}

/** The SMSC answered the bind with an error status (wrong password, unknown system_id…). */
export class SmppBindRefused extends Error {
  constructor(readonly status: number) {
    super(`bind refused with status ${status}`);
  }
}

/** The connection closed, broke, or the deadline passed before an answer came. */
export class SmppConnectionError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const ENQUIRE_LINK_MS = 30_000;

export class SmppSession {
  private readonly pending = new Set<(error: Error) => void>();
  private readonly keepAlive: NodeJS.Timeout;
  private closed = false;

  private constructor(private readonly session: Session) {
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('close', () => this.markClosed('The SMSC closed the connection before it answered.'));
    session.on('error', (error: NodeJS.ErrnoException) => {
      this.markClosed('The connection to the SMSC broke before it answered.', error.code);
      session.destroy();
    });
    this.keepAlive = setInterval(() => {
      if (this.pending.size === 0) this.request('enquire_link', {}, AbortSignal.timeout(ENQUIRE_LINK_MS)).catch(() => session.destroy());
    }, ENQUIRE_LINK_MS);
    this.keepAlive.unref();
  }

  /** Connects to the address the guard judged and binds; rejects with SmppBindRefused or SmppConnectionError. */
  static async open(address: Address, port: number, bind: SmppBind, signal: AbortSignal): Promise<SmppSession> {
    const raw = smpp.connect({ host: address.address, port, family: address.family });
    const session = new SmppSession(raw);
    try {
      await session.connected(signal);
      const answer = await session.request('bind_transmitter', { ...bind }, signal);
      if (answer.command_status !== 0) throw new SmppBindRefused(answer.command_status);
      return session;
    } catch (error) {
      session.destroy();
      throw error;
    }
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Sends one submit_sm; resolves with the SMSC's submit_sm_resp, whatever its status. */
  submit(fields: Record<string, unknown>, signal: AbortSignal): Promise<PDU> {
    return this.request('submit_sm', fields, signal);
  }

  /** Unbinds politely (the SMSC's answer is awaited briefly), then closes the socket. */
  async unbind(): Promise<void> {
    if (!this.closed) await this.request('unbind', {}, AbortSignal.timeout(2000)).catch(() => undefined);
    this.destroy();
  }

  destroy(): void {
    this.markClosed('The session was closed.');
    this.session.destroy();
  }

  private connected(signal: AbortSignal): Promise<void> {
    return this.wait(signal, (resolve) => this.session.socket.once('connect', () => resolve(undefined)));
  }

  private request(
    command: 'bind_transmitter' | 'submit_sm' | 'enquire_link' | 'unbind',
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<PDU> {
    return this.wait<PDU>(signal, (resolve, fail) => {
      if (!this.session[command](fields, resolve)) fail(new SmppConnectionError('The connection to the SMSC is not writable.'));
    });
  }

  /** Runs `start` and settles with it, or fails when the connection closes or `signal` aborts. */
  private wait<T>(signal: AbortSignal, start: (resolve: (value: T) => void, fail: (error: Error) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closed) return reject(new SmppConnectionError('The connection to the SMSC is closed.'));
      const settle = (): void => {
        this.pending.delete(fail);
        signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: Error): void => {
        settle();
        reject(error);
      };
      const onAbort = (): void => fail(new SmppConnectionError('The SMSC did not answer in time.', 'ETIMEDOUT'));
      if (signal.aborted) return onAbort();
      this.pending.add(fail);
      signal.addEventListener('abort', onAbort, { once: true });
      start((value) => {
        settle();
        resolve(value);
      }, fail);
    });
  }

  private markClosed(reason: string, code?: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    for (const fail of [...this.pending]) fail(new SmppConnectionError(reason, code));
  }
}
