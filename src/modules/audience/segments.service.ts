import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ProfileSegmentSource } from '../profile-view/profile-view.service.js';
import type { ShopsService } from '../shops/shops.service.js';
import type { Segment } from './audience.types.js';
import * as repo from './segments.repo.js';

/** Longest segment name; the admin API refuses longer ones. */
export const SEGMENT_NAME_MAX_LENGTH = 200;
/** Segments one list answer holds. */
export const MAX_SEGMENTS_LISTED = 1000;

/**
 * Segments (admin-api.md, "Segments"): named sets of profiles an audience import loads
 * into (interface.md endpoint 11, `segment_id`). Ids are small per-shop integers, because
 * clients type them into requests. Also the profile view's segment source: a profile
 * lists the segments it belongs to.
 */
export class SegmentsService implements ProfileSegmentSource {
  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly shops: Pick<ShopsService, 'requireShop'> }) {}

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
    const deleted =
      Number.isSafeInteger(id) && (await this.db.transaction().execute((trx) => repo.deleteSegment(trx, shopId, id)));
    if (!deleted) throw segmentNotFound(id);
  }

  /** True when the shop has the segment. */
  async hasSegment(shopId: string, id: number): Promise<boolean> {
    return Number.isSafeInteger(id) && (await repo.findSegment(this.db, shopId, id)) !== undefined;
  }

  /** ProfileSegmentSource: the segment ids of each profile, ascending. */
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
