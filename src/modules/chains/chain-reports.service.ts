import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import type { ChainSteps } from './chain-steps.js';
import * as reports from './chain-reports.repo.js';
import * as repo from './chains.repo.js';
import { CHAIN_NOT_FOUND, toChainRun, type ChainRun } from './chains.service.js';
import { stepStats, type StepStats } from './domain/stats.js';

export interface ChainStats {
  readonly chainId: number;
  readonly version: number;
  /** The version the chain is at now (new runs start on it). */
  readonly currentVersion: number;
  readonly steps: readonly StepStats[];
}

export interface RunsPage {
  readonly runs: readonly ChainRun[];
  /** The id after which the next page starts; null on the last page. */
  readonly nextBefore: number | null;
}

/**
 * What the chain builder reads beside the chain (docs/chains.md, "Statistics" and "The
 * admin API"): the runs and messages of a version counted per step, and the chain's runs a
 * page at a time. Both read through indexes of the chain (migration 0040), never every run
 * of the shop.
 */
export class ChainReportsService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly steps: Pick<ChainSteps, 'stepsOf'>;
    },
  ) {}

  /** Per-step statistics of a version of the chain (its current one by default); 404 for a version it never had. */
  async stats(shopId: string, code: string, version?: number): Promise<ChainStats> {
    const chain = await this.chain(shopId, code);
    const chainId = Number(chain.id);
    const wanted = version ?? chain.version;
    const steps = wanted >= 1 && wanted <= chain.version ? await this.deps.steps.stepsOf(shopId, chainId, wanted) : undefined;
    if (!steps) throw new AppError('NOT_FOUND', `Chain ${code} has no version ${wanted}.`);
    const db = this.deps.db.db;
    const sendSteps = steps.flatMap((step, index) => ('send' in step ? [index] : []));
    const [runs, sends] = await Promise.all([
      reports.countRunsByStep(db, shopId, chainId, wanted),
      reports.countSendsByStep(db, shopId, chainId, wanted, sendSteps),
    ]);
    return { chainId, version: wanted, currentVersion: chain.version, steps: stepStats(steps, runs, sends) };
  }

  /** The chain's runs, newest first, `limit` at a time after the run id `before`. */
  async runsPage(shopId: string, code: string, before: number | null, limit: number): Promise<RunsPage> {
    const chain = await this.chain(shopId, code);
    const rows = await reports.listRunsPage(this.deps.db.db, shopId, Number(chain.id), before, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { runs: page.map(toChainRun), nextBefore: rows.length > limit && last ? Number(last.id) : null };
  }

  private async chain(shopId: string, code: string): Promise<repo.ChainRow> {
    await this.deps.shops.requireShop(shopId);
    const chain = await repo.findChainByCode(this.deps.db.db, shopId, code);
    if (!chain) throw new AppError('NOT_FOUND', CHAIN_NOT_FOUND);
    return chain;
  }
}
