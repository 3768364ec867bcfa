import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import { checkPeriod } from './domain/days.js';
import { overviewOf, type Overview } from './domain/overview.js';
import { funnelOf, type Funnel, type FunnelType } from './domain/series.js';
import * as repo from './rollups.repo.js';

export interface Liabilities {
  /** Minor units: confirmed, unexpired bonuses not yet spent or held. */
  readonly outstanding: number;
  readonly pending: number;
  readonly expiring: number;
  readonly members: number;
}

export interface Dashboard extends Overview {
  readonly from: string;
  readonly to: string;
  readonly timezone: string;
  /** Now, not per day: the ledger's own totals. */
  readonly liabilities: Liabilities;
}

/**
 * The dashboards' reads (docs/dashboards.md): one range of the rollups' key per overview,
 * one key per funnel. Nothing here reads events, orders, messages or the ledger's rows.
 */
export class DashboardsService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      /** The loyalty programme's liabilities (the loyalty module's report). */
      readonly liabilities: (shopId: string) => Promise<Liabilities>;
    },
  ) {}

  /** Every series of the shop's days from `from` to `to` (YYYY-MM-DD, the shop's time zone); a bad period: VALIDATION_FAILED naming the field. */
  async overview(shopId: string, from: string, to: string): Promise<Dashboard> {
    const shop = await this.deps.shops.requireShop(shopId);
    const period = checkPeriod(from, to);
    if (!period.ok) throw new AppError('VALIDATION_FAILED', period.message, { field: period.field });
    const rows = await repo.readDays(this.deps.db.db, shopId, from, to);
    return { from, to, timezone: shop.timezone, ...overviewOf(from, to, rows), liabilities: await this.deps.liabilities(shopId) };
  }

  /** A mailing's, chain's or bulk mailing's funnel from its counters (all zeros before its first send). */
  async funnel(shopId: string, type: FunnelType, mailingId: number): Promise<Funnel> {
    await this.deps.shops.requireShop(shopId);
    return funnelOf(await repo.readFunnel(this.deps.db.db, shopId, type, mailingId));
  }
}
