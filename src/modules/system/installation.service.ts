import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { insertSettingIfAbsent } from './settings.repo.js';

const FIRST_START_KEY = 'first_start_at';

/** Facts about this installation as a whole, as opposed to one shop. */
export class InstallationService {
  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock }) {}

  /**
   * True for exactly one caller over the life of the database: the first server start.
   * A unique key rather than "are there shops yet?", so that API processes starting
   * together on one PostgreSQL database do not each create the demo shop.
   */
  async claimFirstStart(): Promise<boolean> {
    const now = this.deps.clock.now();
    return insertSettingIfAbsent(this.deps.db.db, FIRST_START_KEY, new Date(now).toISOString(), now);
  }
}
