import type { Clock } from '../../clock.js';
import { TtlCache } from '../../ttl-cache.js';

/**
 * Which custom event codes a shop rewards, as this process last read them: the tracking
 * subscriber's `accepts` runs synchronously inside the event batch, so it cannot query
 * (docs/loyalty.md, "Event rewards").
 *
 * The answer errs on the side of delivering: a shop whose codes are not known yet (first
 * sight, or its entry expired) is answered "maybe" while its codes load in the
 * background, and the handler, which reads the rule itself, decides. Only a known "no"
 * skips an event. A rule changed in this process invalidates the shop at once; in
 * another process, the change is seen within `ttlMs`.
 */
export class RewardCodesCache {
  private readonly codes: TtlCache<string, ReadonlySet<string>>;
  /** The load under way per shop; an invalidation drops it, so a stale load is not stored. */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    private readonly load: (shopId: string) => Promise<readonly string[]>,
    options: { readonly clock: Clock; readonly ttlMs: number; readonly maxShops: number },
  ) {
    this.codes = new TtlCache({ max: options.maxShops, ttlMs: options.ttlMs, clock: options.clock });
  }

  /** False only when the shop's codes are known and do not include `code`. */
  mayReward(shopId: string, code: string): boolean {
    const codes = this.codes.get(shopId);
    if (codes) return codes.has(code);
    this.startLoad(shopId);
    return true;
  }

  /** Forgets the shop's codes (a rule was written): the next event reloads them. */
  invalidate(shopId: string): void {
    this.codes.delete(shopId);
    this.loading.delete(shopId);
  }

  /** Settles when the loads under way have (for tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.loading.values()]);
  }

  private startLoad(shopId: string): void {
    if (this.loading.has(shopId)) return;
    const load: Promise<void> = this.load(shopId).then(
      (codes) => {
        if (this.loading.get(shopId) === load) this.codes.set(shopId, new Set(codes));
      },
      // Unknown stays "maybe": the next event after this one tries again.
      () => undefined,
    ).finally(() => {
      if (this.loading.get(shopId) === load) this.loading.delete(shopId);
    });
    this.loading.set(shopId, load);
  }
}
