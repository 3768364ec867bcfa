/**
 * The dashboard's period: calendar days of the shop's time zone (YYYY-MM-DD), both
 * included, at most 366 of them (docs/dashboards.md, "The period"). Pure: the day
 * arithmetic is on UTC dates, so no reader's zone moves a day.
 */

/** The longest period the API reads in one answer, in days. */
export const MAX_PERIOD_DAYS = 366;

/** The presets offered beside a custom period: the last N days up to today in the shop's zone. */
export const PRESETS = [7, 30, 90] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = 30;

export interface Period {
  readonly from: string;
  readonly to: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The epoch day of a real calendar date, undefined for anything else (2026-02-30, 2026-3-1). */
export function epochDay(date: string): number | undefined {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

function dateOf(epoch: number): string {
  return new Date(epoch * DAY_MS).toISOString().slice(0, 10);
}

/** A date moved by whole days (a valid date in, a valid date out). */
export function addDays(date: string, days: number): string {
  const epoch = epochDay(date);
  if (epoch === undefined) throw new Error(`not a date: ${date}`);
  return dateOf(epoch + days);
}

/** How many days a period holds, both ends included. */
export function periodLength(period: Period): number {
  return (epochDay(period.to) ?? 0) - (epochDay(period.from) ?? 0) + 1;
}

/** Every date of a valid period, in order: the x axis of every chart. */
export function everyDay(period: Period): string[] {
  const first = epochDay(period.from);
  const last = epochDay(period.to);
  if (first === undefined || last === undefined) return [];
  const dates: string[] = [];
  for (let d = first; d <= last && dates.length <= MAX_PERIOD_DAYS; d++) dates.push(dateOf(d));
  return dates;
}

/** The last `days` days ending today (today being a date of the shop's zone). */
export function presetPeriod(days: Preset, today: string): Period {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** What is wrong with a typed period, at the field to show it under; null when the API would take it. */
export type PeriodProblem =
  | { readonly field: 'from' | 'to'; readonly kind: 'missing' | 'invalid' }
  | { readonly field: 'to'; readonly kind: 'order' }
  | { readonly field: 'to'; readonly kind: 'tooLong'; readonly days: number };

export function checkPeriod(from: string, to: string): PeriodProblem | null {
  if (from.trim() === '') return { field: 'from', kind: 'missing' };
  const first = epochDay(from);
  if (first === undefined) return { field: 'from', kind: 'invalid' };
  if (to.trim() === '') return { field: 'to', kind: 'missing' };
  const last = epochDay(to);
  if (last === undefined) return { field: 'to', kind: 'invalid' };
  if (last < first) return { field: 'to', kind: 'order' };
  const days = last - first + 1;
  if (days > MAX_PERIOD_DAYS) return { field: 'to', kind: 'tooLong', days };
  return null;
}

/** The period the address asks for: `?days=7|30|90`, or `?from=…&to=…` (custom); the default preset otherwise. */
export type Choice =
  | { readonly kind: 'preset'; readonly days: Preset }
  | { readonly kind: 'custom'; readonly from: string; readonly to: string };

export function choiceOf(params: URLSearchParams): Choice {
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null && to !== null) return { kind: 'custom', from, to };
  const days = Number(params.get('days'));
  const preset = PRESETS.find((p) => p === days);
  return { kind: 'preset', days: preset ?? DEFAULT_PRESET };
}

/** The address of a choice: what `choiceOf` reads back. */
export function paramsOf(choice: Choice): Record<string, string> {
  return choice.kind === 'preset' ? { days: String(choice.days) } : { from: choice.from, to: choice.to };
}

/** The period of a choice, or the problem of a custom one typed into the address. */
export function periodOf(choice: Choice, today: string): { readonly period: Period } | { readonly problem: PeriodProblem } {
  if (choice.kind === 'preset') return { period: presetPeriod(choice.days, today) };
  const problem = checkPeriod(choice.from, choice.to);
  return problem ? { problem } : { period: { from: choice.from, to: choice.to } };
}
