import { parseUnits } from './money';

/**
 * The promotion form's further conditions (docs/promotions.md): streams, payment types,
 * locations and member levels as lists, a window of the shop's local day, extra bonuses and
 * special prices. Text in, the API's fields out, or the field that is not what it must be.
 */

/** "ios, android  web" → ["ios", "android", "web"]; repeats are kept once. */
export function listOf(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter((s) => s !== ''))];
}

export type TimeOfDay = { readonly from: string; readonly to: string };

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Both empty: no window (null); both HH:MM: the window; anything else: undefined (not valid). */
export function timeOfDayOf(from: string, to: string): TimeOfDay | null | undefined {
  const f = from.trim();
  const t = to.trim();
  if (f === '' && t === '') return null;
  return HH_MM.test(f) && HH_MM.test(t) && f !== t ? { from: f, to: t } : undefined;
}

/** A percent from 0 to 100 with at most two decimals; empty is 0. */
export function percentOf(text: string): number | undefined {
  if (text.trim() === '') return 0;
  const value = parseUnits(text);
  return value !== null && value >= 0 && value <= 100 ? value : undefined;
}

/**
 * One product a line, "product id = price" (or a colon, or a space, between them), prices in
 * currency units (spaces inside a price are allowed, "1 500,50"): the special prices, or the first line that is not one (1-based).
 */
export function specialPricesOf(text: string): { readonly prices: Record<string, number> } | { readonly badLine: number } {
  const prices: Record<string, number> = {};
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const match = /^(\S+?)\s*(?:=|:|\s)\s*(\S.*)$/.exec(line);
    const price = match ? parseUnits(match[2] as string) : null;
    if (!match || price === null || price < 0) return { badLine: index + 1 };
    prices[match[1] as string] = price;
  }
  return { prices };
}

/** The stored special prices as the form's lines. */
export function specialPricesText(prices: Readonly<Record<string, number>>): string {
  return Object.entries(prices)
    .map(([id, price]) => `${id} = ${price}`)
    .join('\n');
}
