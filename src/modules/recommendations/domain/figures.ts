/**
 * A recommendation block's figures (docs/recommendations.md "Figures"), counted from a
 * batch of stored events. Pure: the caller reads the blocks and the earlier touches,
 * gives the day of a moment, and stores what this answers.
 */

/** A purchase counts for the block that led the customer to an item within this window. */
export const ATTRIBUTION_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export const FIGURES = ['impressions', 'clicks', 'views', 'carts', 'orders', 'revenue'] as const;
export type Figure = (typeof FIGURES)[number];
export type Figures = Record<Figure, number>;

export function zeroFigures(): Figures {
  return { impressions: 0, clicks: 0, views: 0, carts: 0, orders: 0, revenue: 0 };
}

/** What the counting reads of a stored event. */
export interface FigureEvent {
  readonly profileId: number;
  readonly event: string;
  readonly custom: boolean;
  readonly time: number;
  readonly items: ReadonlyArray<{ readonly id: string; readonly amount: number; readonly price?: number }>;
  readonly params: Readonly<Record<string, unknown>>;
  /** A purchase that created an order (a repeated order_id creates none and counts nothing). */
  readonly createsOrder: boolean;
}

export interface Touch {
  readonly profileId: number;
  readonly itemId: string;
  readonly code: string;
  readonly at: number;
}

export interface FigureSources {
  /** The block a recone event's `campaign` names: its code first, else its id; undefined for no block. */
  blockOfCampaign(campaign: string): string | undefined;
  /** Whether `code` is one of the shop's blocks. */
  isBlock(code: string): boolean;
  /** The last touch stored before this batch. */
  storedTouch(profileId: number, itemId: string): Touch | undefined;
  /** The shop's calendar day of a moment. */
  dayOf(time: number): string;
  /** Minor units of an amount of currency; undefined when it cannot be counted exactly. */
  minorUnits(amount: number): number | undefined;
}

export interface BatchFigures {
  /** Keyed by JSON [code, day]. */
  readonly days: ReadonlyMap<string, { readonly code: string; readonly day: string; readonly figures: Figures }>;
  /** The newest touch of each (profile, item) the batch made. */
  readonly touches: readonly Touch[];
}

/** The campaign and block code of a recone event: recommended_by, when given, must be `dynamic` (a block). */
export function reconeCampaign(e: Pick<FigureEvent, 'event' | 'custom' | 'params'>): string | undefined {
  if (e.custom || (e.event !== 'recone_view' && e.event !== 'recone_click')) return undefined;
  const by = e.params.recommended_by;
  if (by !== undefined && by !== null && by !== 'dynamic') return undefined;
  return typeof e.params.campaign === 'string' ? e.params.campaign : undefined;
}

/** The block code a view, cart or purchase carries: recommended_by=dynamic and a recommended_code. */
export function attributedCode(e: Pick<FigureEvent, 'custom' | 'params'>): string | undefined {
  if (e.custom || e.params.recommended_by !== 'dynamic') return undefined;
  const code = e.params.recommended_code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/**
 * The batch's figures, in the order of its events (a view earlier in the batch leads to a
 * purchase later in it):
 * - recone_view / recone_click naming a block: an impression / a click;
 * - a view / cart carrying a block's code: a view / a cart, and each of its items touched;
 *   a cart that restates the whole cart (full_cart) adds nothing and counts no cart;
 * - a purchase that created an order: carrying a block's code, every item is the block's;
 *   otherwise each item touched within the window is its toucher's. Each block with an
 *   item gets one order and the items' Σ price × amount (minor units) as revenue.
 */
export function countBatch(events: readonly FigureEvent[], sources: FigureSources): BatchFigures {
  const days = new Map<string, { code: string; day: string; figures: Figures }>();
  const touches = new Map<string, Touch>();
  const add = (code: string, time: number, figure: Figure, value: number) => {
    const day = sources.dayOf(time);
    const key = JSON.stringify([code, day]);
    let entry = days.get(key);
    if (!entry) {
      entry = { code, day, figures: zeroFigures() };
      days.set(key, entry);
    }
    entry.figures[figure] += value;
  };
  const touchOf = (profileId: number, itemId: string) =>
    touches.get(JSON.stringify([profileId, itemId])) ?? sources.storedTouch(profileId, itemId);

  for (const e of events) {
    const campaign = reconeCampaign(e);
    if (campaign !== undefined) {
      const code = sources.blockOfCampaign(campaign);
      if (code !== undefined) add(code, e.time, e.event === 'recone_view' ? 'impressions' : 'clicks', 1);
      continue;
    }
    if (e.custom) continue;
    const carried = attributedCode(e);
    const code = carried !== undefined && sources.isBlock(carried) ? carried : undefined;
    if ((e.event === 'view' || e.event === 'cart') && code !== undefined) {
      if (e.event === 'cart' && e.params.full_cart === true) continue;
      add(code, e.time, e.event === 'view' ? 'views' : 'carts', 1);
      for (const item of e.items) {
        touches.set(JSON.stringify([e.profileId, item.id]), { profileId: e.profileId, itemId: item.id, code, at: e.time });
      }
    } else if (e.event === 'purchase' && e.createsOrder) {
      const revenue = new Map<string, number>();
      for (const item of e.items) {
        const touch = code === undefined ? touchOf(e.profileId, item.id) : undefined;
        const owner = code ?? (touch && e.time - touch.at <= ATTRIBUTION_WINDOW_MS ? touch.code : undefined);
        if (owner === undefined) continue;
        const price = item.price === undefined ? 0 : (sources.minorUnits(item.price) ?? 0);
        revenue.set(owner, (revenue.get(owner) ?? 0) + price * item.amount);
      }
      for (const [owner, value] of revenue) {
        add(owner, e.time, 'orders', 1);
        add(owner, e.time, 'revenue', value);
      }
    }
  }
  return { days, touches: [...touches.values()] };
}

/** Every day from the rows, summed; days with nothing are zeros (the caller lists the period's days). */
export function figuresByDay(
  dates: readonly string[],
  rows: ReadonlyArray<{ readonly day: string } & Figures>,
): { days: Array<{ date: string } & Figures>; totals: Figures } {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const totals = zeroFigures();
  const days = dates.map((date) => {
    const row = byDay.get(date);
    const figures = zeroFigures();
    for (const f of FIGURES) {
      figures[f] = row ? row[f] : 0;
      totals[f] += figures[f];
    }
    return { date, ...figures };
  });
  return { days, totals };
}
