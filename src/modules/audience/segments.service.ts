import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Late } from '../../late.js';
import type { ShopsService } from '../shops/index.js';
import type { Segment } from './audience.types.js';
import * as repo from './segments.repo.js';

/** Longest segment name; the admin API refuses longer ones. */
export const SEGMENT_NAME_MAX_LENGTH = 200;
/** Segments one list answer holds. */
export const MAX_SEGMENTS_LISTED = 1000;

/** Profiles that became members of a segment at `at`, in the adding transaction. */
export interface SegmentEntry {
  readonly shopId: string;
  readonly segmentId: number;
  readonly profileIds: readonly number[];
  readonly at: number;
}

/** Hears profiles entering segments (the segment_entry chain trigger), in the adding transaction. */
export interface SegmentEntryListener {
  readonly name: string;
  /**
   * Synchronous and cheap: whether this segment's entries matter now. When no listener
   * wants them, an addition does not find out which members are new (an import stays one
   * plain multi-row insert).
   */
  watches(shopId: string, segmentId: number): boolean;
  entered(trx: Transaction<Database>, entry: SegmentEntry): Promise<void>;
}

/**
 * Segments (admin-api.md, "Segments"): named sets of profiles an audience import loads
 * into (interface.md endpoint 11, `segment_id`). Ids are small per-shop integers, because
 * clients type them into requests. Also the profile view's segment source: a profile
 * lists the segments it belongs to (segmentIdsOf fits the view's ProfileSegmentSource
 * without naming it: the view sits above audience, which never imports it).
 */
export class SegmentsService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      /** Who hears profiles entering segments (the chain triggers, built after audience: src/services.ts). None when absent. */
      readonly entryListeners?: Late<readonly SegmentEntryListener[]>;
    },
  ) {}

  private get db() {
    return this.deps.db.db;
  }

  async createSegment(shopId: string, input: { name: string }): Promise<Segment> {
    await this.deps.shops.requireShop(shopId);
    const name = input.name.trim();
    if (name === '' || name.length > SEGMENT_NAME_MAX_LENGTH) {
      throw new AppError('VALIDATION_FAILED', `Field \`name\` must be 1 to ${SEGMENT_NAME_MAX_LENGTH} characters.`, {
        field: 'name',
      });
    }
    const now = this.deps.clock.now();
    const id = await this.db.transaction().execute(async (trx) => {
      const next = await repo.allocateId(trx, shopId, 'segments');
      await repo.insertSegment(trx, { shop_id: shopId, id: next, name, created_at: now, updated_at: now });
      return next;
    });
    return { id, name, size: 0, createdAt: now };
  }

  /** The segment with its size; NOT_FOUND when the shop has no such segment. */
  async getSegment(shopId: string, id: number): Promise<Segment> {
    await this.deps.shops.requireShop(shopId);
    const row = Number.isSafeInteger(id) ? await repo.findSegment(this.db, shopId, id) : undefined;
    if (!row) throw segmentNotFound(id);
    const sizes = await repo.countMembers(this.db, shopId, [row.id]);
    return toSegment(row, sizes.get(row.id) ?? 0);
  }

  async listSegments(shopId: string): Promise<Segment[]> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listSegments(this.db, shopId, MAX_SEGMENTS_LISTED);
    const sizes = await repo.countMembers(
      this.db,
      shopId,
      rows.map((r) => r.id),
    );
    return rows.map((row) => toSegment(row, sizes.get(row.id) ?? 0));
  }

  async deleteSegment(shopId: string, id: number): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    const deleted = Number.isSafeInteger(id) && (await this.db.transaction().execute((trx) => repo.deleteSegment(trx, shopId, id)));
    if (!deleted) throw segmentNotFound(id);
  }

  /** True when the shop has the segment. */
  async hasSegment(shopId: string, id: number): Promise<boolean> {
    return Number.isSafeInteger(id) && (await repo.findSegment(this.db, shopId, id)) !== undefined;
  }

  /**
   * Makes the profiles members of the segment in the caller's transaction (one that is a
   * member already stays as it was), and tells the entry listeners that watch the segment
   * which of them are new. Every addition of members goes through here (audience imports,
   * POST /segments/add), so that membership grows with the requests that change it.
   */
  async addMembers(
    trx: Transaction<Database>,
    shopId: string,
    segmentId: number,
    profileIds: readonly number[],
    now: number,
  ): Promise<void> {
    const rows = [...new Set(profileIds)].map((profileId) => ({
      shop_id: shopId,
      segment_id: segmentId,
      profile_id: profileId,
      created_at: now,
    }));
    if (rows.length === 0) return;
    const listeners = (this.deps.entryListeners?.get() ?? []).filter((listener) => listener.watches(shopId, segmentId));
    if (listeners.length === 0) {
      await repo.addMembers(trx, rows);
      return;
    }
    const added = await repo.addMembersReturningNew(trx, rows);
    if (added.length === 0) return;
    for (const listener of listeners) await listener.entered(trx, { shopId, segmentId, profileIds: added, at: now });
  }

  /** The profile view's segment source: the segment ids of each profile, ascending. */
  async segmentIdsOf(shopId: string, profileIds: readonly number[]): Promise<ReadonlyMap<number, readonly number[]>> {
    const rows = await repo.findMemberships(this.db, shopId, profileIds);
    const map = new Map<number, number[]>();
    for (const row of rows) {
      const ids = map.get(row.profile_id);
      if (ids) ids.push(row.segment_id);
      else map.set(row.profile_id, [row.segment_id]);
    }
    return map;
  }
}

export function segmentNotFound(id: number): AppError {
  return new AppError('NOT_FOUND', `Segment ${id} does not exist.`, { field: 'segment_id' });
}

function toSegment(row: repo.SegmentRow, size: number): Segment {
  return { id: row.id, name: row.name, size, createdAt: row.created_at };
}
