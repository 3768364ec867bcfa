import type { Executor, ProfileRow } from './identity.repo.js';

/**
 * Live profiles newest first, keyset paged by (created_at, id): a range of the partial
 * index profiles_shop_created_live_idx (migration 0036), read backwards. The condition
 * `merged_into is null` restates the index's, so both databases use it.
 */
export async function listLiveProfilesNewest(
  db: Executor,
  shopId: string,
  before: { readonly createdAt: number; readonly id: number } | null,
  limit: number,
): Promise<ProfileRow[]> {
  let query = db.selectFrom('profiles').selectAll().where('shop_id', '=', shopId).where('merged_into', 'is', null);
  if (before !== null) {
    query = query
      .where('created_at', '<=', before.createdAt)
      .where((eb) => eb.or([eb('created_at', '<', before.createdAt), eb('id', '<', before.id)]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
