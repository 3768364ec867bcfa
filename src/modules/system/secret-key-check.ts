import type { Clock } from '../../clock.js';
import { constantTimeEqual } from '../../constant-time.js';
import type { DbHandle } from '../../db/create-db.js';
import { insertSettingIfAbsent, readSetting, writeSetting } from './settings.repo.js';

const CHECK_KEY = 'secret_key_check';

/** A process refused to start: its secret key is not the one the database's secrets are sealed with. */
export class SecretKeyMismatch extends Error {
  override readonly name = 'SecretKeyMismatch';
}

/**
 * Every process on one database must seal and open secrets with one key
 * (PATRON_SECRET_KEY, or the key file in PATRON_DATA_DIR without it), or a secret one
 * process stores is unreadable to the others. The first process to start records a check
 * of its key (SecretBox.keyCheck: an HMAC under the key, which tells nothing of the key)
 * in `settings`, by a conditional insert so that of two first starts one check wins; each
 * later start compares its own check with it, in constant time, and refuses on a
 * difference. A database from before this check gets it at its first start with this
 * version, from the key of the process that starts first (docs/scaling.md).
 */
export class SecretKeyCheck {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly keyCheck: () => Promise<string>;
      /** Whether the key comes from PATRON_SECRET_KEY (else from the key file), for the message. */
      readonly fromEnvironment: boolean;
      readonly keyFile: string;
    },
  ) {}

  /** Records the check if none is stored; throws SecretKeyMismatch when the stored one differs. */
  async verify(): Promise<void> {
    const mine = await this.deps.keyCheck();
    await insertSettingIfAbsent(this.deps.db.db, CHECK_KEY, mine, this.deps.clock.now());
    const stored = await readSetting(this.deps.db.db, CHECK_KEY);
    if (stored !== undefined && constantTimeEqual(stored, mine)) return;
    const source = this.deps.fromEnvironment
      ? 'PATRON_SECRET_KEY here'
      : `the key file ${this.deps.keyFile} (PATRON_SECRET_KEY is not set)`;
    throw new SecretKeyMismatch(
      `The secret key of this process (${source}) is not the one the other processes on this database use: ` +
        'secrets it stored could not be read by them, nor theirs by it. Set PATRON_SECRET_KEY to the same value on every ' +
        'process (serve and worker) that uses this database. To change the key on purpose, stop every process, ' +
        'set the new key everywhere, run `patron secret-key adopt` once, then start them.',
    );
  }

  /**
   * Records this process's key as the one to hold (`patron secret-key adopt`), after a
   * deliberate change of the key. The secrets sealed under the old key stay unreadable
   * and must be entered again (docs/messaging.md, "Secrets and the secret key").
   */
  async adopt(): Promise<void> {
    await writeSetting(this.deps.db.db, CHECK_KEY, await this.deps.keyCheck(), this.deps.clock.now());
  }
}
