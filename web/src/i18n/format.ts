import type { Language } from './language';

/**
 * Dates and amounts as the shop sees them: in the shop's own time zone and currency, in
 * the reader's language. The admin API gives instants as ISO strings in UTC and money in
 * integer minor units (kopecks); the conversion happens here, at the edge, once.
 */
export interface ShopLocale {
  readonly timezone: string;
  readonly currency: string;
}

export function formatDateTime(iso: string, shop: ShopLocale, language: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium', timeZone: shop.timezone }).format(date);
}

/** A calendar day (YYYY-MM-DD, already in the shop's zone: paid_till) shown without moving it across zones. */
export function formatDay(day: string, language: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The currency's minor-unit exponent as Intl knows it (2 for RUB, 0 for JPY). */
export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

export function formatMinorAmount(minor: number, shop: ShopLocale, language: Language): string {
  const digits = minorUnitDigits(shop.currency);
  return new Intl.NumberFormat(language, { style: 'currency', currency: shop.currency }).format(minor / 10 ** digits);
}

/**
 * An amount the API gives in currency units (roubles, not kopecks: the loyalty, promotions,
 * customers and catalog lists convert at the API's edge), in the shop's currency.
 */
export function formatUnits(amount: number, shop: ShopLocale, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: shop.currency }).format(amount);
}
