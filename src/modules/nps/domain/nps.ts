import { epochDay } from '../../dashboards/index.js';

/**
 * NPS (docs/nps.md): what a review, a channel and a category may hold, how a rating
 * counts, and the score (percent promoters minus percent detractors). Pure.
 */

/** A channel's or category's code, as apps send it (`android_app`, `ios_app`, `email`, `delivery`). */
export const NPS_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
export const MAX_NAME_LENGTH = 255;
/** A question or a thank-you text of a category. */
export const MAX_TEXT_LENGTH = 1000;
export const MAX_COMMENT_LENGTH = 4000;
export const MAX_ORDER_ID_LENGTH = 255;
export const MIN_RATE = 0;
export const MAX_RATE = 10;

export const CATEGORY_TEXTS = [
  'detractor_question',
  'passive_question',
  'promoter_question',
  'detractor_success',
  'passive_success',
  'promoter_success',
] as const;
export type CategoryText = (typeof CATEGORY_TEXTS)[number];

export function isValidNpsCode(code: string): boolean {
  return NPS_CODE.test(code);
}

export type Group = 'detractor' | 'passive' | 'promoter';

/** 0–6 detractor, 7–8 passive, 9–10 promoter. */
export function groupOf(rate: number): Group {
  if (rate >= 9) return 'promoter';
  if (rate >= 7) return 'passive';
  return 'detractor';
}

/**
 * Which reviews are one (the unique key's last part): a review of an order is one per
 * order, so a second rating of it replaces the first; any other is one per day of the
 * shop's time zone, so a retried request, or a second tap the same day, is not counted twice.
 */
export function dedupeKey(orderId: string | undefined, day: string): string {
  return orderId === undefined ? `d:${day}` : `o:${orderId}`;
}

export interface Counts {
  readonly answered: number;
  readonly promoters: number;
  readonly passives: number;
  readonly detractors: number;
  /** Percent promoters minus percent detractors, rounded to a whole number; null without answers. */
  readonly nps: number | null;
}

export function npsOf(promoters: number, detractors: number, answered: number): number | null {
  if (answered === 0) return null;
  // Math.round of a negative half goes up; the score is symmetric: round half away from zero.
  const exact = ((promoters - detractors) * 100) / answered;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

class Tally {
  promoters = 0;
  passives = 0;
  detractors = 0;
  add(rate: number, count: number): void {
    const group = groupOf(rate);
    if (group === 'promoter') this.promoters += count;
    else if (group === 'passive') this.passives += count;
    else this.detractors += count;
  }
  counts(): Counts {
    const answered = this.promoters + this.passives + this.detractors;
    return {
      answered,
      promoters: this.promoters,
      passives: this.passives,
      detractors: this.detractors,
      nps: npsOf(this.promoters, this.detractors, answered),
    };
  }
}

/** A count of reviews of one day, channel, category and rate, as the repository groups them. */
export interface RateCount {
  readonly day: string;
  readonly channel: string;
  readonly category: string;
  readonly rate: number;
  readonly count: number;
}

export type Interval = 'day' | 'week';

export interface Score {
  readonly points: ReadonlyArray<{ readonly date: string } & Counts>;
  readonly totals: Counts;
  readonly byChannel: ReadonlyArray<{ readonly channel: string } & Counts>;
  readonly byCategory: ReadonlyArray<{ readonly category: string } & Counts>;
}

/** The Monday of the date's week (epoch day 0, 1970-01-01, was a Thursday). */
export function weekStart(date: string): string {
  const day = epochDay(date) as number;
  return new Date((day - ((((day + 3) % 7) + 7) % 7)) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The score over `dates` (every date of the period, in order): one point per day, or per
 * week (labelled by the week's first date within the period), empty ones as zeros with a
 * null score, and the period's totals per channel and per category.
 */
export function scoreOf(dates: readonly string[], counts: readonly RateCount[], interval: Interval): Score {
  const labelOf = new Map<string, string>();
  const points = new Map<string, Tally>();
  for (const date of dates) {
    const week = weekStart(date);
    const label = interval === 'day' ? date : (labelOf.get(week) ?? date);
    if (interval === 'week' && !labelOf.has(week)) labelOf.set(week, date);
    labelOf.set(date, label);
    if (!points.has(label)) points.set(label, new Tally());
  }
  const totals = new Tally();
  const channels = new Map<string, Tally>();
  const categories = new Map<string, Tally>();
  const tallyOf = (map: Map<string, Tally>, key: string) => {
    let tally = map.get(key);
    if (tally === undefined) map.set(key, (tally = new Tally()));
    return tally;
  };
  for (const row of counts) {
    const label = labelOf.get(row.day);
    if (label === undefined) continue;
    points.get(label)?.add(row.rate, row.count);
    totals.add(row.rate, row.count);
    tallyOf(channels, row.channel).add(row.rate, row.count);
    tallyOf(categories, row.category).add(row.rate, row.count);
  }
  const sorted = <T>(map: Map<string, Tally>, make: (key: string, counts: Counts) => T) =>
    [...map.keys()].sort().map((key) => make(key, (map.get(key) as Tally).counts()));
  return {
    points: [...points].map(([date, tally]) => ({ date, ...tally.counts() })),
    totals: totals.counts(),
    byChannel: sorted(channels, (channel, c) => ({ channel, ...c })),
    byCategory: sorted(categories, (category, c) => ({ category, ...c })),
  };
}
