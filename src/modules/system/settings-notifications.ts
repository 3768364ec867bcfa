import type { Clock } from '../../clock.js';
import { ChannelListener, type ChannelListenerStats, type ListenerTiming } from '../../db/postgres/channel-listener.js';
import { SETTINGS_CHANNEL, type SettingsVersion } from './settings-version.js';

/** How an operator finds the connection in pg_stat_activity (with the process id after the colon). */
export const LISTENER_APPLICATION_NAME = 'patron-settings-listener';

/** What a log of the listener's ups and downs needs (pino's logger has it). */
export interface ListenerLog {
  info(facts: object, message: string): void;
  warn(facts: object, message: string): void;
}

/**
 * Makes an admin change reach the caches of this thread as it commits, whichever process
 * made it (docs/settings-caches.md, "How a change travels"): on PostgreSQL, one connection
 * of the process LISTENs on the settings channel, and each change heard drops every cache
 * of admin settings, so that the hot paths (the checkout, /transact, the public reads),
 * which never read the settings version, need no TTL to see it.
 *
 * Each connection established, the first and every reconnection, drops them all too:
 * changes notified while there was none went unheard. While there is none, the caches
 * fall back on their own short expiry. SQLite has no notifications: one process serves it.
 */
export class SettingsNotifications {
  private listener: ChannelListener | undefined;

  constructor(
    private readonly deps: {
      readonly settings: Pick<SettingsVersion, 'heard' | 'forgetAll'>;
      readonly clock: Clock;
      /** PATRON_DATABASE_LISTEN_URL or DATABASE_URL; undefined on SQLite. */
      readonly url: string | undefined;
      readonly timing?: Partial<ListenerTiming>;
    },
  ) {}

  /** True on PostgreSQL, where start() listens; SQLite has nothing to listen to. */
  get listens(): boolean {
    return this.deps.url !== undefined;
  }

  /** Starts listening (PostgreSQL); resolves after the first attempt, connected or not, which is then retried. */
  async start(log: ListenerLog): Promise<void> {
    if (this.deps.url === undefined || this.listener) return;
    const { settings, clock } = this.deps;
    let lostSince: number | undefined;
    this.listener = new ChannelListener({
      url: this.deps.url,
      channel: SETTINGS_CHANNEL,
      applicationName: `${LISTENER_APPLICATION_NAME}:${process.pid}`,
      timing: this.deps.timing,
      onNotification: (token) => void settings.heard(token),
      onConnected: () => {
        void settings.forgetAll();
        if (lostSince !== undefined) log.info({ awayMs: clock.now() - lostSince }, 'Listening for admin changes again');
        lostSince = undefined;
      },
      onLost: (error, retryInMs) => {
        // Logged once per outage, not per attempt: the attempts go on every few seconds.
        if (lostSince !== undefined) return;
        lostSince = clock.now();
        log.warn(
          { err: { message: error.message }, retryInMs },
          'Not listening for admin changes: caches of admin settings fall back on their expiry until the connection is back ' +
            '(behind a pooler in transaction mode, set PATRON_DATABASE_LISTEN_URL to a direct connection: docs/scaling.md)',
        );
      },
    });
    await this.listener.start();
    if (this.listener.stats().connected) log.info({}, 'Listening for admin changes made through the other processes');
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }

  /** For /metrics; undefined when nothing listens (SQLite, or not started). */
  stats(): ChannelListenerStats | undefined {
    return this.listener?.stats();
  }
}
