import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../i18n/en';
import { interpolate } from '../i18n/language';
import { funnelOption, funnelSteps } from './funnel-steps';
import { dayChartOption, formatsFor, summaryOf } from './options';
import {
  activeChart,
  allChannels,
  busiestDay,
  channelRows,
  eventsChart,
  isEmpty,
  messagesChart,
  ordersChart,
  zeroFilled,
  type Day,
  type Overview,
} from './series';

const t = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => interpolate(en[key], values);
const moscow = { timezone: 'Europe/Moscow', currency: 'RUB' };
const f = formatsFor(moscow, 'en');
/** Intl puts a no-break space between the currency and the number. */
const plain = (text: string | undefined) => text?.replace(/\s/g, ' ');

function day(date: string, figures: Partial<Day> = {}): Day {
  return {
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
    ...figures,
  };
}

describe('the series of the overview', () => {
  it('has every day of the period in order, a day the answer lacks as zeros', () => {
    const days = zeroFilled({
      from: '2026-02-27',
      to: '2026-03-02',
      days: [day('2026-03-01', { orders: 2, revenue: 1234.5 }), day('2026-02-27', { orders: 1, revenue: 10 })],
    });
    expect(days.map((d) => d.date)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    const chart = ordersChart(days, { orders: 'Orders', revenue: 'Revenue' });
    expect(chart.series.map((s) => s.values)).toEqual([
      [1, 0, 2, 0],
      [10, 0, 1234.5, 0],
    ]);
    expect(chart.series[1]).toMatchObject({ kind: 'money', axis: 1 });
  });

  it('stacks the busiest event types and sums the rest as "other"', () => {
    const days = [
      day('2026-03-01', { events: { view: 10, cart: 3, signup: 1, a: 1 } }),
      day('2026-03-02', { events: { view: 5, purchase: 2, b: 1 } }),
    ];
    const chart = eventsChart(days, (type) => type.toUpperCase(), 'Other', 4);
    expect(chart.series.map((s) => [s.label, s.values])).toEqual([
      ['VIEW', [10, 5]],
      ['CART', [3, 0]],
      ['PURCHASE', [0, 2]],
      ['Other', [2, 1]],
    ]);
    expect(chart.series.every((s) => s.stacked)).toBe(true);
    // As many types as there is room for: no "other" band.
    expect(eventsChart(days, String, 'Other', 6).series.map((s) => s.key)).toEqual(['view', 'cart', 'purchase', 'a', 'b', 'signup']);
  });

  it('is empty when nothing happened, so the screen shows words instead of blank axes', () => {
    const days = zeroFilled({ from: '2026-03-01', to: '2026-03-07', days: [] });
    expect(days).toHaveLength(7);
    expect(isEmpty(eventsChart(days, String, 'Other'))).toBe(true);
    expect(isEmpty(activeChart(days, { active: 'Active' }))).toBe(true);
    expect(isEmpty(messagesChart(days, String))).toBe(true);
    expect(isEmpty(ordersChart([day('2026-03-01', { revenue: 5 })], { orders: 'O', revenue: 'R' }))).toBe(false);
  });

  it('gives each channel its rates, and no rate where nothing was sent', () => {
    const rows = channelRows({
      ...day('total'),
      messages: {
        email: { sent: 4, opened: 2, clicked: 1, open_rate: 0.5, click_rate: 0.25 },
        sms: { sent: 0, opened: 0, clicked: 0, open_rate: 0, click_rate: 0 },
        mobile_push: { sent: 6, opened: 3, clicked: 0, open_rate: 0.5, click_rate: 0 },
      },
    });
    expect(rows.map((r) => [r.channel, r.openRate, r.clickRate])).toEqual([
      ['mobile_push', 0.5, 0],
      ['email', 0.5, 0.25],
      ['sms', null, null],
    ]);
    expect(allChannels(rows)).toEqual({ sent: 10, opened: 5, clicked: 1, openRate: 0.5, clickRate: 0.1 });
    expect(f.rate(null)).toBe('—');
    expect(f.rate(0.125)).toBe('12.5%');
  });
});

describe('the chart options and their words', () => {
  const overview: Pick<Overview, 'from' | 'to' | 'days'> = {
    from: '2026-03-01',
    to: '2026-03-03',
    days: [day('2026-03-02', { orders: 1, revenue: 1500 })],
  };
  const chart = ordersChart(zeroFilled(overview), { orders: 'Orders', revenue: 'Revenue' });

  it("labels the shop's days as they are, whatever the reader's zone, with amounts in the shop's currency", () => {
    const option = dayChartOption(chart, f);
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['Mar 1', 'Mar 2', 'Mar 3'] });
    const axes = option.yAxis as { axisLabel: { formatter: (n: number) => string }; minInterval?: number }[];
    expect(axes).toHaveLength(2);
    expect(axes[0]?.minInterval).toBe(1);
    expect(plain(axes[1]?.axisLabel.formatter(1500))).toBe('RUB 1.5K');
    const series = option.series as {
      type: string;
      data: number[];
      yAxisIndex: number;
      tooltip: { valueFormatter: (v: unknown) => string };
    }[];
    expect(series.map((s) => [s.type, s.yAxisIndex, s.data])).toEqual([
      ['bar', 0, [0, 1, 0]],
      ['line', 1, [0, 1500, 0]],
    ]);
    expect(plain(series[1]?.tooltip.valueFormatter(1500))).toBe('RUB 1,500.00');
    expect(plain(formatsFor(moscow, 'ru').money(1500))).toBe('1 500,00 ₽');
  });

  it('sums up a chart in words for screen readers', () => {
    expect(plain(summaryOf('Orders and revenue', chart, f, t))).toBe(
      'Orders and revenue, March 1, 2026 to March 3, 2026. Orders: 1 in all; the highest 1, on March 2, 2026. ' +
        'Revenue: RUB 1,500.00 in all; the highest RUB 1,500.00, on March 2, 2026.',
    );
    const quiet = activeChart(zeroFilled(overview), { active: 'Active customers' });
    expect(summaryOf('Active', quiet, f, t)).toBe('Active, March 1, 2026 to March 3, 2026. Active customers: nothing on any day.');
  });
});

describe('the funnel', () => {
  const answer = { sent: 10, delivered: 8, opened: 4, clicked: 2, purchased: 1 };

  it('gives each step its share of sent and of the step before', () => {
    expect(funnelSteps(answer).map((s) => [s.step, s.value, s.ofSent, s.ofPrevious])).toEqual([
      ['sent', 10, 1, null],
      ['delivered', 8, 0.8, 0.8],
      ['opened', 4, 0.4, 0.5],
      ['clicked', 2, 0.2, 0.5],
      ['purchased', 1, 0.1, 0.5],
    ]);
    expect(funnelSteps({ sent: 0, delivered: 0, opened: 0, clicked: 0, purchased: 0 }).every((s) => s.ofSent === null)).toBe(true);
  });

  it('draws the steps top to bottom, labelled with their count and share', () => {
    const option = funnelOption(funnelSteps(answer), (step) => step, f);
    expect(option.yAxis).toMatchObject({ inverse: true, data: ['sent', 'delivered', 'opened', 'clicked', 'purchased'] });
    const bars = (option.series as { data: { value: number; label: { formatter: string } }[] }[])[0]?.data ?? [];
    expect(bars.map((b) => b.label.formatter)).toEqual(['10 · 100%', '8 · 80%', '4 · 40%', '2 · 20%', '1 · 10%']);
  });
});

describe('the busiest day', () => {
  it('is the first day with the most active customers, and none when no one was active', () => {
    const days = [
      day('2026-03-01', { active_customers: 2 }),
      day('2026-03-02', { active_customers: 5 }),
      day('2026-03-03', { active_customers: 5 }),
    ];
    expect(busiestDay(days)).toEqual({ date: '2026-03-02', active: 5 });
    expect(busiestDay([day('2026-03-01')])).toBeUndefined();
  });
});
