import type { Clock } from '../../clock.js';
import { TtlCache } from '../../ttl-cache.js';

/**
 * Which custom event codes a shop rewards, as this process last read them: the tracking
 * subscriber's `accepts` runs synchronously inside the event batch, so it cannot query
 * (docs/loyalty.md, "Event rewards").
 *
 * The answer errs on the side of delivering: a shop whose codes are unknown (first sight,
 * or read more than two `refreshMs` ago) is answered "maybe" while its codes load, and the
 * handler, which reads the rule itself, decides. Codes read more than `refreshMs` ago
 * still answer while they are read again, so a busy shop is never answered "maybe" in
 * bursts. Only a known "no" skips an event. A rule written in this process invalidates the
 * shop at once; another process answers from codes at most two `refreshMs` old.
 */
export class RewardCodesCache {
  private readonly codes: TtlCache<string, { readonly codes: ReadonlySet<string>; readonly readAt: number }>;
  /** The load under way per shop; an invalidation drops it, so a stale load is not stored. */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    private readonly load: (shopId: string) => Promise<readonly string[]>,
    private readonly options: { readonly clock: Clock; readonly refreshMs: number; readonly maxShops: number },
  ) {
    this.codes = new TtlCache({ max: options.maxShops, ttlMs: 2 * options.refreshMs, clock: options.clock });
  }

  /** False only when the shop's codes are known and do not include `code`. */
  mayReward(shopId: string, code: string): boolean {
    const entry = this.codes.get(shopId);
    if (!entry) {
      this.startLoad(shopId);
      return true;
    }
    if (this.options.clock.now() - entry.readAt >= this.options.refreshMs) this.startLoad(shopId);
    return entry.codes.has(code);
  }

  /** Forgets the shop's codes (a rule was written): the next event reloads them. */
  invalidate(shopId: string): void {
    this.codes.delete(shopId);
    this.loading.delete(shopId);
  }

  /** Forgets every shop's codes (an admin changed settings, maybe in another process). */
  clear(): void {
    this.codes.clear();
    this.loading.clear();
  }

  /** Settles when the loads under way have (for tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.loading.values()]);
  }

  private startLoad(shopId: string): void {
    if (this.loading.has(shopId)) return;
    const readAt = this.options.clock.now();
    const load: Promise<void> = this.load(shopId)
      .then(
        (codes) => {
          if (this.loading.get(shopId) === load) this.codes.set(shopId, { codes: new Set(codes), readAt });
        },
        // Unknown stays "maybe" (or the codes read before keep answering): the next event tries again.
        () => undefined,
      )
      .finally(() => {
        if (this.loading.get(shopId) === load) this.loading.delete(shopId);
      });
    this.loading.set(shopId, load);
  }
}
