import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Executor } from './audience.repo.js';
import type { IdentityService } from '../identity/index.js';
import type { SubscriptionFlag } from './domain/record.js';

/**
 * Turning a customer's subscription flag off on their audience record (docs/audience.md),
 * for the messaging module's unsubscribe link and complaint handling: the record is
 * created when the profile has none yet, the other fields untouched.
 */
export class SubscriptionFlagsService {
  constructor(
    private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly identity: Pick<IdentityService, 'currentProfileId'> },
  ) {}

  /** False when the profile no longer exists (a merged id leads to its survivor). */
  async turnOff(shopId: string, profileId: number, flags: readonly SubscriptionFlag[], executor?: Executor): Promise<boolean> {
    const id = await this.deps.identity.currentProfileId(shopId, profileId);
    if (id === undefined || flags.length === 0) return false;
    const now = this.deps.clock.now();
    const off = Object.fromEntries(flags.map((f) => [f, 0])) as Record<SubscriptionFlag, number>;
    await (executor ?? this.deps.db.db)
      .insertInto('audience_profiles')
      .values({ shop_id: shopId, profile_id: id, ...off, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['shop_id', 'profile_id']).doUpdateSet({ ...off, updated_at: now }))
      .execute();
    return true;
  }
}
