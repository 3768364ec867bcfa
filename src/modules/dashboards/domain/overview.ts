import { datesBetween } from './days.js';
import { SERIES, type Series } from './series.js';

/**
 * The overview of a period from its counter rows (pure): every day of the period in
 * order, a missing day or series as zeros, and the totals. Amounts in minor units.
 */

export interface ChannelCounts {
  sent: number;
  opened: number;
  clicked: number;
}

export interface DayFigures {
  readonly date: string;
  readonly events: Record<string, number>;
  readonly eventsTotal: number;
  readonly activeCustomers: number;
  readonly orders: number;
  readonly revenue: number;
  readonly newMembers: number;
  readonly bonusesIssued: number;
  readonly bonusesSpent: number;
  readonly messages: Record<string, ChannelCounts>;
  readonly attributedPurchases: number;
  readonly attributedRevenue: number;
}

export interface Overview {
  readonly days: DayFigures[];
  /** Sums over the days; activeCustomers sums the days' counts (a customer active on two days counts twice). */
  readonly totals: Omit<DayFigures, 'date'>;
}

export interface CounterRow {
  readonly day: string;
  readonly series: string;
  readonly key: string;
  readonly value: number;
}

interface Mutable {
  events: Record<string, number>;
  eventsTotal: number;
  activeCustomers: number;
  orders: number;
  revenue: number;
  newMembers: number;
  bonusesIssued: number;
  bonusesSpent: number;
  messages: Record<string, ChannelCounts>;
  attributedPurchases: number;
  attributedRevenue: number;
}

function empty(): Mutable {
  return {
    events: {},
    eventsTotal: 0,
    activeCustomers: 0,
    orders: 0,
    revenue: 0,
    newMembers: 0,
    bonusesIssued: 0,
    bonusesSpent: 0,
    messages: {},
    attributedPurchases: 0,
    attributedRevenue: 0,
  };
}

const SCALAR: Partial<Record<Series, keyof Mutable>> = {
  [SERIES.active]: 'activeCustomers',
  [SERIES.orders]: 'orders',
  [SERIES.revenue]: 'revenue',
  [SERIES.members]: 'newMembers',
  [SERIES.bonusesIssued]: 'bonusesIssued',
  [SERIES.bonusesSpent]: 'bonusesSpent',
  [SERIES.attributedPurchases]: 'attributedPurchases',
  [SERIES.attributedRevenue]: 'attributedRevenue',
};

const MESSAGE: Partial<Record<Series, keyof ChannelCounts>> = {
  [SERIES.sent]: 'sent',
  [SERIES.opened]: 'opened',
  [SERIES.clicked]: 'clicked',
};

function add(target: Mutable, row: CounterRow): void {
  const series = row.series as Series;
  if (series === SERIES.events) {
    target.events[row.key] = (target.events[row.key] ?? 0) + row.value;
    target.eventsTotal += row.value;
    return;
  }
  const message = MESSAGE[series];
  if (message !== undefined) {
    const channel = (target.messages[row.key] ??= { sent: 0, opened: 0, clicked: 0 });
    channel[message] += row.value;
    return;
  }
  const scalar = SCALAR[series];
  if (scalar !== undefined) (target[scalar] as number) += row.value;
}

export function overviewOf(from: string, to: string, rows: readonly CounterRow[]): Overview {
  const byDay = new Map<string, Mutable>();
  for (const date of datesBetween(from, to)) byDay.set(date, empty());
  const totals = empty();
  for (const row of rows) {
    const day = byDay.get(row.day);
    if (!day) continue;
    add(day, row);
    add(totals, row);
  }
  return { days: [...byDay].map(([date, figures]) => ({ date, ...figures })), totals };
}

/** The share of `part` in `whole`, 4 decimals; 0 of nothing. */
export function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}
