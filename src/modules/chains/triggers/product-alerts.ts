import type { Transaction } from 'kysely';
import type { Clock } from '../../../clock.js';
import type { DbHandle } from '../../../db/create-db.js';
import type { Database } from '../../../db/types.js';
import type { JobMap } from '../../../jobs/job-map.js';
import type { JobQueue } from '../../../jobs/queue.js';
import type { CatalogLanding } from '../../catalog/index.js';
import type { ActiveChain, ChainStarter } from '../chain-starter.js';
import type { ActiveChainsView } from './active-chains.js';
import { ALERT_TRIGGERS, alertFiringKey, itemsByProfile, type AlertTriggerKind } from './domain/alerts.js';
import type { TriggerProducts } from './trigger-products.js';

/** Told in the swap transaction of a landing that wrote alerts (the product subscriptions' alert listener). */
export type AlertsListener = (trx: Transaction<Database>, landing: CatalogLanding) => Promise<void>;

/** What the detector needs of the product subscriptions; ProductSubscriptionsService satisfies it. */
export interface AlertSource {
  pendingAlertProfiles(
    shopId: string,
    generation: number,
    kind: AlertTriggerKind,
    afterProfileId: number,
    limit: number,
  ): Promise<number[]>;
  pendingAlertsOf(
    shopId: string,
    generation: number,
    kind: AlertTriggerKind,
    profileIds: readonly number[],
  ): Promise<{ profileId: number; itemId: string }[]>;
  markAlertsChained(
    trx: Transaction<Database>,
    shopId: string,
    generation: number,
    kind: AlertTriggerKind,
    profileIds: readonly number[],
  ): Promise<void>;
}

export interface ProductAlertsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: Pick<JobQueue, 'enqueue'>;
  readonly alerts: AlertSource;
  readonly products: TriggerProducts;
  readonly chains: ActiveChainsView;
  readonly starter: ChainStarter;
}

/** Profiles handed to chains per transaction. */
export const ALERT_PROFILES_PER_COMMIT = 200;

/**
 * The back_in_stock and price_drop triggers (domain/alerts.ts). The landing that writes
 * alerts enqueues one `chains.product_alerts` job in its swap transaction; the job hands
 * the landing's pending alerts to the shop's chains of each kind, a page of profiles per
 * transaction: the runs start (startRun in that transaction) and the alerts become
 * `chained` together, so a job run again after a crash skips what was handed over. With
 * no active chain of a kind, its alerts stay pending.
 */
export class ProductAlerts {
  constructor(private readonly deps: ProductAlertsDeps) {}

  /** The product subscriptions' listener of landings that wrote alerts (src/services.ts lists it). */
  alertsListener(): AlertsListener {
    return (trx, landing) => this.landed(trx, landing);
  }

  private async landed(trx: Transaction<Database>, landing: CatalogLanding): Promise<void> {
    if (!this.deps.chains.mayHave(landing.shopId, ALERT_TRIGGERS)) return;
    const job = { shopId: landing.shopId, generation: landing.generation };
    await this.deps.jobs.enqueue('chains.product_alerts', job, {
      executor: trx,
      idempotencyKey: `${landing.shopId}/${landing.generation}`,
    });
  }

  /** The `chains.product_alerts` job. */
  async run(job: JobMap['chains.product_alerts']): Promise<void> {
    for (const kind of ALERT_TRIGGERS) {
      const chains = await this.deps.chains.of(job.shopId, kind);
      if (chains.length > 0) await this.handOver(job, kind, chains);
    }
  }

  private async handOver(job: JobMap['chains.product_alerts'], kind: AlertTriggerKind, chains: readonly ActiveChain[]): Promise<void> {
    const { shopId, generation } = job;
    for (let after = 0; ; ) {
      const profiles = await this.deps.alerts.pendingAlertProfiles(shopId, generation, kind, after, ALERT_PROFILES_PER_COMMIT);
      if (profiles.length === 0) return;
      const grouped = itemsByProfile(await this.deps.alerts.pendingAlertsOf(shopId, generation, kind, profiles));
      const items = new Map([...grouped].map(([profileId, ids]) => [profileId, ids.map((id) => ({ id }))]));
      const products = await this.deps.products.ofGroups(shopId, items);
      const at = this.deps.clock.now();
      await this.deps.db.db.transaction().execute(async (trx) => {
        for (const [profileId, list] of products) {
          for (const chain of chains) {
            const key = alertFiringKey(kind, generation, profileId);
            await this.deps.starter.startRun(trx, { shopId, chainId: chain.chainId, profileId, products: list, variables: {}, key, at });
          }
        }
        await this.deps.alerts.markAlertsChained(trx, shopId, generation, kind, profiles);
      });
      after = profiles[profiles.length - 1] as number;
    }
  }
}
