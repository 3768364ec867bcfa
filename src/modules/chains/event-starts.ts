import type { DbHandle } from '../../db/create-db.js';
import { GroupCommitter } from '../../db/group-commit.js';
import { nextMessagingId } from '../messaging/index.js';
import type { Executor, RunStart, StartOutcome } from './chain-starter.js';
import type { ChainSteps, StepsDecision } from './chain-steps.js';
import * as repo from './chains.repo.js';

/** The most starts one shared transaction takes. */
export const EVENT_STARTS_MAX_BATCH = 256;

/** A run's due first steps, decided before its start on the chain version they belong to. */
export interface FirstSteps {
  readonly version: number;
  readonly decision: StepsDecision;
}

/** How one start is inserted, in the batch's transaction: the chain as read there, and the run's reserved id. */
export type StartInBatch = (
  trx: Executor,
  start: RunStart,
  decided: FirstSteps | undefined,
  chain: repo.ChainRow | undefined,
  id: number,
) => Promise<StartOutcome | 'stale'>;

/**
 * The runs that custom events start, many to a transaction (docs/chains.md, "Performance").
 * The `tracking.deliver` jobs handing events to the chains run side by side; the starts
 * they submit while a batch commits share the next one, through the group committer
 * (db/group-commit.ts): their chains are read once, the recipient reads of their due
 * first steps are made a few queries for the batch (ChainSteps.lookupsFor), their run ids
 * are reserved at once, their runs inserted in one statement and their messages,
 * deliveries and wait jobs in a few (ChainSteps.writeStepsMany), and one commit and one
 * flush to disk serve them all. Each start is still decided as startIn decides it alone,
 * and the firing key's unique constraint is still the gate (a run not inserted is a
 * duplicate, and writes nothing); a start whose first step waits, or whose chain changed
 * meanwhile, is started by startIn. A batch that fails is retried start by start.
 */
export class EventStarts {
  private readonly committer: GroupCommitter<RunStart, StartOutcome | 'stale'>;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly steps: ChainSteps;
      readonly now: () => number;
      readonly runRow: (start: RunStart, id: number, version: number, now: number) => repo.RunRow;
      readonly startIn: StartInBatch;
    },
  ) {
    this.committer = new GroupCommitter((starts) => this.commit(starts), {
      maxBatch: EVENT_STARTS_MAX_BATCH,
      durable: () => deps.db.durable(),
    });
  }

  /** Starts the run; resolves once it is committed and on disk. 'stale': the chain changed version meanwhile. */
  submit(start: RunStart): Promise<StartOutcome | 'stale'> {
    return this.committer.submit(start);
  }

  private async commit(starts: readonly RunStart[]): Promise<Array<StartOutcome | 'stale'>> {
    const { db, steps } = this.deps;
    const heads = await chainsOf(db.db, starts);
    const runs: Array<repo.RunRow | undefined> = [];
    for (const start of starts) {
      const chain = heads.get(chainKey(start));
      const first = chain?.status === 'active' ? (await steps.stepsOf(start.shopId, start.chainId, chain.version))?.[0] : undefined;
      runs.push(chain && first && !('wait' in first) ? this.deps.runRow(start, 0, chain.version, this.deps.now()) : undefined);
    }
    const lookups = await steps.lookupsFor(runs.filter((r) => r !== undefined));
    const decided: Array<FirstSteps | undefined> = [];
    for (const run of runs) decided.push(run && { version: run.version, decision: await steps.decide(run, lookups) });

    return db.db.transaction().execute(async (trx) => {
      const current = await chainsOf(trx, starts);
      const ids = await reserveRunIds(trx, starts);
      const now = this.deps.now();
      const outcomes: Array<StartOutcome | 'stale' | undefined> = [];
      const batch: InBatch[] = [];
      for (const [index, start] of starts.entries()) {
        const id = ids.next(start.shopId);
        const chain = current.get(chainKey(start));
        const first = decided[index];
        if (first && chain?.status === 'active' && first.version === chain.version) {
          batch.push({ index, start, chain, run: this.deps.runRow(start, id, chain.version, now), decision: first.decision });
          outcomes.push(undefined);
        } else {
          // A first step that waits, or a chain that changed meanwhile: started alone.
          outcomes.push(await this.deps.startIn(trx, start, first, chain, id));
        }
      }
      const inserted = await repo.insertRuns(
        trx,
        batch.map(({ run, decision }) => ({ ...run, ...decision.values, due_at: decision.values.due_at ?? now })),
      );
      const started: InBatch[] = [];
      for (const one of batch) {
        const { index, start, chain, run } = one;
        if (!inserted.has(`${run.shop_id}/${Number(run.id)}`)) outcomes[index] = 'duplicate';
        else if (!(await enterUnderRule(trx, chain, start, Number(run.id)))) outcomes[index] = 'refused_reentry';
        else {
          outcomes[index] = 'started';
          started.push(one);
        }
      }
      await steps.writeStepsMany(trx, started);
      return outcomes as Array<StartOutcome | 'stale'>;
    });
  }
}

/** A start of the batch whose first steps were decided on the chain version it starts on. */
interface InBatch {
  readonly index: number;
  readonly start: RunStart;
  readonly chain: repo.ChainRow;
  readonly run: repo.RunRow;
  readonly decision: StepsDecision;
}

/**
 * Records the profile's entry into the chain under its re-entry rule, in `trx`, for the
 * run just inserted; a refused entry takes the run back, so that it records none.
 */
export async function enterUnderRule(trx: Executor, chain: repo.ChainRow, start: RunStart, runId: number): Promise<boolean> {
  if (chain.reentry === 'always') return true;
  const since = chain.reentry === 'once' || chain.reentry_period_ms === null ? null : start.at - Number(chain.reentry_period_ms);
  const entry = { shop_id: start.shopId, chain_id: start.chainId, profile_id: start.profileId, entered_at: start.at, run_id: runId };
  if (await repo.enterChain(trx, entry, since)) return true;
  await repo.deleteRun(trx, start.shopId, runId);
  return false;
}

function chainKey(start: Pick<RunStart, 'shopId' | 'chainId'>): string {
  return `${start.shopId}/${start.chainId}`;
}

async function chainsOf(db: Executor, starts: readonly RunStart[]): Promise<Map<string, repo.ChainRow>> {
  const out = new Map<string, repo.ChainRow>();
  for (const [shopId, chainIds] of perShop(starts, (s) => s.chainId)) {
    for (const row of await repo.findChains(db, shopId, [...new Set(chainIds)]))
      out.set(chainKey({ shopId, chainId: Number(row.id) }), row);
  }
  return out;
}

/** One id per start from each shop's sequence, reserved in one statement per shop (a refused start leaves a gap). */
async function reserveRunIds(trx: Executor, starts: readonly RunStart[]): Promise<{ next(shopId: string): number }> {
  const next = new Map<string, number>();
  for (const [shopId, all] of perShop(starts, () => 1)) {
    const last = await nextMessagingId(trx, shopId, 'chain_runs', all.length);
    next.set(shopId, last - all.length + 1);
  }
  return {
    next(shopId) {
      const id = next.get(shopId) as number;
      next.set(shopId, id + 1);
      return id;
    },
  };
}

function perShop<T>(starts: readonly RunStart[], pick: (start: RunStart) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const start of starts) {
    const list = out.get(start.shopId) ?? [];
    list.push(pick(start));
    out.set(start.shopId, list);
  }
  return out;
}
