import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { LoyaltyRollups } from './loyalty-ledger.js';
import * as repo from './loyalty.repo.js';

/**
 * Makes the profile a member (false when it was one already); a new member is counted by
 * the rollups in the same transaction.
 */
export async function addMember(
  db: Kysely<Database>,
  rollups: LoyaltyRollups | undefined,
  shopId: string,
  profileId: number,
  now: number,
): Promise<boolean> {
  if (!rollups) return repo.insertMember(db, shopId, profileId, now);
  return db.transaction().execute(async (trx) => {
    const joined = await repo.insertMember(trx, shopId, profileId, now);
    if (joined) await rollups.loyalty(trx, shopId, { members: 1 }, now);
    return joined;
  });
}
