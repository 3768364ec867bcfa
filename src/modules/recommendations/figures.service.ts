import type { Transaction } from 'kysely';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { DashboardRollups } from '../dashboards/index.js';
import { dateInTimezone, type ShopsService } from '../shops/index.js';
import { toMinorUnits, type StoredEvent, type TrackedBatchListener } from '../tracking/index.js';
import * as blocksRepo from './blocks.repo.js';
import { isValidBlockCode } from './domain/block.js';
import { attributedCode, countBatch, figuresByDay, reconeCampaign, type FigureEvent, type Figures, type Touch } from './domain/figures.js';
import { statsPeriod } from './domain/period.js';
import * as repo from './figures.repo.js';

export interface FiguresDeps {
  readonly db: DbHandle;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  /** The shop's time zone, cached, read through the batch's transaction on a miss (the dashboards'). */
  readonly timezones: Pick<DashboardRollups, 'timezoneOf'>;
}

export interface BlockStats {
  readonly code: string;
  readonly from: string;
  readonly to: string;
  readonly timezone: string;
  readonly days: ReadonlyArray<{ readonly date: string } & Figures>;
  readonly totals: Figures;
}

/** A block id GET /recommend answers is a positive integer; its text as a campaign. */
const BLOCK_ID = /^[1-9][0-9]{0,14}$/;

/**
 * Each recommendation block's figures (docs/recommendations.md "Figures"): counted from
 * every stored batch in its transaction (tracking's batch listener), read per block and
 * period from the daily rows, never from the events.
 */
export class BlockFiguresService {
  constructor(private readonly deps: FiguresDeps) {}

  /** The tracking batch's listener. */
  batchListener(): TrackedBatchListener {
    return { name: 'recommendation-figures', storedBatch: (trx, events, newOrders) => this.count(trx, events, newOrders) };
  }

  /** A block's figures per day of the shop's time zone from `from` to `to`; an unknown block is NOT_FOUND. */
  async stats(shopId: string, code: string, from: string, to: string): Promise<BlockStats> {
    const shop = await this.deps.shops.requireShop(shopId);
    const db = this.deps.db.db;
    if (!isValidBlockCode(code) || !(await blocksRepo.findBlock(db, shopId, code))) {
      throw new AppError(
        'NOT_FOUND',
        isValidBlockCode(code) ? `Recommendation block \`${code}\` does not exist.` : 'Recommendation block does not exist.',
      );
    }
    const period = statsPeriod(from, to);
    if (!period.ok) throw new AppError('VALIDATION_FAILED', period.message, { field: period.field });
    const { days, totals } = figuresByDay(period.dates, await repo.readDays(db, shopId, code, from, to));
    return { code, from, to, timezone: shop.timezone, days, totals };
  }

  private async count(trx: Transaction<Database>, events: readonly StoredEvent[], newOrders: ReadonlySet<StoredEvent>): Promise<void> {
    const shops = new Map<string, StoredEvent[]>();
    for (const e of events) {
      // Only what can count: recone events, events carrying a block's code, new orders.
      if (reconeCampaign(e) === undefined && attributedCode(e) === undefined && !newOrders.has(e)) continue;
      const list = shops.get(e.shopId) ?? [];
      list.push(e);
      shops.set(e.shopId, list);
    }
    for (const [shopId, list] of shops) await this.countShop(trx, shopId, list, newOrders);
  }

  private async countShop(
    trx: Transaction<Database>,
    shopId: string,
    events: readonly StoredEvent[],
    newOrders: ReadonlySet<StoredEvent>,
  ): Promise<void> {
    const codes = new Set<string>();
    const ids = new Set<number>();
    const buyers = new Set<number>();
    const bought = new Set<string>();
    for (const e of events) {
      const campaign = reconeCampaign(e);
      if (campaign !== undefined) {
        codes.add(campaign);
        if (BLOCK_ID.test(campaign)) ids.add(Number(campaign));
      }
      const carried = attributedCode(e);
      if (carried !== undefined) codes.add(carried);
      // A carried code may be no block's: such a purchase falls back to touches too.
      if (newOrders.has(e)) {
        buyers.add(e.profileId);
        for (const item of e.items) bought.add(item.id);
      }
    }
    const keys = await repo.findBlockKeys(trx, shopId, [...codes], [...ids]);
    const byCode = new Set(keys.map((k) => k.code));
    const byId = new Map(keys.map((k) => [k.id, k.code]));
    const stored = buyers.size > 0 ? await repo.findTouches(trx, shopId, [...buyers], [...bought]) : [];
    const touches = new Map<string, Touch>(stored.map((t) => [JSON.stringify([t.profileId, t.itemId]), t]));
    const zone = await this.deps.timezones.timezoneOf(trx, shopId);

    const figureEvents: FigureEvent[] = events.map((e) => ({ ...e, createsOrder: newOrders.has(e) }));
    const counted = countBatch(figureEvents, {
      blockOfCampaign: (campaign) => (byCode.has(campaign) ? campaign : BLOCK_ID.test(campaign) ? byId.get(Number(campaign)) : undefined),
      isBlock: (code) => byCode.has(code),
      storedTouch: (profileId, itemId) => touches.get(JSON.stringify([profileId, itemId])),
      dayOf: (time) => dateInTimezone(time, zone),
      minorUnits: toMinorUnits,
    });
    await repo.addToDays(
      trx,
      shopId,
      [...counted.days.values()].map((d) => ({ code: d.code, day: d.day, ...d.figures })),
    );
    await repo.upsertTouches(trx, shopId, counted.touches);
  }
}
