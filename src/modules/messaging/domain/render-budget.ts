/**
 * Each shop's render time in one thread (docs/messaging-templates.md, "Rendering limits"): a balance
 * of milliseconds that refills at `msPerSecond` and holds at most a second's worth. A
 * render may start while the shop's balance is above zero, and what it took is charged
 * when it ends, which may leave the balance below zero: the shop then waits until it is
 * repaid. So however many messages a shop sends at once, its templates take at most
 * `msPerSecond` of render time a second (after a first second's worth, plus the renders
 * already running), and a template that is cut off at the limit every time costs that
 * budget, not the limit times the number of messages.
 *
 * A render refused is told when to come back, and the refusals of one shop are spread: each
 * gets the next slot after the one before, a slot being what the shop's last render took,
 * repaid. So a thousand deliveries refused at once come back one slot apart, as the
 * balance can take them, rather than all at the first instant and all but one refused again.
 * Pure: the caller passes the time.
 */
export class RenderBudget {
  private readonly shops = new Map<string, ShopBalance>();

  constructor(private readonly msPerSecond: number) {}

  /** 0 when the shop may start a render at `now`; else the milliseconds until it should try again. */
  admit(shopId: string, now: number): number {
    const shop = this.refilled(shopId, now);
    if (!shop || shop.ms > 0) return 0;
    const repaid = now + ((-shop.ms + 1) / this.msPerSecond) * 1000;
    const at = Math.max(repaid, shop.nextSlot);
    shop.nextSlot = at + (Math.max(shop.lastMs, 1) / this.msPerSecond) * 1000;
    return Math.max(1, Math.ceil(at - now));
  }

  /** Charges `ms` of render time to the shop. */
  charge(shopId: string, ms: number, now: number): void {
    const shop = this.refilled(shopId, now);
    if (shop) {
      shop.ms -= ms;
      shop.lastMs = ms;
    } else {
      this.shops.set(shopId, { ms: this.msPerSecond - ms, at: now, lastMs: ms, nextSlot: now });
    }
  }

  /** The shop's entry with its balance refilled to `now`; undefined for a shop that has not rendered yet (its balance is full). */
  private refilled(shopId: string, now: number): ShopBalance | undefined {
    const shop = this.shops.get(shopId);
    if (!shop) return undefined;
    shop.ms = Math.min(this.msPerSecond, shop.ms + (Math.max(0, now - shop.at) / 1000) * this.msPerSecond);
    shop.at = Math.max(shop.at, now);
    return shop;
  }
}

interface ShopBalance {
  /** Milliseconds of render time left: at most msPerSecond, below zero while the shop repays. */
  ms: number;
  /** When `ms` was last brought up to date. */
  at: number;
  /** What the shop's last render took: the size of a slot. */
  lastMs: number;
  /** The earliest time the next refused render is told to come back. */
  nextSlot: number;
}
