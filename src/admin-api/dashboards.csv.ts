import { csvLine } from '../http/csv-writer.js';
import type { Dashboard } from '../modules/dashboards/dashboards.service.js';
import type { DayFigures } from '../modules/dashboards/domain/overview.js';
import type { Funnel } from '../modules/dashboards/domain/series.js';

/**
 * The dashboards' CSV downloads: the numbers of every chart, as the JSON answers hold
 * them (amounts in currency units). The overview has one row per day and a `total` row;
 * its event types and channels are columns, the union over the period, sorted.
 */

const units = (minor: number) => minor / 100;

export function dashboardCsv(d: Dashboard): string {
  const types = [...new Set(d.days.flatMap((day) => Object.keys(day.events)))].sort();
  const channels = [...new Set(d.days.flatMap((day) => Object.keys(day.messages)))].sort();
  const header = [
    'date',
    'events_total',
    ...types.map((t) => `events.${t}`),
    'active_customers',
    'orders',
    'revenue',
    'new_members',
    'bonuses_issued',
    'bonuses_spent',
    ...channels.flatMap((c) => [`${c}.sent`, `${c}.opened`, `${c}.clicked`]),
    'attributed_purchases',
    'attributed_revenue',
  ];
  const row = (date: string, f: Omit<DayFigures, 'date'>) =>
    csvLine([
      date,
      f.eventsTotal,
      ...types.map((t) => f.events[t] ?? 0),
      f.activeCustomers,
      f.orders,
      units(f.revenue),
      f.newMembers,
      units(f.bonusesIssued),
      units(f.bonusesSpent),
      ...channels.flatMap((c) => {
        const m = f.messages[c];
        return [m?.sent ?? 0, m?.opened ?? 0, m?.clicked ?? 0];
      }),
      f.attributedPurchases,
      units(f.attributedRevenue),
    ]);
  return csvLine(header) + d.days.map((day) => row(day.date, day)).join('') + row('total', d.totals);
}

export function funnelCsv(f: Funnel): string {
  const header = csvLine(['channel', 'sent', 'delivered', 'opened', 'clicked', 'purchased', 'revenue']);
  const rows = f.channels.map((c) => csvLine([c.channel, c.sent, c.delivered, c.opened, c.clicked, null, null]));
  return header + rows.join('') + csvLine(['total', f.sent, f.delivered, f.opened, f.clicked, f.purchased, units(f.revenue)]);
}
