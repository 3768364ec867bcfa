import type { paths } from '../api/schema';
import { everyDay } from './period';

/**
 * The overview's answer (GET …/dashboard, docs/dashboards.md) cut into the series each chart
 * draws. Pure: the charts' options (options.ts), their summaries and their tables are built
 * from these, and tested without a browser.
 */

type Json<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } }
  ? T
  : never;

export type Overview = Json<'/admin/v1/shops/{shop_id}/dashboard'>;
export type Day = Overview['days'][number];
export type Totals = Overview['totals'];

/** A number of things, or an amount in the shop's currency (units, as the API gives it). */
export type Kind = 'count' | 'money';

export interface Series {
  readonly key: string;
  readonly label: string;
  readonly kind: Kind;
  /** One value per day of the chart, in order. */
  readonly values: readonly number[];
  readonly type: 'bar' | 'line';
  /** Stacked with the other stacked series of its chart. */
  readonly stacked?: boolean;
  /** 1: on the second (right) value axis, for a chart of counts and amounts at once. */
  readonly axis?: 0 | 1;
  /** Its sum means something (orders); active customers per day do not add up to customers. */
  readonly additive: boolean;
  /** A colour of its own where the meaning calls for one (detractors red); else the palette's next. */
  readonly color?: string;
}

export interface DayChart {
  readonly days: readonly string[];
  readonly series: readonly Series[];
}

const zeroDay = (date: string): Day => ({
  date,
  events: {},
  events_total: 0,
  active_customers: 0,
  orders: 0,
  revenue: 0,
  new_members: 0,
  bonuses_issued: 0,
  bonuses_spent: 0,
  messages: {},
  attributed_purchases: 0,
  attributed_revenue: 0,
});

/**
 * Every day of the answer's period in order, a day the answer lacks as zeros. The API
 * already answers every day; the charts do not depend on it (a gap would shift the axis).
 */
export function zeroFilled(overview: Pick<Overview, 'from' | 'to' | 'days'>): Day[] {
  const byDate = new Map(overview.days.map((day) => [day.date, day]));
  return everyDay(overview).map((date) => byDate.get(date) ?? zeroDay(date));
}

const dates = (days: readonly Day[]) => days.map((d) => d.date);

/** The day with the most customers active (the first of equals); undefined when no one was. */
export function busiestDay(days: readonly Day[]): { readonly date: string; readonly active: number } | undefined {
  let best: Day | undefined;
  for (const day of days) if (day.active_customers > (best?.active_customers ?? 0)) best = day;
  return best && { date: best.date, active: best.active_customers };
}

/** True when no series of the chart has anything: the chart shows its empty state instead of blank axes. */
export function isEmpty(chart: DayChart): boolean {
  return chart.series.every((s) => s.values.every((v) => v === 0));
}

/** How many event types the stacked events chart names; the rest are summed as one "other" band. */
export const EVENT_TYPES_SHOWN = 8;
export const OTHER_EVENTS = '\u0000other';

/** Events per day by type, stacked: the busiest types over the period first, the rest as "other". */
export function eventsChart(
  days: readonly Day[],
  label: (type: string) => string,
  otherLabel: string,
  shown: number = EVENT_TYPES_SHOWN,
): DayChart {
  const totals = new Map<string, number>();
  for (const day of days) for (const [type, n] of Object.entries(day.events)) totals.set(type, (totals.get(type) ?? 0) + n);
  const ranked = [...totals.entries()].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = ranked.slice(0, ranked.length > shown ? shown - 1 : shown).map(([type]) => type);
  const rest = ranked.slice(named.length).map(([type]) => type);
  const series: Series[] = named.map((type) => ({
    key: type,
    label: label(type),
    kind: 'count',
    type: 'bar',
    stacked: true,
    additive: true,
    values: days.map((d) => d.events[type] ?? 0),
  }));
  if (rest.length > 0) {
    series.push({
      key: OTHER_EVENTS,
      label: otherLabel,
      kind: 'count',
      type: 'bar',
      stacked: true,
      additive: true,
      values: days.map((d) => rest.reduce((sum, type) => sum + (d.events[type] ?? 0), 0)),
    });
  }
  return { days: dates(days), series };
}

export function activeChart(days: readonly Day[], names: { readonly active: string }): DayChart {
  return {
    days: dates(days),
    series: [
      { key: 'active', label: names.active, kind: 'count', type: 'line', additive: false, values: days.map((d) => d.active_customers) },
    ],
  };
}

/** Orders as bars on the left axis, their revenue as a line on the right one, in the shop's currency. */
export function ordersChart(days: readonly Day[], names: { readonly orders: string; readonly revenue: string }): DayChart {
  return {
    days: dates(days),
    series: [
      { key: 'orders', label: names.orders, kind: 'count', type: 'bar', additive: true, values: days.map((d) => d.orders) },
      { key: 'revenue', label: names.revenue, kind: 'money', type: 'line', axis: 1, additive: true, values: days.map((d) => d.revenue) },
    ],
  };
}

export function membersChart(days: readonly Day[], names: { readonly members: string }): DayChart {
  return {
    days: dates(days),
    series: [{ key: 'members', label: names.members, kind: 'count', type: 'bar', additive: true, values: days.map((d) => d.new_members) }],
  };
}

export function bonusesChart(days: readonly Day[], names: { readonly issued: string; readonly spent: string }): DayChart {
  return {
    days: dates(days),
    series: [
      { key: 'issued', label: names.issued, kind: 'money', type: 'bar', additive: true, values: days.map((d) => d.bonuses_issued) },
      { key: 'spent', label: names.spent, kind: 'money', type: 'bar', additive: true, values: days.map((d) => d.bonuses_spent) },
    ],
  };
}

/** The channels that sent anything over the period, busiest first (then by name). */
export function channelsOf(days: readonly Day[]): string[] {
  const sent = new Map<string, number>();
  for (const day of days) for (const [channel, m] of Object.entries(day.messages)) sent.set(channel, (sent.get(channel) ?? 0) + m.sent);
  return [...sent.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([channel]) => channel);
}

/** Messages sent per day, stacked by channel. */
export function messagesChart(days: readonly Day[], channelLabel: (channel: string) => string): DayChart {
  return {
    days: dates(days),
    series: channelsOf(days).map((channel) => ({
      key: channel,
      label: channelLabel(channel),
      kind: 'count' as const,
      type: 'bar' as const,
      stacked: true,
      additive: true,
      values: days.map((d) => d.messages[channel]?.sent ?? 0),
    })),
  };
}

export interface ChannelRow {
  readonly channel: string;
  readonly sent: number;
  readonly opened: number;
  readonly clicked: number;
  /** Of sent, 0 to 1; null when nothing was sent (a rate of nothing is not 0 %). */
  readonly openRate: number | null;
  readonly clickRate: number | null;
}

/** Each channel's period: sent, opened, clicked and the open and click rates, busiest first. */
export function channelRows(totals: Totals): ChannelRow[] {
  return Object.entries(totals.messages)
    .map(([channel, m]) => ({
      channel,
      sent: m.sent,
      opened: m.opened,
      clicked: m.clicked,
      openRate: m.sent === 0 ? null : m.open_rate,
      clickRate: m.sent === 0 ? null : m.click_rate,
    }))
    .sort((a, b) => b.sent - a.sent || (a.channel < b.channel ? -1 : 1));
}

/** Every channel together: the headline's messages, and its open and click rates of sent. */
export function allChannels(rows: readonly ChannelRow[]): Omit<ChannelRow, 'channel'> {
  const sent = rows.reduce((n, r) => n + r.sent, 0);
  const opened = rows.reduce((n, r) => n + r.opened, 0);
  const clicked = rows.reduce((n, r) => n + r.clicked, 0);
  return { sent, opened, clicked, openRate: sent === 0 ? null : opened / sent, clickRate: sent === 0 ? null : clicked / sent };
}

/** Purchases attributed to messages (a line, left axis) and their revenue (bars, right axis). */
export function attributedChart(days: readonly Day[], names: { readonly revenue: string; readonly purchases: string }): DayChart {
  return {
    days: dates(days),
    series: [
      {
        key: 'attributed_revenue',
        label: names.revenue,
        kind: 'money',
        type: 'bar',
        additive: true,
        values: days.map((d) => d.attributed_revenue),
      },
      {
        key: 'attributed_purchases',
        label: names.purchases,
        kind: 'count',
        type: 'line',
        axis: 1,
        additive: true,
        values: days.map((d) => d.attributed_purchases),
      },
    ],
  };
}
