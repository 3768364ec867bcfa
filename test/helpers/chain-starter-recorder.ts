import type { ActiveChain, ChainStarter, Executor, RunStart, StartOutcome, TriggerKind } from '../../src/modules/chains/chain-starter.js';

export interface EndedRuns {
  readonly shopId: string;
  readonly profileId: number;
  readonly kind: TriggerKind;
  readonly at: number;
  readonly ended: number;
}

/**
 * An in-memory ChainStarter for the trigger detectors' tests: the chains a test sets are
 * the active ones; a run starts once per chain and key (a repeated key is a duplicate),
 * and only for an active chain; endRuns ends the profile's waiting runs of chains of that
 * kind. It records every call, so a test sees both what started and what was asked twice.
 * It stands for the engine's state, which lives in the database: a test that restarts the
 * detectors keeps the same recorder.
 */
export class ChainStarterRecorder implements ChainStarter {
  /** Every startRun call, with its outcome, in order. */
  readonly calls: { readonly start: RunStart; readonly outcome: StartOutcome }[] = [];
  readonly ends: EndedRuns[] = [];
  private readonly chains = new Map<string, ActiveChain[]>();
  private readonly waiting = new Map<string, RunStart & { kind: TriggerKind }>();
  private readonly keys = new Set<string>();
  activeChainsAsked = 0;

  /** Sets the shop's active chains (replacing what was set). */
  setChains(shopId: string, chains: readonly ActiveChain[]): void {
    this.chains.set(shopId, [...chains]);
  }

  /** Runs that started, in order. */
  get started(): RunStart[] {
    return this.calls.filter((call) => call.outcome === 'started').map((call) => call.start);
  }

  /** Runs still waiting (started and not ended). */
  get waitingRuns(): RunStart[] {
    return [...this.waiting.values()];
  }

  activeChains(shopId: string, kind: TriggerKind): Promise<readonly ActiveChain[]> {
    this.activeChainsAsked += 1;
    return Promise.resolve((this.chains.get(shopId) ?? []).filter((chain) => chain.trigger.kind === kind));
  }

  startRun(_executor: Executor, start: RunStart): Promise<StartOutcome> {
    const chain = (this.chains.get(start.shopId) ?? []).find((c) => c.chainId === start.chainId);
    const runKey = JSON.stringify([start.shopId, start.chainId, start.key]);
    let outcome: StartOutcome;
    if (!chain) outcome = 'chain_inactive';
    else if (this.keys.has(runKey)) outcome = 'duplicate';
    else {
      outcome = 'started';
      this.keys.add(runKey);
      this.waiting.set(runKey, { ...start, kind: chain.trigger.kind });
    }
    this.calls.push({ start, outcome });
    return Promise.resolve(outcome);
  }

  endRuns(_executor: Executor, shopId: string, profileId: number, kind: TriggerKind, at: number): Promise<number> {
    let ended = 0;
    for (const [key, run] of this.waiting) {
      if (run.shopId === shopId && run.profileId === profileId && run.kind === kind) {
        this.waiting.delete(key);
        ended += 1;
      }
    }
    this.ends.push({ shopId, profileId, kind, at, ended });
    return Promise.resolve(ended);
  }
}
