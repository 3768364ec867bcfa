import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { TtlCache } from '../../ttl-cache.js';
import { parseClockTime } from '../checkout/index.js';
import type { MessageType } from '../messaging/index.js';
import type { Channel } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import { capPeriods, formatClock, quietUntil, type ChannelLimits } from './domain/limits.js';
import * as repo from './limits.repo.js';

/** One channel's limits as the admin API gives and shows them. */
export interface ChannelLimitsInput {
  readonly bulk_per_day?: number;
  readonly bulk_per_week?: number;
  readonly quiet_hours?: { readonly from: string; readonly to: string };
}
export type LimitsInput = Partial<Record<Channel, ChannelLimitsInput>>;

/** A shop's limits as loaded for a page of bulk messages (LimitsService.limitsOf). */
export interface ShopLimits {
  readonly timezone: string;
  readonly channels: ReadonlyMap<string, ChannelLimits>;
}

/** How long the delivery path may act on limits it read before a PUT changed them. */
const CACHE_MS = 5_000;

/**
 * Frequency caps and quiet hours per channel (admin-api.md, "Chains and bulk mailings";
 * docs/bulk.md). Caps count a profile's bulk messages per channel in the calendar day
 * and ISO week of the shop's time zone, by conditional upserts in the writer's
 * transaction; quiet hours hold bulk and chain deliveries until they end. Transactional
 * messages pass both untouched.
 */
export class LimitsService {
  private readonly cache: TtlCache<string, ShopLimits>;

  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly shops: Pick<ShopsService, 'requireShop'> }) {
    this.cache = new TtlCache({ max: 10_000, ttlMs: CACHE_MS, clock: deps.clock });
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.cache.clear();
  }

  async putLimits(shopId: string, input: LimitsInput): Promise<LimitsInput> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    const rows = Object.entries(input).map(([channel, limits]) => {
      const quiet = limits.quiet_hours;
      const from = quiet ? parseClockTime(quiet.from) : null;
      const to = quiet ? parseClockTime(quiet.to) : null;
      if (quiet && (from === null || to === null || from === to)) {
        throw new AppError('VALIDATION_FAILED', `Field \`${channel}.quiet_hours\` needs two different times HH:MM.`, {
          field: `${channel}.quiet_hours`,
        });
      }
      return {
        shop_id: shopId,
        channel,
        bulk_per_day: limits.bulk_per_day ?? null,
        bulk_per_week: limits.bulk_per_week ?? null,
        quiet_from: from,
        quiet_to: to,
        updated_at: now,
      };
    });
    await this.deps.db.db.transaction().execute((trx) => repo.replaceLimits(trx, shopId, rows));
    await this.deps.db.durable();
    this.cache.delete(shopId);
    return this.getLimits(shopId);
  }

  async getLimits(shopId: string): Promise<LimitsInput> {
    await this.deps.shops.requireShop(shopId);
    const out: Record<string, ChannelLimitsInput> = {};
    for (const row of await repo.listLimits(this.deps.db.db, shopId)) {
      out[row.channel] = {
        ...(row.bulk_per_day !== null && { bulk_per_day: row.bulk_per_day }),
        ...(row.bulk_per_week !== null && { bulk_per_week: row.bulk_per_week }),
        ...(row.quiet_from !== null &&
          row.quiet_to !== null && { quiet_hours: { from: formatClock(row.quiet_from), to: formatClock(row.quiet_to) } }),
      };
    }
    return out;
  }

  /**
   * The channels of `channels` on which one more bulk message to the profile, due at
   * `at`, stays within the caps; each is counted in its day and week (in `trx`, so that
   * the count commits with the message). A day counted whose week is full is taken back.
   * `limits` are loaded before the transaction (limitsOf): on SQLite it holds the only connection.
   */
  async takeCaps(
    trx: repo.Executor,
    limits: ShopLimits,
    key: { readonly shopId: string; readonly profileId: number },
    channels: readonly string[],
    at: number,
  ): Promise<Set<string>> {
    const { shopId, profileId } = key;
    const allowed = new Set<string>();
    // Read from the zone's rules only for a capped channel: most mailings have none, and it is per recipient.
    let periods: ReturnType<typeof capPeriods> | undefined;
    for (const channel of channels) {
      const caps = limits.channels.get(channel);
      if (!caps || (caps.bulkPerDay === null && caps.bulkPerWeek === null)) {
        allowed.add(channel);
        continue;
      }
      periods ??= capPeriods(at, limits.timezone);
      const day = { shopId, profileId, channel, period: periods.day };
      const week = { shopId, profileId, channel, period: periods.week };
      const dayOk = caps.bulkPerDay === null || (await repo.countUnderCap(trx, day, caps.bulkPerDay));
      if (!dayOk) continue;
      const weekOk = caps.bulkPerWeek === null || (await repo.countUnderCap(trx, week, caps.bulkPerWeek));
      if (weekOk) allowed.add(channel);
      else if (caps.bulkPerDay !== null) await repo.uncount(trx, day);
    }
    return allowed;
  }

  /**
   * The send gate of the delivery path (DeliveryService's `sendGate`): when a bulk or
   * chain message on `channel` may go; `now` unless inside the channel's quiet hours.
   */
  async sendAt(shopId: string, channel: Channel, type: MessageType, now: number): Promise<number> {
    if (type === 'transactional') return now;
    const limits = await this.limitsOf(shopId);
    const quiet = limits.channels.get(channel)?.quiet ?? null;
    return quietUntil(now, limits.timezone, quiet);
  }

  limitsOf(shopId: string): Promise<ShopLimits> {
    return this.cache.getOrLoad(shopId, () => this.loadLimits(shopId));
  }

  private async loadLimits(shopId: string): Promise<ShopLimits> {
    const shop = await this.deps.shops.requireShop(shopId);
    const channels = new Map<string, ChannelLimits>();
    for (const row of await repo.listLimits(this.deps.db.db, shopId)) {
      channels.set(row.channel, {
        bulkPerDay: row.bulk_per_day,
        bulkPerWeek: row.bulk_per_week,
        quiet: row.quiet_from !== null && row.quiet_to !== null ? { from: row.quiet_from, to: row.quiet_to } : null,
      });
    }
    return { timezone: shop.timezone, channels };
  }
}
