import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import * as repo from './audience.repo.js';
import * as segmentsRepo from './segments.repo.js';

/**
 * The audience module's merge participant (docs/identity.md, "What a merge moves"): when
 * profile `fromId` merges into `intoId`, its segment memberships, imported attributes and
 * push tokens move to the survivor. The survivor, the older profile, keeps its own
 * attributes and takes the merged profile's only where it has none, as identity does for
 * properties. Runs inside the merge's transaction: if it throws, the merge is undone.
 */
export async function mergeAudienceData(
  trx: Transaction<Database>,
  shopId: string,
  fromId: number,
  intoId: number,
  now: number,
): Promise<void> {
  await segmentsRepo.moveMembers(trx, shopId, fromId, intoId);
  await repo.moveAttributes(trx, shopId, fromId, intoId, now);
}
