import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { notifyListeners } from '../../db/dialect.js';
import type { Late } from '../../late.js';
import { readSetting, writeSetting } from './settings.repo.js';

const VERSION_KEY = 'settings_version';
/** The PostgreSQL channel each change is announced on, its new token as the payload (settings-notifications.ts). */
export const SETTINGS_CHANNEL = 'patron_settings';

/** What a cache of admin settings is told: drop what you hold (a reload may be awaited). */
export type SettingsListener = () => void | Promise<void>;

/**
 * Tells every cache of admin settings, in every thread and process on the database, that
 * an admin changed something (docs/settings-caches.md). One row of `settings` holds a
 * random token that each change replaces; a cache holder reads it at the points where a
 * change must be seen at once (a claimed batch of jobs, a batch of tracking events, a
 * message outcome) and, when it differs from the token it last saw, drops its caches
 * before going on. A change made in this thread drops them at once, without a read. On
 * PostgreSQL the change is also notified as it commits, and the HTTP thread of every
 * `patron serve` drops its caches when it hears it (settings-notifications.ts).
 *
 * Reads are shared: a caller waits for a read that began after it asked, never for one
 * already under way (which may have begun before the change it must see), so however
 * many callers ask at once, at most two reads are in flight.
 */
export class SettingsVersion {
  private seen: string | undefined;
  /** The token of this holder's last bump: hearing it announced again tells nothing new. */
  private written: string | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      /** The caches of every module, all built after this (src/services.ts lists them); none when absent. */
      readonly listeners?: Late<readonly SettingsListener[]>;
    },
  ) {}

  /** After an admin change is committed: every holder drops its caches, this thread's now. */
  async bump(): Promise<void> {
    const token = crypto.randomBytes(12).toString('base64url');
    const { db, dialect } = this.deps.db;
    this.written = token;
    // The notification leaves with the commit: a listener that hears it reads the change.
    await db.transaction().execute(async (trx) => {
      await writeSetting(trx, VERSION_KEY, token, this.deps.clock.now());
      await notifyListeners(trx, dialect, SETTINGS_CHANNEL, token);
    });
    // `seen` stays: a change of another process overwritten by this token must still be noticed.
    await this.notify();
  }

  /**
   * A change announced by another process (its new token): the caches are dropped at once,
   * and a later read of that same token does not drop them again.
   */
  async heard(token: string): Promise<void> {
    if (token === this.seen || token === this.written) return;
    this.seen = token;
    if (!(await this.notify())) this.seen = undefined;
  }

  /**
   * Changes may have been made unheard (the listener was away): drop every cache. The
   * token last seen stays, so that a read finds nothing new unless it is.
   */
  async forgetAll(): Promise<void> {
    if (!(await this.notify())) this.seen = undefined;
  }

  /**
   * Resolves once a read of the token that began after this call has been compared, and
   * the caches dropped if it changed. A failed read leaves the caches to their own
   * expiry (the database is away; the next call reads again).
   */
  refresh(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const previous = this.running;
    this.queued = previous.then(() => {
      this.queued = undefined;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<void> {
    const run = this.read().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async read(): Promise<void> {
    let token: string;
    try {
      token = (await readSetting(this.deps.db.db, VERSION_KEY)) ?? '';
    } catch {
      return;
    }
    if (token === this.seen) return;
    this.seen = token;
    // A cache that could not reload (the database went away meanwhile) is retried by the next read.
    if (!(await this.notify())) this.seen = undefined;
  }

  /** True when every listener dropped (and reloaded) what it holds. */
  private async notify(): Promise<boolean> {
    const listeners = this.deps.listeners?.get() ?? [];
    const outcomes = await Promise.allSettled(listeners.map(async (listener) => listener()));
    return outcomes.every((outcome) => outcome.status === 'fulfilled');
  }
}
