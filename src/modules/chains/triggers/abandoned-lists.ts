import type { Clock } from '../../../clock.js';
import type { DbHandle } from '../../../db/create-db.js';
import { fromFlag, toFlag } from '../../../db/dialect.js';
import type { JobMap } from '../../../jobs/job-map.js';
import type { JobQueue } from '../../../jobs/queue.js';
import type { IdentityService, MergeParticipant } from '../../identity/index.js';
import type { StoredEvent, TrackingSubscriber } from '../../tracking/index.js';
import type { ActiveChain, ChainStarter, Executor } from '../chain-starter.js';
import type { ActiveChainsView } from './active-chains.js';
import { dueChains, LIST_TRIGGER, listFiringKey, listSignalOf, nextCheckAt, type WatchedList } from './domain/abandoned.js';
import type { TriggerProducts } from './trigger-products.js';
import * as repo from './triggers.repo.js';

export interface AbandonedListsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly jobs: Pick<JobQueue, 'enqueue'>;
  readonly tracking: {
    getLists(shopId: string, profileId: number): Promise<Readonly<Record<WatchedList, readonly { id: string; price?: number }[]>>>;
  };
  readonly products: TriggerProducts;
  readonly identity: Pick<IdentityService, 'currentProfileId'>;
  readonly chains: ActiveChainsView;
  readonly starter: ChainStarter;
}

type CheckJob = JobMap['chains.abandoned_check'];

/**
 * The abandoned_cart and abandoned_wish triggers (domain/abandoned.ts). A tracking
 * subscriber hears every event that changes a cart or wish list, and a purchase; it moves
 * the list's watch row to that event and, in the same transaction, schedules a
 * `chains.abandoned_check` job at the first chain's delay. The check fires only if the
 * watch still names that event (nothing changed since, no purchase) and the list is not
 * empty, then schedules itself for the next chain's delay. Keys make every step
 * repeatable: a redelivered event or check starts no second run.
 *
 * A purchase also ends the profile's waiting abandoned-cart runs (admin-api.md: "A
 * purchase ends the abandoned-cart run of that profile"). It starts nothing: the fixed
 * trigger list has no purchase trigger (docs/chains.md, "Triggers").
 */
export class AbandonedLists {
  constructor(private readonly deps: AbandonedListsDeps) {}

  /** The merged profile's watched lists are the survivor's. */
  mergeParticipant(): MergeParticipant {
    return { name: 'abandoned lists', merge: (trx, shopId, fromId, intoId) => repo.moveWatches(trx, shopId, fromId, intoId) };
  }

  private get db() {
    return this.deps.db.db;
  }

  trackingSubscriber(): TrackingSubscriber {
    return {
      name: 'chains.abandoned-lists',
      accepts: (event) => {
        const signal = listSignalOf(event);
        return signal !== undefined && this.deps.chains.mayHave(event.shopId, [LIST_TRIGGER[signal.list]]);
      },
      handle: (event) => this.hear(event),
    };
  }

  /** A list event or a purchase: the watch moves; an arming change schedules the first check. */
  async hear(event: StoredEvent): Promise<void> {
    const signal = listSignalOf(event);
    if (!signal) return;
    const kind = LIST_TRIGGER[signal.list];
    const chains = await this.deps.chains.of(event.shopId, kind);
    if (chains.length === 0 && !signal.purchase) return;
    await this.db.transaction().execute(async (trx) => {
      if (signal.purchase) await this.deps.starter.endRuns(trx, event.shopId, event.profileId, 'abandoned_cart', event.time);
      if (chains.length === 0) return;
      const moved = await repo.moveWatch(trx, {
        shop_id: event.shopId,
        profile_id: event.profileId,
        list: signal.list,
        event_id: event.id,
        changed_at: event.time,
        armed: toFlag(signal.armed),
      });
      if (moved && signal.armed) {
        const job = { shopId: event.shopId, profileId: event.profileId, list: signal.list, eventId: event.id };
        await this.schedule(trx, job, nextCheckAt(chains, event.time, -Infinity));
      }
    });
  }

  /** The `chains.abandoned_check` job. */
  async check(scheduled: CheckJob): Promise<void> {
    // A merge since moved the watch to the surviving profile (moveWatches).
    const profileId = (await this.deps.identity.currentProfileId(scheduled.shopId, scheduled.profileId)) ?? scheduled.profileId;
    const job = { ...scheduled, profileId };
    const watch = await repo.findWatch(this.db, job.shopId, profileId, job.list);
    if (!watch || Number(watch.event_id) !== job.eventId || !fromFlag(watch.armed)) return;
    const kind = LIST_TRIGGER[job.list];
    const chains = await this.deps.chains.of(job.shopId, kind);
    const now = this.deps.clock.now();
    const changedAt = Number(watch.changed_at);
    const due = dueChains(chains, changedAt, now);
    if (due.length > 0 && !(await this.fire(job, due, now))) return;
    await this.schedule(this.db, job, nextCheckAt(chains, changedAt, now));
  }

  /** Starts the due chains with the list's products; false when the list is empty (nothing to fire, now or later). */
  private async fire(job: CheckJob, due: readonly ActiveChain[], now: number): Promise<boolean> {
    const items = (await this.deps.tracking.getLists(job.shopId, job.profileId))[job.list];
    if (items.length === 0) return false;
    const products = await this.deps.products.of(job.shopId, items);
    const key = listFiringKey(LIST_TRIGGER[job.list], job.eventId);
    for (const chain of due) {
      await this.deps.starter.startRun(this.db, {
        shopId: job.shopId,
        chainId: chain.chainId,
        profileId: job.profileId,
        variables: {},
        products,
        key,
        at: now,
      });
    }
    return true;
  }

  private async schedule(executor: Executor, job: CheckJob, at: number | undefined): Promise<void> {
    if (at === undefined) return;
    await this.deps.jobs.enqueue('chains.abandoned_check', job, {
      executor,
      runAt: at,
      idempotencyKey: `${job.shopId}/${job.profileId}/${job.list}/${job.eventId}/${at}`,
    });
  }
}
