import type { DbHandle } from '../../db/create-db.js';
import * as repo from './timeline.repo.js';
import type { TimeKey } from './timeline.repo.js';
import { toStoredEvent, toTrackedOrder } from './tracking.service.js';
import type { StoredEvent, TrackedOrder } from './tracking.types.js';

export type { TimeKey } from './timeline.repo.js';

/**
 * A live profile's events and orders, newest first, a page at a time (the admin UI's
 * customer page). A merge moves the merged profile's events and orders to the survivor,
 * so the live id finds them all. Each read asks one row more than it answers, to know
 * whether a next page exists.
 */
export class CustomerHistoryService {
  constructor(private readonly deps: { readonly db: DbHandle }) {}

  async eventsPage(
    shopId: string,
    profileId: number,
    before: TimeKey | null,
    limit: number,
  ): Promise<{ items: StoredEvent[]; more: boolean }> {
    const rows = await repo.listProfileEvents(this.deps.db.db, shopId, profileId, before, limit + 1);
    return { items: rows.slice(0, limit).map(toStoredEvent), more: rows.length > limit };
  }

  async ordersPage(
    shopId: string,
    profileId: number,
    before: TimeKey | null,
    limit: number,
  ): Promise<{ items: TrackedOrder[]; more: boolean }> {
    const rows = await repo.listProfileOrders(this.deps.db.db, shopId, profileId, before, limit + 1);
    return { items: rows.slice(0, limit).map(toTrackedOrder), more: rows.length > limit };
  }
}
