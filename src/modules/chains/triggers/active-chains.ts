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
 * event, and a chain activated meanwhile is heard of at most `ttlMs` late. An answer it
 * lacks, it asks for in the background.
 */
export class ActiveChainsView {
  private readonly known: TtlCache<string, readonly ActiveChain[]>;
  private readonly asking = new Set<string>();

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

  /** Forgets every answer (an admin changed settings, maybe in another process): the next question asks again. */
  clear(): void {
    this.known.clear();
  }

  /** Synchronous; an answer not known (or stale) is asked for in the background, and counts as yes meanwhile. */
  mayHave(shopId: string, kinds: readonly TriggerKind[]): boolean {
    let may = false;
    for (const kind of kinds) {
      const chains = this.known.get(`${kind}/${shopId}`);
      if (chains === undefined) this.refresh(shopId, kind);
      if ((chains?.length ?? 1) > 0) may = true;
    }
    return may;
  }

  private refresh(shopId: string, kind: TriggerKind): void {
    const key = `${kind}/${shopId}`;
    if (this.asking.has(key)) return;
    this.asking.add(key);
    // A failed read is only a missed shortcut: the next caller asks again.
    void this.of(shopId, kind)
      .catch(() => undefined)
      .finally(() => this.asking.delete(key));
  }
}
