import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

/** How a ChannelListener waits, retries and checks its connection. */
export interface ListenerTiming {
  /** The wait before the first reconnection attempt after a loss; it doubles per failed attempt. */
  readonly backoffMs: number;
  /** The longest wait between two attempts. */
  readonly maxBackoffMs: number;
  /** How often an established connection proves that it still delivers (a ping, below). */
  readonly pingEveryMs: number;
  /** How long a connection attempt or a ping may take before the connection is given up. */
  readonly timeoutMs: number;
}

export const LISTENER_TIMING: ListenerTiming = { backoffMs: 100, maxBackoffMs: 10_000, pingEveryMs: 30_000, timeoutMs: 10_000 };

/**
 * The wait before reconnection attempt `attempt` (0: the first after a loss): the backoff
 * doubled per attempt up to its ceiling, less up to a fifth at random, so that the nodes
 * that lost the database together do not all come back in the same instant.
 */
export function reconnectDelay(attempt: number, timing: ListenerTiming, random: () => number = Math.random): number {
  const full = Math.min(timing.maxBackoffMs, timing.backoffMs * 2 ** Math.min(attempt, 30));
  return Math.round(full * (1 - 0.2 * random()));
}

export interface ChannelListenerOptions {
  /** A direct connection (or session pooling): LISTEN needs a session of its own (docs/scaling.md). */
  readonly url: string;
  readonly channel: string;
  /** The connection's application_name: how an operator finds it in pg_stat_activity. */
  readonly applicationName: string;
  /** A notification on `channel`, with its payload. */
  readonly onNotification: (payload: string) => void;
  /**
   * Each time a connection is established and has delivered its first ping, the first
   * one included: whatever was notified while there was none was missed.
   */
  readonly onConnected: () => void;
  /** A connection (or an attempt) was lost; the next attempt follows after `retryInMs`. */
  readonly onLost?: (error: Error, retryInMs: number) => void;
  readonly timing?: Partial<ListenerTiming>;
}

export interface ChannelListenerStats {
  /** True while a connection is established and delivering. */
  readonly connected: boolean;
  /** Connections established since start. */
  readonly connections: number;
  /** Notifications heard on the channel since start. */
  readonly notifications: number;
}

interface PendingPing {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One PostgreSQL connection, outside the pool, that LISTENs on a channel and keeps doing
 * so: a lost connection (an error, its end, a ping unanswered) is replaced after a
 * backoff, for as long as the listener is open, and each new connection is announced
 * (`onConnected`), since what was sent meanwhile is lost.
 *
 * A ping is a notification the listener sends itself on a channel of its own, through
 * its own connection, and must hear within the timeout: it proves the whole path, a
 * connection that died without a word (a half-open TCP connection, a pooler that does
 * not pass notifications on) included. Once connected, its socket and timers do not
 * keep the process alive; close() ends them.
 */
export class ChannelListener {
  private readonly timing: ListenerTiming;
  /** A channel only this listener hears: another process's pings never reach it. */
  private readonly pingChannel = `patron_ping_${crypto.randomBytes(8).toString('hex')}`;
  private readonly pings = new Map<string, PendingPing>();
  private client: pg.Client | undefined;
  private connected = false;
  private closed = false;
  /** Failed attempts since the last established connection. */
  private attempts = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private connections = 0;
  private notifications = 0;

  constructor(private readonly options: ChannelListenerOptions) {
    this.timing = { ...LISTENER_TIMING, ...options.timing };
  }

  /** Makes the first attempt; resolves once it connected or failed (it is then retried), never rejects. */
  start(): Promise<void> {
    return this.connect();
  }

  /** Ends the connection and every retry; the listener cannot be started again. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    if (client) this.drop(client, new Error('the listener closed'));
    // A clean end is prompt; a connection that died silently may not answer, and must not hold the shutdown.
    if (client) await Promise.race([client.end().catch(() => undefined), delay(this.timing.timeoutMs)]);
  }

  stats(): ChannelListenerStats {
    return { connected: this.connected, connections: this.connections, notifications: this.notifications };
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let socket: net.Socket | undefined;
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: this.options.applicationName,
      connectionTimeoutMillis: this.timing.timeoutMs,
      keepAlive: true,
      // pg's own socket, kept to be unreferenced once the connection stands.
      stream: () => (socket = new net.Socket()),
    });
    this.client = client;
    client.on('error', (error) => this.lose(client, error));
    client.on('end', () => this.lose(client, new Error('the connection ended')));
    client.on('notification', (message) => this.heard(message.channel, message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.options.channel)}`);
      await client.query(`LISTEN ${client.escapeIdentifier(this.pingChannel)}`);
      await this.ping(client);
    } catch (error) {
      this.lose(client, asError(error));
      return;
    }
    if (this.client !== client) return;
    // Held while connecting (the process waits for that), not while it only listens:
    // a process that has nothing else left to do ends.
    socket?.unref();
    this.connected = true;
    this.attempts = 0;
    this.connections += 1;
    this.options.onConnected();
    this.schedulePing(client);
  }

  private heard(channel: string, payload: string): void {
    if (channel === this.pingChannel) {
      this.pings.get(payload)?.resolve();
      return;
    }
    if (channel !== this.options.channel) return;
    this.notifications += 1;
    this.options.onNotification(payload);
  }

  /** Sends the listener a notification of its own and waits for it. */
  private ping(client: pg.Client): Promise<void> {
    const nonce = crypto.randomBytes(8).toString('hex');
    return new Promise<void>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        const pending = this.pings.get(nonce);
        if (!pending) return;
        clearTimeout(pending.timer);
        this.pings.delete(nonce);
        outcome();
      };
      const timer = setTimeout(
        () => settle(() => reject(new Error(`a ping was not answered within ${this.timing.timeoutMs} ms`))),
        this.timing.timeoutMs,
      );
      timer.unref();
      this.pings.set(nonce, {
        resolve: () => settle(resolve),
        reject: (error) => settle(() => reject(error)),
        timer,
      });
      client.query('select pg_notify($1, $2)', [this.pingChannel, nonce]).catch((error: unknown) => settle(() => reject(asError(error))));
    });
  }

  private schedulePing(client: pg.Client): void {
    this.pingTimer = setTimeout(() => {
      this.ping(client).then(
        () => {
          if (this.client === client) this.schedulePing(client);
        },
        (error: unknown) => this.lose(client, asError(error)),
      );
    }, this.timing.pingEveryMs);
    this.pingTimer.unref();
  }

  /** The connection `client` failed: drop it and, unless closed, try again after the backoff. */
  private lose(client: pg.Client, error: Error): void {
    if (this.client !== client) return;
    this.drop(client, error);
    // pg destroys the socket when a query is still running (a ping that got no answer).
    void client.end().catch(() => undefined);
    if (this.closed) return;
    const wait = reconnectDelay(this.attempts, this.timing);
    this.attempts += 1;
    this.options.onLost?.(error, wait);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, wait);
    this.retryTimer.unref();
  }

  private drop(client: pg.Client, error: Error): void {
    if (this.client === client) this.client = undefined;
    this.connected = false;
    clearTimeout(this.pingTimer);
    for (const pending of [...this.pings.values()]) pending.reject(error);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
