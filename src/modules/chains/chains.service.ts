import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { TtlCache } from '../../ttl-cache.js';
import type { SegmentsService } from '../audience/index.js';
import type { IdentityInput, IdentityService, MergeParticipant } from '../identity/index.js';
import { RewardCodesCache } from '../loyalty/index.js';
import type { MailingTemplates } from '../messaging/index.js';
import { nextMessagingId } from '../messaging/index.js';
import type { TemplateRenderer } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import type { StoredEvent, TrackingSubscriber } from '../tracking/index.js';
import type { ActiveChain, ChainStarter, ChainTrigger, Executor, RunStart, StartOutcome, TriggerKind } from './chain-starter.js';
import type { ChainSteps } from './chain-steps.js';
import * as repo from './chains.repo.js';
import { enterUnderRule, EventStarts, type FirstSteps } from './event-starts.js';
import { checkDefinition, parseTrigger, sendTemplates, triggerBody, type Reentry, type Step } from './domain/definition.js';
import { waitEnds } from './domain/progress.js';

/** How long one process answers a shop's active chains of a kind from memory (a PUT in this process clears it at once). */
export const ACTIVE_CHAINS_TTL_MS = 5_000;
const ACTIVE_CHAINS_MAX = 10_000;
export const CHAIN_NOT_FOUND = 'Chain is not found.';
export const EVENTS_SUBSCRIBER = 'chains.events';
/** The runs one read lists at most, newest first. */
export const MAX_RUNS_LISTED = 100;

export interface Chain {
  readonly id: number;
  readonly code: string;
  readonly name: string | null;
  readonly status: 'active' | 'paused';
  readonly trigger: Record<string, unknown>;
  readonly reentry: Reentry;
  readonly reentryPeriodSeconds: number | null;
  readonly version: number;
  readonly steps: readonly Step[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface PutChainInput {
  readonly name?: string | null;
  readonly status: 'active' | 'paused';
  readonly trigger: unknown;
  readonly reentry: string;
  readonly reentryPeriodSeconds?: number;
  readonly steps: unknown;
}

export interface ChainRun {
  readonly id: number;
  readonly status: 'waiting' | 'done' | 'exited';
  readonly step: number;
  readonly startedAt: number;
  readonly version: number;
  readonly dueAt: number | null;
  readonly endedAt: number | null;
  readonly reason: string | null;
  readonly profileId: number;
}

export function toChainRun(r: repo.RunRow): ChainRun {
  return {
    id: Number(r.id),
    status: r.status,
    step: r.step,
    startedAt: Number(r.started_at),
    version: r.version,
    dueAt: r.status === 'waiting' ? Number(r.due_at) : null,
    endedAt: r.ended_at === null ? null : Number(r.ended_at),
    reason: r.reason,
    profileId: Number(r.profile_id),
  };
}

/**
 * Triggered message chains (docs/chains.md): the admin's chains, and the engine's side of
 * the ChainStarter seam that trigger detectors call. Runs advance in the `chains.step`
 * job (chain-steps.ts).
 */
export class ChainsService implements ChainStarter {
  private readonly active: TtlCache<string, readonly ActiveChain[]>;
  private readonly eventCodes: RewardCodesCache;
  private readonly eventStarts: EventStarts;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly identity: Pick<IdentityService, 'findProfilesOnly'>;
      readonly renderer: Pick<TemplateRenderer, 'check'>;
      /** A segment_entry trigger must name a segment of the shop (as a bulk mailing's segments must). */
      readonly segments: Pick<SegmentsService, 'hasSegment'>;
      readonly jobs: JobQueue;
      readonly steps: ChainSteps;
    },
  ) {
    this.active = new TtlCache({ max: ACTIVE_CHAINS_MAX, ttlMs: ACTIVE_CHAINS_TTL_MS, clock: deps.clock });
    // The subscriber's `accepts` is synchronous: the same "maybe while loading" cache as event rewards.
    this.eventCodes = new RewardCodesCache(
      async (shopId) => (await this.activeChains(shopId, 'event')).map((c) => (c.trigger.kind === 'event' ? c.trigger.code : '')),
      { clock: deps.clock, refreshMs: ACTIVE_CHAINS_TTL_MS, maxShops: ACTIVE_CHAINS_MAX },
    );
    this.eventStarts = new EventStarts({
      db: deps.db,
      steps: deps.steps,
      now: () => deps.clock.now(),
      runRow: (start, id, version, now) => this.runRow(start, id, version, now),
      startIn: async (trx, start, decided, chain, id) => (await this.startIn(trx, start, decided, { chain, id })).outcome,
    });
  }

  /** A merged profile's runs and entries are the survivor's: its runs list under it, and `once` holds for the person. */
  mergeParticipant(): MergeParticipant {
    return { name: 'chains', merge: (trx, shopId, fromId, intoId) => repo.moveProfileChains(trx, shopId, fromId, intoId) };
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.active.clear();
    this.eventCodes.clear();
  }

  private get db() {
    return this.deps.db.db;
  }

  /** PUT …/chains/{code}: creates the chain or writes its next version; runs keep the version they started on. */
  async putChain(shopId: string, code: string, input: PutChainInput): Promise<Chain> {
    await this.deps.shops.requireShop(shopId);
    const checked = checkDefinition(input);
    if (!checked.ok) throw new AppError('VALIDATION_FAILED', checked.message, { field: checked.field });
    const { trigger, steps, reentry, periodMs } = checked.definition;
    if (trigger.kind === 'segment_entry' && !(await this.deps.segments.hasSegment(shopId, trigger.segmentId))) {
      // The bulk mailing's sentence and status (bulk.service.ts): a chain on a segment the shop lacks would never start.
      throw new AppError('VALIDATION_FAILED', `Segment ${trigger.segmentId} does not exist.`, { field: 'trigger' });
    }
    for (const [index, step] of steps.entries()) {
      const problem = 'send' in step ? this.deps.renderer.check(step.send) : undefined;
      if (problem) {
        const field = `steps[${index}].send.${problem.path}`;
        throw new AppError('VALIDATION_FAILED', `Template ${field} does not parse: ${problem.message}`, { field });
      }
    }
    const now = this.deps.clock.now();
    const values = {
      name: input.name ?? null,
      status: input.status,
      trigger_kind: trigger.kind,
      trigger: JSON.stringify(triggerBody(trigger)),
      reentry,
      reentry_period_ms: periodMs,
      updated_at: now,
    };
    const stepsJson = JSON.stringify(steps);
    await this.db.transaction().execute(async (trx) => {
      let bumped = await repo.bumpChain(trx, shopId, code, values);
      if (!bumped) {
        const id = await nextMessagingId(trx, shopId, 'chains');
        if (await repo.insertChain(trx, { shop_id: shopId, id, code, version: 1, created_at: now, ...values })) bumped = { id, version: 1 };
        // A concurrent PUT created it: this one is its next version.
        else bumped = await repo.bumpChain(trx, shopId, code, values);
      }
      if (!bumped) throw new Error('A chain vanished while it was written');
      await repo.insertVersion(trx, shopId, Number(bumped.id), bumped.version, stepsJson, now);
    });
    await this.deps.db.durable();
    this.forget(shopId);
    return this.getChain(shopId, code);
  }

  async getChain(shopId: string, code: string): Promise<Chain> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findChainByCode(this.db, shopId, code);
    if (!row) throw new AppError('NOT_FOUND', CHAIN_NOT_FOUND);
    return this.toChain(row);
  }

  async listChains(shopId: string): Promise<Chain[]> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listChains(this.db, shopId);
    return Promise.all(rows.map((row) => this.toChain(row)));
  }

  /** GET …/chains/{code}/runs: the runs of the profiles the identifier names, newest first. */
  async listRuns(shopId: string, code: string, who: IdentityInput): Promise<ChainRun[]> {
    await this.deps.shops.requireShop(shopId);
    const chain = await repo.findChainByCode(this.db, shopId, code);
    if (!chain) throw new AppError('NOT_FOUND', CHAIN_NOT_FOUND);
    const profiles = await this.deps.identity.findProfilesOnly(shopId, who);
    const rows = await repo.listRunsOf(
      this.db,
      shopId,
      Number(chain.id),
      profiles.map((p) => p.id),
      MAX_RUNS_LISTED,
    );
    return rows.map(toChainRun);
  }

  /** ChainStarter: answered from memory for ACTIVE_CHAINS_TTL_MS per shop and kind. */
  activeChains(shopId: string, kind: TriggerKind): Promise<readonly ActiveChain[]> {
    return this.active.getOrLoad(`${shopId}\n${kind}`, async () =>
      (await repo.activeChainsOf(this.db, shopId, kind)).map((r) => ({
        chainId: Number(r.id),
        trigger: parseTrigger(JSON.parse(r.trigger)) as ChainTrigger,
      })),
    );
  }

  /**
   * ChainStarter: the run, its re-entry entry and its first job in `executor` (the
   * caller's transaction when it is one, else a transaction of its own). The run is
   * inserted first (a firing key seen before: duplicate), then the entry upsert decides
   * re-entry; a refused entry takes its run back, so it records none.
   */
  async startRun(executor: Executor, start: RunStart): Promise<StartOutcome> {
    const { outcome } = executor.isTransaction
      ? await this.startIn(executor, start)
      : await executor.transaction().execute((trx) => this.startIn(trx, start));
    if (outcome === 'started' && !executor.isTransaction) await this.deps.db.durable();
    // Without a decision there is no version to be stale against.
    return outcome === 'stale' ? 'chain_inactive' : outcome;
  }

  /** ChainStarter: exits the profile's waiting runs of chains with this trigger kind. */
  async endRuns(executor: Executor, shopId: string, profileId: number, kind: TriggerKind, at: number): Promise<number> {
    return repo.exitRunsOfKind(
      executor,
      shopId,
      profileId,
      kind,
      `ended by a ${kind === 'abandoned_cart' ? 'purchase' : 'later event'}`,
      at,
    );
  }

  /** Custom events whose code triggers an active chain start it, their variables passed to the run. */
  trackingSubscriber(): TrackingSubscriber {
    return {
      name: EVENTS_SUBSCRIBER,
      accepts: (event) => event.custom && this.eventCodes.mayReward(event.shopId, event.event),
      handle: (event) => this.startFromEvent(event),
    };
  }

  /** The templates of a chain message (the delivery's template source of the `chain` type). */
  async templates(shopId: string, ref: string): Promise<MailingTemplates | undefined> {
    const [chainId, version, index] = ref.split(':').map(Number);
    if (chainId === undefined || version === undefined || index === undefined) return undefined;
    const steps = await this.deps.steps.stepsOf(shopId, chainId, version);
    return sendTemplates(steps?.[index]);
  }

  /** Settles when the event codes being loaded for the subscriber have (for tests). */
  eventCodesSettled(): Promise<void> {
    return this.eventCodes.settled();
  }

  /**
   * Starts the chains the event triggers, in this `tracking.deliver` job. A chain whose
   * first step is due at once has its due steps decided first and committed with the
   * run's insert in one transaction (the firing key's unique constraint is the gate, so
   * they run once); no `chains.step` job is needed until a wait. The starts of the jobs
   * running side by side share that transaction (event-starts.ts). Should the chain have
   * changed version meanwhile, the run starts the ordinary way. A crash redelivers the
   * job: the start is then a duplicate, and the run is run from where it is.
   */
  private async startFromEvent(event: StoredEvent): Promise<void> {
    const chains = (await this.activeChains(event.shopId, 'event')).filter(
      (c) => c.trigger.kind === 'event' && c.trigger.code === event.event,
    );
    const { payload: _payload, ...variables } = event.params;
    for (const chain of chains) {
      const start = {
        shopId: event.shopId,
        chainId: chain.chainId,
        profileId: event.profileId,
        variables,
        key: `event:${event.id}`,
        at: event.time,
      };
      let outcome = await this.eventStarts.submit(start);
      if (outcome === 'stale') {
        outcome = (await this.db.transaction().execute((trx) => this.startIn(trx, start))).outcome;
        if (outcome === 'started') await this.deps.db.durable();
      }
      if (outcome !== 'duplicate') continue;
      const runId = await repo.findRunIdByKey(this.db, start.shopId, start.chainId, start.key);
      if (runId !== undefined) await this.deps.steps.run({ shopId: start.shopId, runId });
    }
  }

  /**
   * Inserts the run (and decides re-entry) in `trx`; with `decided`, already past its due
   * first steps, whose writes it commits too. `read`: the chain as a batch read it in `trx`
   * (null: it has none) and the run's reserved id.
   */
  private async startIn(
    trx: Executor,
    start: RunStart,
    decided?: FirstSteps,
    read?: { readonly chain: repo.ChainRow | undefined; readonly id: number },
  ): Promise<{ outcome: StartOutcome | 'stale' }> {
    const chain = read ? read.chain : await repo.findChain(trx, start.shopId, start.chainId);
    if (!chain || chain.status !== 'active') return { outcome: 'chain_inactive' };
    if (decided && decided.version !== chain.version) return { outcome: 'stale' };
    const steps = await this.deps.steps.stepsOf(start.shopId, start.chainId, chain.version, trx);
    const first = steps?.[0];
    if (!first) return { outcome: 'chain_inactive' };
    const now = this.deps.clock.now();
    const due = 'wait' in first ? waitEnds(first, now, (await repo.shopTimezone(trx, start.shopId)) ?? 'UTC') : now;
    const id = read ? read.id : await nextMessagingId(trx, start.shopId, 'chain_runs');
    const row = { ...this.runRow(start, id, chain.version, now), due_at: due };
    const moved = decided?.decision.values;
    const inserted = await repo.insertRun(trx, moved ? { ...row, ...moved, due_at: moved.due_at ?? now } : row);
    if (!inserted) return { outcome: 'duplicate' };
    if (!(await enterUnderRule(trx, chain, start, id))) return { outcome: 'refused_reentry' };
    if (decided) await this.deps.steps.writeSteps(trx, row, decided.decision);
    else
      await this.deps.jobs.enqueue(
        'chains.step',
        { shopId: start.shopId, runId: id },
        { executor: trx, runAt: due, idempotencyKey: `${start.shopId}:${id}:0` },
      );
    return { outcome: 'started' };
  }

  private runRow(start: RunStart, id: number, version: number, now: number): repo.RunRow {
    return {
      shop_id: start.shopId,
      id,
      chain_id: start.chainId,
      version,
      profile_id: start.profileId,
      firing_key: start.key.slice(0, 200),
      status: 'waiting',
      step: 0,
      due_at: now,
      variables: JSON.stringify(start.variables),
      products: start.products ? JSON.stringify(start.products) : null,
      reason: null,
      started_at: start.at,
      updated_at: now,
      ended_at: null,
    };
  }

  private async toChain(row: repo.ChainRow): Promise<Chain> {
    const steps = (await this.deps.steps.stepsOf(row.shop_id, Number(row.id), row.version)) ?? [];
    return {
      id: Number(row.id),
      code: row.code,
      name: row.name,
      status: row.status,
      trigger: JSON.parse(row.trigger) as Record<string, unknown>,
      reentry: row.reentry,
      reentryPeriodSeconds: row.reentry_period_ms === null ? null : Number(row.reentry_period_ms) / 1000,
      version: row.version,
      steps,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }

  private forget(shopId: string): void {
    for (const kind of ['event', 'abandoned_cart', 'abandoned_wish', 'back_in_stock', 'price_drop', 'segment_entry'] as const) {
      this.active.delete(`${shopId}\n${kind}`);
    }
    this.eventCodes.invalidate(shopId);
  }
}
