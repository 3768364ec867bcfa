import { csvLine } from '../http/csv-writer.js';
import type { NpsCategory, NpsChannel, NpsReview, NpsScore, ReviewQuery } from '../modules/nps/index.js';
import type { CategoryBody, ChannelBody, ReviewBody, ScoreBody } from './nps.schemas.js';

/** The NPS admin routes' answers: service objects to the contract's bodies and CSV rows. */

export const SCORE_COLUMNS = ['answered', 'promoters', 'passives', 'detractors', 'nps'] as const;

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'channel',
  'category',
  'rate',
  'comment',
  'order_id',
  'order_found',
  'profile_id',
];

export type QueryFields = { date_from: string; date_to: string; channel?: string; category?: string; rate_min?: number; rate_max?: number };

export function toQuery(q: QueryFields): ReviewQuery {
  return {
    dateFrom: q.date_from,
    dateTo: q.date_to,
    ...(q.channel !== undefined && { channel: q.channel }),
    ...(q.category !== undefined && { category: q.category }),
    ...(q.rate_min !== undefined && { rateMin: q.rate_min }),
    ...(q.rate_max !== undefined && { rateMax: q.rate_max }),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toChannelBody(c: NpsChannel): ChannelBody {
  return { code: c.code, name: c.name, created_at: iso(c.createdAt), updated_at: iso(c.updatedAt) };
}

export function toCategoryBody(c: NpsCategory): CategoryBody {
  const { createdAt, updatedAt, ...fields } = c;
  return { ...fields, created_at: iso(createdAt), updated_at: iso(updatedAt) };
}

export function toReviewBody(r: NpsReview): ReviewBody {
  return {
    id: r.id,
    channel: r.channel,
    category: r.category,
    rate: r.rate,
    comment: r.comment,
    order_id: r.orderId,
    order_found: r.orderFound,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    profile_id: r.profileId,
  };
}

export function toCsvRow(r: NpsReview): string {
  const b = toReviewBody(r);
  return csvLine([
    b.id,
    b.created_at,
    b.updated_at,
    b.channel,
    b.category,
    b.rate,
    b.comment,
    b.order_id,
    String(b.order_found),
    b.profile_id,
  ]);
}

export function toScoreBody(s: NpsScore): ScoreBody {
  return {
    date_from: s.from,
    date_to: s.to,
    timezone: s.timezone,
    interval: s.interval,
    points: [...s.points],
    totals: s.totals,
    channels: [...s.byChannel],
    categories: [...s.byCategory],
  };
}
