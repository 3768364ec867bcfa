import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobMap } from '../../jobs/job-map.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AudienceService } from '../audience/audience.service.js';
import type { SegmentsService } from '../audience/segments.service.js';
import type { IdentityService } from '../identity/identity.service.js';
import type { LoyaltyLevelsService } from '../loyalty/loyalty-levels.service.js';
import { mailingChannels, type MailingTemplates } from '../messaging/domain/mailing.js';
import type { MessageWriter } from '../messaging/message-writer.js';
import type { TrackingService } from '../tracking/tracking.service.js';
import type { Executor } from './chain-starter.js';
import * as repo from './chains.repo.js';
import { MAX_STEPS, type Condition, type Step } from './domain/definition.js';
import { evaluate, factNeeded, waitEnds, type Facts } from './domain/progress.js';

const STEPS_CACHE_MAX = 1_000;

type StepOutcome =
  | { readonly kind: 'next' }
  | { readonly kind: 'exit'; readonly reason: string }
  | { readonly kind: 'send'; readonly templates: MailingTemplates };

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

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly jobs: JobQueue;
      readonly writer: Pick<MessageWriter, 'plan' | 'write'>;
      readonly identity: Pick<IdentityService, 'currentProfileId' | 'getProfile'>;
      readonly audience: Pick<AudienceService, 'getCustomerAttributes'>;
      readonly orders: Pick<TrackingService, 'listRecentOrders'>;
      readonly segments: Pick<SegmentsService, 'segmentIdsOf'>;
      readonly levels?: Pick<LoyaltyLevelsService, 'levelOf'>;
    },
  ) {}

  /** The steps of a chain version; `executor` is the caller's transaction where it has one. */
  async stepsOf(shopId: string, chainId: number, version: number, executor: Executor = this.deps.db.db): Promise<readonly Step[] | undefined> {
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

  /** The job: runs the run's due steps, one transaction each, until a wait or the end. */
  async run(payload: JobMap['chains.step']): Promise<void> {
    for (let guard = 0; guard <= MAX_STEPS + 1; guard += 1) {
      const run = await repo.findRun(this.deps.db.db, payload.shopId, payload.runId);
      if (!run || run.status !== 'waiting' || Number(run.due_at) > this.deps.clock.now()) return;
      if (!(await this.take(run))) return;
    }
  }

  /** Runs the run's current step; true when the next one is due at once. */
  private async take(run: repo.RunRow): Promise<boolean> {
    const shopId = run.shop_id;
    const index = run.step;
    const steps = await this.stepsOf(shopId, Number(run.chain_id), run.version);
    const step = steps?.[index];
    if (!steps || !step) return this.move(run, { kind: 'exit', reason: 'the chain version is gone' }, []);
    let outcome: StepOutcome;
    if ('if' in step) {
      const verdict = evaluate(step.if, await this.facts(run, step.if));
      outcome = verdict.pass ? { kind: 'next' } : { kind: 'exit', reason: `step ${index}: ${verdict.reason}` };
    } else if ('exit' in step) {
      outcome = { kind: 'exit', reason: `exit step ${index}` };
    } else if ('send' in step) {
      outcome = { kind: 'send', templates: step.send };
    } else {
      outcome = { kind: 'next' };
    }
    return this.move(run, outcome, steps);
  }

  private async move(run: repo.RunRow, outcome: StepOutcome, steps: readonly Step[]): Promise<boolean> {
    const shopId = run.shop_id;
    const runId = Number(run.id);
    const from = run.step;
    const now = this.deps.clock.now();
    const key = { shopId, id: runId, from };
    const profileId = (await this.deps.identity.currentProfileId(shopId, Number(run.profile_id))) ?? Number(run.profile_id);
    let plan: Awaited<ReturnType<MessageWriter['plan']>> | undefined;
    if (outcome.kind === 'send') {
      plan = await this.deps.writer.plan(this.deps.db.db, shopId, profileId, 'chain', mailingChannels(outcome.templates));
    }
    const nextIndex = from + 1;
    const next = steps[nextIndex];
    const ends = outcome.kind === 'exit' || next === undefined;
    const due = next && 'wait' in next ? waitEnds(next, now, await this.timezone(shopId)) : now;
    const moved = await this.deps.db.db.transaction().execute(async (trx) => {
      const values =
        outcome.kind === 'exit'
          ? { status: 'exited' as const, reason: outcome.reason.slice(0, 500), ended_at: now, updated_at: now }
          : next === undefined
            ? { status: 'done' as const, ended_at: now, updated_at: now }
            : { step: nextIndex, due_at: due, updated_at: now };
      if (!(await repo.advanceRun(trx, key, values))) return false;
      if (plan) {
        const variables = JSON.parse(run.variables) as Record<string, unknown>;
        if (run.products !== null) variables.products = JSON.parse(run.products) as unknown;
        await this.deps.writer.write(
          trx,
          {
            shopId,
            profileId,
            type: 'chain',
            campaignId: Number(run.chain_id),
            templateRef: `${Number(run.chain_id)}:${run.version}:${from}`,
            variables,
            runAt: now,
            now,
            idempotencyKey: `chain:${runId}:${from}`,
          },
          plan,
        );
      }
      if (!ends && due > now) {
        await this.deps.jobs.enqueue('chains.step', { shopId, runId }, { executor: trx, runAt: due, idempotencyKey: `${shopId}:${runId}:${nextIndex}` });
      }
      return true;
    });
    await this.deps.db.durable();
    return moved && !ends && due <= now;
  }

  /** The one fact the condition reads. */
  private async facts(run: repo.RunRow, condition: Condition): Promise<Facts> {
    const shopId = run.shop_id;
    const variables = JSON.parse(run.variables) as Record<string, unknown>;
    const profileId = (await this.deps.identity.currentProfileId(shopId, Number(run.profile_id))) ?? Number(run.profile_id);
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
        const happened = await repo.chainMessageOutcome(this.deps.db.db, { shopId, chainId: Number(run.chain_id), profileId, since }, column);
        return { variables, opened: happened, clicked: happened };
      }
    }
  }

  private async timezone(shopId: string): Promise<string> {
    return (await repo.shopTimezone(this.deps.db.db, shopId)) ?? 'UTC';
  }
}
