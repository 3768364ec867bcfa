/** Pure shop rules: no I/O, no clock (today's date is passed in). */

export interface Shop {
  readonly shopId: string;
  readonly name: string;
  readonly currency: string;
  readonly timezone: string;
  readonly active: boolean;
  readonly restricted: boolean;
  /** YYYY-MM-DD in the shop's timezone; null means no payment limit. */
  readonly paidTill: string | null;
  readonly createdAt: number;
}

export type ShopServingState = 'serving' | 'inactive' | 'restricted' | 'unpaid';

/** interface.md, Authentication 4: active, not restricted and paid. */
export function shopServingState(shop: Shop, todayInShopTz: string): ShopServingState {
  if (!shop.active) return 'inactive';
  if (shop.restricted) return 'restricted';
  // paid_till is the last paid day: the shop serves through the end of that day.
  if (shop.paidTill !== null && shop.paidTill < todayInShopTz) return 'unpaid';
  return 'serving';
}

export const SHOP_ID_PATTERN = /^[0-9a-f]{30}$/;
export const CUSTOM_EVENT_CODE_PATTERN = /^[a-z0-9_]+$/;
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** A calendar date YYYY-MM-DD that exists (2023-02-30 does not). */
export function isValidCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Building an Intl.DateTimeFormat costs tens of microseconds, which the hottest path
 * (the shop state check of every public request) cannot afford; one per timezone is
 * kept. Timezones are a small fixed set (IANA), so the cache stays small.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of an instant in a timezone, as YYYY-MM-DD. */
export function dateInTimezone(epochMs: number, timezone: string): string {
  let format = dateFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timezone, format);
  }
  const parts = format.formatToParts(new Date(epochMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
