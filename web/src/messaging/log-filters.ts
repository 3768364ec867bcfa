import { localToIso } from '../loyalty/money';

/**
 * The delivery log's filters as the address keeps them (`?customer=&code=&channel=&status=
 * &outcome=&from=&to=`), and as GET …/messages/search takes them. One customer box takes a
 * profile id, an email or a phone; the period is whole days in the shop's time zone.
 */
export const LOG_FILTERS = ['customer', 'code', 'channel', 'status', 'outcome', 'from', 'to'] as const;
export type LogFilter = (typeof LOG_FILTERS)[number];
export type LogFilters = Partial<Record<LogFilter, string>>;

export const CHANNELS = ['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet'] as const;
export const STATUSES = ['queued', 'sent', 'failed'] as const;
export const OUTCOMES = [
  'delivered',
  'opened',
  'clicked',
  'unsubscribed',
  'bounced',
  'hard_bounced',
  'soft_bounced',
  'complained',
  'purchased',
] as const;

export function filtersFrom(params: URLSearchParams): LogFilters {
  const filters: LogFilters = {};
  for (const key of LOG_FILTERS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

export function paramsOf(filters: LogFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of LOG_FILTERS) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  return params;
}

/** Which identifier the customer box holds: digits alone are a profile id, an @ an email, anything else a phone. */
export function customerQuery(text: string): { profile_id: number } | { email: string } | { phone: string } {
  const value = text.trim();
  if (/^\d{1,15}$/.test(value) && Number(value) > 0) return { profile_id: Number(value) };
  if (value.includes('@')) return { email: value };
  return { phone: value };
}

function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return values.find((v) => v === value);
}

export interface SearchQuery {
  profile_id?: number;
  email?: string;
  phone?: string;
  code?: string;
  channel?: (typeof CHANNELS)[number];
  status?: (typeof STATUSES)[number];
  outcome?: (typeof OUTCOMES)[number];
  from?: string;
  to?: string;
}

/**
 * The search's query from the address's filters: `from` is the start of its day and `to` the
 * start of the day after (the API's `to` is exclusive), both in the shop's zone; an unknown
 * channel, status or outcome (a hand-edited address) is left out.
 */
export function searchQuery(filters: LogFilters, timezone: string): SearchQuery {
  const query: SearchQuery = {};
  if (filters.customer) Object.assign(query, customerQuery(filters.customer));
  if (filters.code) query.code = filters.code;
  const channel = oneOf(CHANNELS, filters.channel);
  if (channel) query.channel = channel;
  const status = oneOf(STATUSES, filters.status);
  if (status) query.status = status;
  const outcome = oneOf(OUTCOMES, filters.outcome);
  if (outcome) query.outcome = outcome;
  const from = filters.from ? localToIso(`${filters.from}T00:00`, timezone) : null;
  if (from) query.from = from;
  const to = filters.to ? localToIso(`${nextDay(filters.to)}T00:00`, timezone) : null;
  if (to) query.to = to;
  return query;
}

/** The calendar day after YYYY-MM-DD; the text unchanged when it is not a day. */
export function nextDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1)).toISOString().slice(0, 10);
}
