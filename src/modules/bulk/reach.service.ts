import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { SegmentsService } from '../audience/index.js';
import type { Channel } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import { capPeriods } from './domain/limits.js';
import type { ChannelReach, Reach } from './domain/reach.js';
import type { LimitsService } from './limits.service.js';
import { countReach, type ReachCaps } from './reach.repo.js';

export const MAX_SEGMENTS = 50;

/**
 * The reachable audience of a bulk mailing before it is sent (docs/bulk.md, "Reachable
 * audience"): per channel, the distinct members with an address, less those who turned
 * the channel's bulk flag off, whose address is on the dead list, or who are over
 * today's or this week's cap. A count, not a promise: the expansion decides each
 * member again when it gets there.
 */
export class ReachService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly segments: Pick<SegmentsService, 'hasSegment'>;
      readonly limits: Pick<LimitsService, 'limitsOf'>;
      readonly channels: { configuredChannels(shopId: string): Promise<ReadonlySet<string>> };
    },
  ) {}

  /**
   * Checks the segments (1 to 50, each the shop's) and counts their reach on `channels`,
   * with the caps of the day and week of `at` (now by default; a scheduled mailing's send time).
   */
  async reach(shopId: string, segmentIds: readonly number[], channels: readonly Channel[], at?: number): Promise<Reach> {
    await this.deps.shops.requireShop(shopId);
    const ids = [...new Set(segmentIds)];
    await this.checkSegments(shopId, ids);
    const limits = await this.deps.limits.limitsOf(shopId);
    const periods = capPeriods(at ?? this.deps.clock.now(), limits.timezone);
    const caps = new Map<Channel, ReachCaps>();
    for (const channel of channels) {
      const c = limits.channels.get(channel);
      if (c && (c.bulkPerDay !== null || c.bulkPerWeek !== null)) {
        caps.set(channel, { perDay: c.bulkPerDay, perWeek: c.bulkPerWeek, day: periods.day, week: periods.week });
      }
    }
    const configured = await this.deps.channels.configuredChannels(shopId);
    const live = channels.filter((c) => configured.has(c));
    const row = await countReach(this.deps.db.db, shopId, ids, channels, caps, live);
    const out = new Map<Channel, ChannelReach>();
    for (const [channel, r] of row.channels) out.set(channel, { configured: configured.has(channel), ...r });
    return { members: row.members, reachable: row.reachableAny, channels: out, periods };
  }

  async checkSegments(shopId: string, segmentIds: readonly number[]): Promise<void> {
    if (segmentIds.length === 0 || segmentIds.length > MAX_SEGMENTS) {
      throw new AppError('VALIDATION_FAILED', `Field \`segment_ids\` must hold 1 to ${MAX_SEGMENTS} segment ids.`, {
        field: 'segment_ids',
      });
    }
    for (const segmentId of segmentIds) {
      if (!(await this.deps.segments.hasSegment(shopId, segmentId))) {
        throw new AppError('VALIDATION_FAILED', `Segment ${segmentId} does not exist.`, { field: 'segment_ids' });
      }
    }
  }
}
