import type { DbHandle } from '../../db/create-db.js';
import { GroupCommitter } from '../../db/group-commit.js';
import { nextId } from '../messaging/messaging.repo.js';
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
 * are reserved at once, and one commit and one flush to disk serve them all. Each start
 * is still decided and inserted as startIn does alone (the firing key's unique constraint
 * is the gate); a batch that fails is retried start by start.
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
      const outcomes: Array<StartOutcome | 'stale'> = [];
      for (const [index, start] of starts.entries()) {
        outcomes.push(await this.deps.startIn(trx, start, decided[index], current.get(chainKey(start)), ids.next(start.shopId)));
      }
      return outcomes;
    });
  }
}

function chainKey(start: Pick<RunStart, 'shopId' | 'chainId'>): string {
  return `${start.shopId}/${start.chainId}`;
}

async function chainsOf(db: Executor, starts: readonly RunStart[]): Promise<Map<string, repo.ChainRow>> {
  const out = new Map<string, repo.ChainRow>();
  for (const [shopId, chainIds] of perShop(starts, (s) => s.chainId)) {
    for (const row of await repo.findChains(db, shopId, [...new Set(chainIds)])) out.set(chainKey({ shopId, chainId: Number(row.id) }), row);
  }
  return out;
}

/** One id per start from each shop's sequence, reserved in one statement per shop (a refused start leaves a gap). */
async function reserveRunIds(trx: Executor, starts: readonly RunStart[]): Promise<{ next(shopId: string): number }> {
  const next = new Map<string, number>();
  for (const [shopId, all] of perShop(starts, () => 1)) {
    const last = await nextId(trx, shopId, 'chain_runs', all.length);
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
