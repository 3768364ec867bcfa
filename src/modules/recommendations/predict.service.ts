import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import { decodeModel, probability } from './domain/predictor.js';
import { ACTIVITY_WINDOW_MS, MAX_ACTIVITY_30D, ORDER_WINDOW_MS, summaryFeatures } from './domain/purchase-features.js';
import * as repo from './predictor.repo.js';

export interface PredictDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: ShopsService;
  readonly identity: IdentityService;
}

/** Whose probability: the device's customer, or (for a caller holding the shop's secret) the holder of the identifiers. */
export interface PredictCustomer {
  readonly did?: string;
  readonly identifiers: Omit<IdentityInput, 'did'>;
}

export interface PurchaseProbability {
  readonly probability: number;
  readonly profileId: number;
}

export interface PredictorStatus {
  readonly builtAt: number;
  readonly hasModel: boolean;
  readonly baseRate: number;
  readonly trainingSize: number;
  readonly positives: number;
  readonly auc: number | null;
}

export const CUSTOMER_NOT_FOUND = 'Profile not found';

/**
 * GET /predict/probability-to-purchase (docs/recommendations.md "Purchase prediction"):
 * the stored model of the last build applied to the customer's features as of now. A
 * request reads the model row, one aggregate of the customer's orders of the year and at
 * most MAX_ACTIVITY_30D + 1 of their newest views and carts: index ranges of that one
 * profile, never the shop's events.
 */
export class PredictService {
  constructor(private readonly deps: PredictDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async probabilityToPurchase(shopId: string, customer: PredictCustomer): Promise<PurchaseProbability> {
    const profileId = await this.findProfileId(shopId, customer);
    const now = this.deps.clock.now();
    const stored = await repo.findPredictor(this.db, shopId);
    // Before the shop's first build there is nothing to say the customer differs from anyone: 0.
    if (stored === undefined) return { probability: 0, profileId };
    const model = decodeModel(stored.model);
    const baseRate = Number(stored.base_rate);
    if (model === null) return { probability: probability({ model, baseRate }, []), profileId };
    const orders = await repo.summarizeOrders(this.db, shopId, profileId, now - ORDER_WINDOW_MS, now);
    const activity = await repo.listRecentActivity(this.db, shopId, profileId, now - ACTIVITY_WINDOW_MS, now, MAX_ACTIVITY_30D + 1);
    const features = summaryFeatures(
      { lastOrderAt: orders.lastAt, orders365d: orders.count, revenue365d: orders.revenue, activityTimes: activity },
      now,
    );
    return { probability: probability({ model, baseRate }, features), profileId };
  }

  /** The last build's predictor, for the evaluation and the admin; undefined before the first build. */
  async status(shopId: string): Promise<PredictorStatus | undefined> {
    const row = await repo.findPredictor(this.db, shopId);
    if (row === undefined) return undefined;
    return {
      builtAt: Number(row.built_at),
      hasModel: row.model !== null,
      baseRate: Number(row.base_rate),
      trainingSize: Number(row.training_size),
      positives: Number(row.positives),
      auc: row.auc === null ? null : Number(row.auc),
    };
  }

  /** Reads only: a read must not link identifiers to a device, as the writes of the profile group do. */
  private async findProfileId(shopId: string, customer: PredictCustomer): Promise<number> {
    if (customer.did !== undefined) return (await this.deps.identity.requireDevice(shopId, customer.did)).profileId;
    const [profile] = await this.deps.identity.findProfilesOnly(shopId, customer.identifiers);
    if (profile === undefined) throw new AppError('NOT_FOUND', CUSTOMER_NOT_FOUND);
    return profile.id;
  }
}
