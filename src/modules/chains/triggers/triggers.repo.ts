import { sql, type Selectable } from 'kysely';
import type { ChainListWatchesTable } from '../../../db/types.js';
import type { Executor } from '../chain-starter.js';
import type { WatchedList } from './domain/abandoned.js';

/** Kysely only: the detectors' own rows. Every statement is scoped by shop_id. */
export type WatchRow = Selectable<ChainListWatchesTable>;

/**
 * Moves the watch of a profile's list to this event, unless it already names a later one
 * (the row only moves forward, so out-of-order or repeated deliveries settle on the
 * newest event; the same event again re-applies the same values). True when the row now
 * names this event.
 */
export async function moveWatch(db: Executor, row: WatchRow): Promise<boolean> {
  const result = await db
    .insertInto('chain_list_watches')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['shop_id', 'profile_id', 'list'])
        .doUpdateSet({ event_id: row.event_id, changed_at: row.changed_at, armed: row.armed })
        .where('chain_list_watches.event_id', '<=', row.event_id),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findWatch(db: Executor, shopId: string, profileId: number, list: WatchedList): Promise<WatchRow | undefined> {
  return db
    .selectFrom('chain_list_watches')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', profileId)
    .where('list', '=', list)
    .executeTakeFirst();
}

/**
 * Merge participant: the survivor's watch of each list becomes the newer of the two (the
 * merged list's state is named by the newest event of either profile).
 */
export async function moveWatches(db: Executor, shopId: string, fromId: number, intoId: number): Promise<void> {
  const newerOnOther = (holder: number, other: number, strictly: boolean) =>
    db
      .deleteFrom('chain_list_watches')
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', holder)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('chain_list_watches as o')
            .select(sql`1`.as('one'))
            .where('o.shop_id', '=', shopId)
            .where('o.profile_id', '=', other)
            .whereRef('o.list', '=', 'chain_list_watches.list')
            .whereRef('o.event_id', strictly ? '>' : '>=', 'chain_list_watches.event_id'),
        ),
      )
      .execute();
  await newerOnOther(intoId, fromId, true);
  await newerOnOther(fromId, intoId, false);
  await db
    .updateTable('chain_list_watches')
    .set({ profile_id: intoId })
    .where('shop_id', '=', shopId)
    .where('profile_id', '=', fromId)
    .execute();
}
