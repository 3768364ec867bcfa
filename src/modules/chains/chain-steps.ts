import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AudienceService } from '../audience/index.js';
import type { SegmentsService } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';
import type { LoyaltyLevelsService } from '../loyalty/index.js';
import { mailingChannels, type TemplateChannel } from '../messaging/index.js';
import type { DeliveryPlan } from '../messaging/index.js';
import type { MessageWriter, NewMessage } from '../messaging/index.js';
import type { TrackingService } from '../tracking/index.js';
import type { Executor } from './chain-starter.js';
import * as repo from './chains.repo.js';
import { MAX_STEPS, type Condition, type Step } from './domain/definition.js';
import { evaluate, factNeeded, waitEnds, type Facts } from './domain/progress.js';

const STEPS_CACHE_MAX = 1_000;

/** How a run moves off its current step: to a wait it entered, or to its end. */
export type RunMove = Parameters<typeof repo.advanceRun>[2];

/** The run's due steps, decided: where it moves, and the sends among them with their addresses. */
export interface StepsDecision {
  readonly values: RunMove;
  readonly due: number;
  readonly now: number;
  readonly profileId: number;
  readonly sends: ReadonlyArray<{ readonly index: number; readonly plan: DeliveryPlan }>;
}

/** The recipient reads of deciding a run's steps. */
export interface StepLookups {
  /** The profile's live id (a merged profile's survivor); undefined when the shop has none. */
  currentProfileId(shopId: string, profileId: number): Promise<number | undefined>;
  plan(shopId: string, profileId: number, channels: readonly TemplateChannel[]): Promise<DeliveryPlan>;
}

/**
 * The `chains.step` job (docs/chains.md "Durability"): advances one run from its current
 * step while steps are due. Each step is one transaction holding the conditional move of
 * the run from that step (repo.advanceRun) and what the step writes (the message of a
 * send, the job at the end of a wait): a crash before the commit leaves the step to run
 * again, a commit makes it done, so no step runs twice, however often the job is
 * delivered. A wait is a row's due time and a job queued for it, never a sleeping process.
 */
export class ChainSteps {
  /** Versions never change once written, so their steps are kept (bounded, oldest out). */
  private readonly cache = new Map<string, readonly Step[]>();
  private readonly direct: StepLookups = {
    currentProfileId: (shopId, profileId) => this.deps.identity.currentProfileId(shopId, profileId),
    plan: (shopId, profileId, channels) => this.deps.writer.plan(this.deps.db.db, shopId, profileId, 'chain', channels),
  };

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly jobs: JobQueue;
      readonly writer: Pick<MessageWriter, 'plan' | 'planMany' | 'write' | 'writeMany'>;
      readonly identity: Pick<IdentityService, 'currentProfileId' | 'getProfile' | 'getProfilesMany'>;
      readonly audience: Pick<AudienceService, 'getCustomerAttributes'>;
      readonly orders: Pick<TrackingService, 'listRecentOrders'>;
      readonly segments: Pick<SegmentsService, 'segmentIdsOf'>;
      readonly levels?: Pick<LoyaltyLevelsService, 'levelOf'>;
    },
  ) {}

  /** The steps of a chain version; `executor` is the caller's transaction where it has one. */
  async stepsOf(
    shopId: string,
    chainId: number,
    version: number,
    executor: Executor = this.deps.db.db,
  ): Promise<readonly Step[] | undefined> {
    const key = `${shopId}:${chainId}:${version}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const json = await repo.findVersionSteps(executor, shopId, chainId, version);
    if (json === undefined) return undefined;
    const steps = JSON.parse(json) as Step[];
    if (this.cache.size >= STEPS_CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, steps);
    return steps;
  }

  /** The job: runs the run's due steps until a wait or the end. */
  async run(payload: JobMap['chains.step']): Promise<void> {
    for (let guard = 0; guard <= MAX_STEPS + 1; guard += 1) {
      const run = await repo.findRun(this.deps.db.db, payload.shopId, payload.runId);
      if (!run || run.status !== 'waiting' || Number(run.due_at) > this.deps.clock.now()) return;
      if (!(await this.take(run))) return;
    }
  }

  /**
   * Runs the run's due steps (decide, then commit in one transaction: the run's
   * conditional move from its current step and what the steps write). True when the wait
   * entered is already over (a wait of 0 seconds).
   */
  private async take(run: repo.RunRow): Promise<boolean> {
    const decision = await this.decide(run);
    const { values, due, now } = decision;
    const moved = await this.deps.db.db.transaction().execute(async (trx) => {
      if (!(await repo.advanceRun(trx, { shopId: run.shop_id, id: Number(run.id), from: run.step }, values))) return false;
      await this.writeSteps(trx, run, decision);
      return true;
    });
    await this.deps.db.durable();
    return moved && values.status === undefined && due <= now;
  }

  /**
   * Decides the run's due steps from its current one up to the next wait (entered, its end
   * fixed) or the end, reading what their conditions and sends need; writes nothing.
   * `lookups`: the recipient reads, answered from a batch's reads (lookupsFor) where given.
   */
  async decide(run: repo.RunRow, lookups: StepLookups = this.direct): Promise<StepsDecision> {
    const shopId = run.shop_id;
    const from = run.step;
    const steps = await this.stepsOf(shopId, Number(run.chain_id), run.version);
    const now = this.deps.clock.now();
    const profileId = (await lookups.currentProfileId(shopId, Number(run.profile_id))) ?? Number(run.profile_id);
    const sends: Array<{ index: number; plan: DeliveryPlan }> = [];
    let values: RunMove | undefined;
    let due = now;
    for (let index = from; values === undefined; index += 1) {
      const step = steps?.[index];
      if (!steps || (!step && index === from)) values = exited(from, 'the chain version is gone', now);
      else if (!step) values = { step: index - 1, status: 'done', ended_at: now, updated_at: now };
      else if ('wait' in step && index !== from) {
        due = waitEnds(step, now, await this.timezone(shopId, step));
        values = { step: index, due_at: due, updated_at: now };
      } else if ('exit' in step) values = exited(index, `exit step ${index}`, now);
      else if ('if' in step) {
        const verdict = evaluate(step.if, await this.facts(run, profileId, step.if));
        if (!verdict.pass) values = exited(index, `step ${index}: ${verdict.reason}`, now);
      } else if ('send' in step) {
        sends.push({ index, plan: await lookups.plan(shopId, profileId, mailingChannels(step.send)) });
      }
    }
    return { values, due, now, profileId, sends };
  }

  /**
   * The recipient reads of many runs about to be decided together (a batch of starts), in
   * a few queries per shop instead of a few per run: their live profile ids, and the
   * delivery plans of the sends due before their first wait. What was not read ahead is
   * read directly.
   */
  async lookupsFor(runs: readonly repo.RunRow[]): Promise<StepLookups> {
    const live = new Map<string, number>();
    const plans = new Map<string, DeliveryPlan>();
    const byShop = new Map<string, repo.RunRow[]>();
    for (const run of runs) byShop.set(run.shop_id, [...(byShop.get(run.shop_id) ?? []), run]);
    for (const [shopId, shopRuns] of byShop) {
      const profiles = await this.deps.identity.getProfilesMany(shopId, [...new Set(shopRuns.map((r) => Number(r.profile_id)))]);
      for (const [id, profile] of profiles) live.set(`${shopId}/${id}`, profile.id);
      const wanted = new Map<string, { channels: TemplateChannel[]; ids: Set<number> }>();
      for (const run of shopRuns) {
        const id = live.get(`${shopId}/${Number(run.profile_id)}`) ?? Number(run.profile_id);
        for (const channels of await this.dueSendChannels(run)) {
          const key = channels.join(',');
          const entry = wanted.get(key) ?? { channels, ids: new Set<number>() };
          entry.ids.add(id);
          wanted.set(key, entry);
        }
      }
      for (const [key, { channels, ids }] of wanted) {
        const planned = await this.deps.writer.planMany(this.deps.db.db, shopId, [...ids], 'chain', channels);
        for (const [id, plan] of planned) plans.set(`${shopId}/${id}/${key}`, plan);
      }
    }
    return {
      currentProfileId: async (shopId, profileId) => live.get(`${shopId}/${profileId}`) ?? this.direct.currentProfileId(shopId, profileId),
      plan: async (shopId, profileId, channels) =>
        plans.get(`${shopId}/${profileId}/${channels.join(',')}`) ?? this.direct.plan(shopId, profileId, channels),
    };
  }

  /** The channels of each send step from the run's current one up to its first wait. */
  private async dueSendChannels(run: repo.RunRow): Promise<TemplateChannel[][]> {
    const steps = (await this.stepsOf(run.shop_id, Number(run.chain_id), run.version)) ?? [];
    const out: TemplateChannel[][] = [];
    for (let index = run.step; index < steps.length; index += 1) {
      const step = steps[index] as Step;
      if ('wait' in step && index !== run.step) break;
      if ('send' in step) out.push(mailingChannels(step.send));
    }
    return out;
  }

  /** What the decided steps write, in the transaction that moves (or inserts) the run: messages, the wait's job. */
  async writeSteps(trx: Executor, run: repo.RunRow, decision: StepsDecision): Promise<void> {
    for (const { message, plan } of this.messagesOf(run, decision)) await this.deps.writer.write(trx, message, plan);
    const job = waitJob(run, decision);
    if (job)
      await this.deps.jobs.enqueue('chains.step', job.payload, { executor: trx, runAt: job.runAt, idempotencyKey: job.idempotencyKey });
  }

  /**
   * writeSteps for many runs in one transaction (a batch of starts): their messages,
   * deliveries and wait jobs in a few multi-row inserts instead of a few statements per run.
   */
  async writeStepsMany(
    trx: Executor,
    items: ReadonlyArray<{ readonly run: repo.RunRow; readonly decision: StepsDecision }>,
  ): Promise<void> {
    const messages = items.flatMap(({ run, decision }) => this.messagesOf(run, decision));
    if (messages.length > 0) await this.deps.writer.writeMany(trx, messages);
    const jobs = items.flatMap(({ run, decision }) => waitJob(run, decision) ?? []);
    if (jobs.length > 0) await this.deps.jobs.enqueueMany('chains.step', jobs, { executor: trx });
  }

  /** The messages of the decided steps' sends, each keyed by its run and step so that a step run again writes none. */
  private messagesOf(run: repo.RunRow, decision: StepsDecision): Array<{ message: NewMessage; plan: DeliveryPlan }> {
    if (decision.sends.length === 0) return [];
    const variables = JSON.parse(run.variables) as Record<string, unknown>;
    if (run.products !== null) variables.products = JSON.parse(run.products) as unknown;
    const chainId = Number(run.chain_id);
    return decision.sends.map(({ index, plan }) => ({
      message: {
        shopId: run.shop_id,
        profileId: decision.profileId,
        type: 'chain',
        campaignId: chainId,
        templateRef: `${chainId}:${run.version}:${index}`,
        variables,
        runAt: decision.now,
        now: decision.now,
        idempotencyKey: `chain:${Number(run.id)}:${index}`,
      },
      plan,
    }));
  }

  /** The one fact the condition reads. */
  private async facts(run: repo.RunRow, profileId: number, condition: Condition): Promise<Facts> {
    const shopId = run.shop_id;
    const variables = JSON.parse(run.variables) as Record<string, unknown>;
    const since = Number(run.started_at);
    switch (factNeeded(condition)) {
      case 'variables':
        return { variables };
      case 'purchased':
        return { variables, purchased: (await this.deps.orders.listRecentOrders(shopId, profileId, { since, limit: 1 })).length > 0 };
      case 'properties': {
        const profile = await this.deps.identity.getProfile(shopId, profileId);
        const attributes = await this.deps.audience.getCustomerAttributes(shopId, profileId);
        return { variables, properties: { ...profile?.properties, ...attributes?.fields } };
      }
      case 'level':
        return { variables, level: (await this.deps.levels?.levelOf(shopId, profileId))?.code ?? null };
      case 'segments':
        return { variables, segments: (await this.deps.segments.segmentIdsOf(shopId, [profileId])).get(profileId) ?? [] };
      case 'opened':
      case 'clicked': {
        const column = factNeeded(condition) === 'opened' ? 'opened_at' : 'clicked_at';
        const happened = await repo.chainMessageOutcome(
          this.deps.db.db,
          { shopId, chainId: Number(run.chain_id), profileId, since },
          column,
        );
        return { variables, opened: happened, clicked: happened };
      }
    }
  }

  /** The shop's time zone, read only for a wait until a time of day. */
  private async timezone(shopId: string, step: Step): Promise<string> {
    if (!('wait' in step) || !('until' in step.wait)) return 'UTC';
    return (await repo.shopTimezone(this.deps.db.db, shopId)) ?? 'UTC';
  }
}

/** The `chains.step` job at the end of the wait the decided steps entered, if they entered one. */
function waitJob(
  run: repo.RunRow,
  decision: StepsDecision,
): { payload: JobMap['chains.step']; runAt: number; idempotencyKey: string } | undefined {
  const { values, due, now } = decision;
  if (values.status !== undefined || due <= now) return undefined;
  const shopId = run.shop_id;
  const runId = Number(run.id);
  return { payload: { shopId, runId }, runAt: due, idempotencyKey: `${shopId}:${runId}:${values.step}` };
}

function exited(step: number, reason: string, now: number): RunMove {
  return { step, status: 'exited', reason: reason.slice(0, 500), ended_at: now, updated_at: now };
}
