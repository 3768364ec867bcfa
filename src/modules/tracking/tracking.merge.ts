import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { TrackedItem } from './domain/items.js';
import { LIST_NAMES, mergeLists } from './domain/lists.js';
import * as repo from './tracking.repo.js';

/**
 * Tracking's merge participant (docs/identity.md, "What a merge moves"): when profile
 * `fromId` merges into `intoId`, its events and orders move to the survivor and the two
 * carts and wish lists become one (the union by item id, the survivor's entries winning).
 * Sessions belong to devices, which identity moves itself. Runs inside the merge's
 * transaction: if it throws, the merge is undone.
 */
export async function mergeTrackingData(
  trx: Transaction<Database>,
  shopId: string,
  fromId: number,
  intoId: number,
  now: number,
): Promise<void> {
  // Merges from other modules' requests must not interleave with a batch that rewrites
  // the same lists; inside a batch the lock is already held.
  await repo.lockShopBatches(trx, shopId);
  await repo.moveProfileHistory(trx, shopId, fromId, intoId);

  const rows = (await repo.findLists(trx, [shopId], [fromId, intoId])).filter((r) => r.shop_id === shopId);
  const listOf = (profileId: number, list: string): TrackedItem[] | undefined => {
    const row = rows.find((r) => r.profile_id === profileId && r.list === list);
    return row ? (JSON.parse(row.items) as TrackedItem[]) : undefined;
  };
  const merged = LIST_NAMES.flatMap((list) => {
    const from = listOf(fromId, list);
    if (!from) return [];
    const items = mergeLists(listOf(intoId, list) ?? [], from);
    return [{ shop_id: shopId, profile_id: intoId, list, items: JSON.stringify(items), updated_at: now }];
  });
  if (merged.length === 0) return;
  await repo.upsertLists(trx, merged);
  await repo.deleteLists(trx, shopId, fromId);
}
