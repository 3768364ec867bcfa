import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { TtlCache } from '../../ttl-cache.js';
import { dayOf } from './domain/days.js';
import { DayCounts, SERIES, type FunnelCount } from './domain/series.js';
import * as repo from './rollups.repo.js';
import type { Executor } from './rollups.repo.js';

/** A shop's time zone is set when it is created and never changes; the cache is bounded by size and time all the same. */
const TIMEZONE_TTL_MS = 60_000;
const FALLBACK_TIMEZONE = 'UTC';

export interface TrackedEventFact {
  readonly shopId: string;
  readonly profileId: number;
  readonly event: string;
  readonly time: number;
}

export interface TrackedOrderFact {
  readonly shopId: string;
  /** The purchase event's time. */
  readonly time: number;
  /** Minor units. */
  readonly revenue: number;
}

/** A delivery whose outcome was just set for the first time. */
export interface MarkedDelivery {
  readonly channel: string;
  readonly type: string;
  readonly mailingId: number;
}

export type MarkedOutcome = 'sent_at' | 'delivered_at' | 'opened_at' | 'clicked_at' | 'hard_bounced_at';

/**
 * The dashboards' writer (docs/dashboards.md, "How the numbers are kept"): every module
 * that stores something a dashboard counts calls it in the same transaction, so a counter
 * never disagrees with what was committed, and a rolled-back write counts nothing. Each
 * call is a few multi-row upserts whatever the size of the batch.
 */
export class DashboardRollups {
  private readonly zones: TtlCache<string, string>;

  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock }) {
    this.zones = new TtlCache({ max: 10_000, ttlMs: TIMEZONE_TTL_MS, clock: deps.clock });
  }

  /** The shop's time zone (cached; read through `db` on a miss). */
  async timezoneOf(db: Executor, shopId: string): Promise<string> {
    const cached = this.zones.get(shopId);
    if (cached !== undefined) return cached;
    const zone = (await repo.findShopTimezone(db, shopId)) ?? FALLBACK_TIMEZONE;
    this.zones.set(shopId, zone);
    return zone;
  }

  /** A tracking batch: its events by type, its active profiles, its new orders and their value. */
  async trackedBatch(trx: Executor, events: readonly TrackedEventFact[], orders: readonly TrackedOrderFact[]): Promise<void> {
    const shops = new Set<string>();
    for (const e of events) shops.add(e.shopId);
    for (const shopId of shops) {
      const zone = await this.timezoneOf(trx, shopId);
      const counts = new DayCounts();
      const active = new Map<string, { day: string; profileId: number }>();
      for (const e of events) {
        if (e.shopId !== shopId) continue;
        const day = dayOf(e.time, zone);
        counts.add(day, SERIES.events, e.event, 1);
        active.set(`${day}/${e.profileId}`, { day, profileId: e.profileId });
      }
      for (const o of orders) {
        if (o.shopId !== shopId) continue;
        const day = dayOf(o.time, zone);
        counts.add(day, SERIES.orders, '', 1);
        counts.add(day, SERIES.revenue, '', o.revenue);
      }
      for (const { day } of await repo.insertActive(trx, shopId, [...active.values()])) counts.add(day, SERIES.active, '', 1);
      await repo.addToDays(trx, shopId, counts.list());
    }
  }

  /** Deliveries whose outcome `outcome` was just recorded at `at`. */
  async messageOutcome(
    trx: Executor,
    shopId: string,
    outcome: MarkedOutcome,
    deliveries: readonly MarkedDelivery[],
    at: number,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    const day = dayOf(at, await this.timezoneOf(trx, shopId));
    const counts = new DayCounts();
    const funnels: FunnelCount[] = [];
    const daySeries =
      outcome === 'sent_at' ? SERIES.sent : outcome === 'opened_at' ? SERIES.opened : outcome === 'clicked_at' ? SERIES.clicked : undefined;
    const column = FUNNEL_COLUMN[outcome];
    for (const d of deliveries) {
      if (daySeries !== undefined) counts.add(day, daySeries, d.channel, 1);
      funnels.push({ type: d.type, mailingId: d.mailingId, channel: d.channel, [column]: 1 });
    }
    await repo.addToDays(trx, shopId, counts.list());
    await repo.addToFunnels(trx, shopId, funnels);
  }

  /** A purchase attributed at `at` to a message (once per message), worth `revenue` minor units. */
  async purchaseAttributed(
    trx: Executor,
    shopId: string,
    message: { type: string; mailingId: number },
    revenue: number,
    at: number,
  ): Promise<void> {
    const day = dayOf(at, await this.timezoneOf(trx, shopId));
    const counts = new DayCounts();
    counts.add(day, SERIES.attributedPurchases, '', 1);
    counts.add(day, SERIES.attributedRevenue, '', revenue);
    await repo.addToDays(trx, shopId, counts.list());
    await repo.addToFunnels(trx, shopId, [{ type: message.type, mailingId: message.mailingId, channel: '', purchased: 1, revenue }]);
  }

  /** Loyalty: a member joined, bonuses were credited or spent (minor units), at `at`. */
  async loyalty(trx: Executor, shopId: string, change: { members?: number; issued?: number; spent?: number }, at: number): Promise<void> {
    const day = dayOf(at, await this.timezoneOf(trx, shopId));
    const counts = new DayCounts();
    counts.add(day, SERIES.members, '', change.members ?? 0);
    counts.add(day, SERIES.bonusesIssued, '', change.issued ?? 0);
    counts.add(day, SERIES.bonusesSpent, '', change.spent ?? 0);
    await repo.addToDays(trx, shopId, counts.list());
  }

  /** The process's own clock (what a caller without a moment of its own counts at). */
  now(): number {
    return this.deps.clock.now();
  }
}

const FUNNEL_COLUMN: Record<MarkedOutcome, 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced'> = {
  sent_at: 'sent',
  delivered_at: 'delivered',
  opened_at: 'opened',
  clicked_at: 'clicked',
  hard_bounced_at: 'bounced',
};
