import type { Clock } from '../../../clock.js';
import { TtlCache } from '../../../ttl-cache.js';
import type { ActiveChain, ChainStarter, TriggerKind } from '../chain-starter.js';

/** Shops × kinds remembered (a few hundred bytes each). */
const MAX_ENTRIES = 50_000;

/**
 * The detectors' view of which chains are active. `of` asks the engine (its own answer is
 * cached briefly) and remembers the answer; `mayHave` reads what was remembered,
 * synchronously, for the places that must decide without waiting: a tracking subscriber's
 * `accepts` and a transaction's hook. It says no only when a fresh answer (younger than
 * `ttlMs`) found no chain of those kinds, so a shop without such chains costs no job per
 * event, and a chain activated meanwhile is heard of at most `ttlMs` late.
 */
export class ActiveChainsView {
  private readonly known: TtlCache<string, readonly ActiveChain[]>;

  constructor(
    private readonly starter: Pick<ChainStarter, 'activeChains'>,
    clock: Clock,
    ttlMs: number,
  ) {
    this.known = new TtlCache({ max: MAX_ENTRIES, ttlMs, clock });
  }

  async of(shopId: string, kind: TriggerKind): Promise<readonly ActiveChain[]> {
    const chains = await this.starter.activeChains(shopId, kind);
    this.known.set(`${kind}/${shopId}`, chains);
    return chains;
  }

  mayHave(shopId: string, kinds: readonly TriggerKind[]): boolean {
    return kinds.some((kind) => (this.known.get(`${kind}/${shopId}`)?.length ?? 1) > 0);
  }
}
