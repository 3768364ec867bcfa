import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import { dateInTimezone, type Shop, type ShopsService } from '../shops/index.js';
import { dedupeKey, scoreOf, type Interval, type Score } from './domain/nps.js';
import { reviewPeriod } from './domain/period.js';
import * as repo from './reviews.repo.js';
import type { NpsSettingsService } from './settings.service.js';

export interface NpsReviewsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly identity: Pick<IdentityService, 'requireDevice' | 'resolveProfile'>;
  readonly npsSettings: Pick<NpsSettingsService, 'requireKnown'>;
}

/** Whose review: the device's customer, or (for a caller with the shop's secret) the holder of the identifiers. */
export interface NpsCustomer {
  readonly did?: string;
  readonly identifiers: Omit<IdentityInput, 'did'>;
}

/** A review as an app sends it, checked for form by the scope. */
export interface ReviewInput {
  readonly channel: string;
  readonly category: string;
  readonly rate: number;
  readonly orderId?: string;
  readonly comment?: string;
}

export interface NpsReview {
  readonly id: number;
  readonly profileId: number;
  readonly channel: string;
  readonly category: string;
  readonly rate: number;
  readonly comment: string | null;
  readonly orderId: string | null;
  /** The shop has a tracked order of that id. */
  readonly orderFound: boolean;
  readonly day: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ReviewQuery {
  readonly dateFrom: string;
  readonly dateTo: string;
  readonly channel?: string;
  readonly category?: string;
  readonly rateMin?: number;
  readonly rateMax?: number;
}

export interface NpsScore extends Score {
  readonly from: string;
  readonly to: string;
  readonly timezone: string;
  readonly interval: Interval;
}

export const EXPORT_BATCH = 1_000;

/**
 * NPS reviews (docs/nps.md): stored from POST /nps/create, once per customer, channel,
 * category and order (or day), and read by the admin API as a list, a CSV and the score
 * per day or week of the shop's time zone.
 */
export class NpsReviewsService {
  constructor(private readonly deps: NpsReviewsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /**
   * The device's customer (identifiers beside `did` are not linked: a review is no sign-in),
   * or, for a caller with the secret, the customer holding the identifiers, created when
   * nobody does yet, as the other secret writes do.
   */
  async createReview(shop: Pick<Shop, 'shopId' | 'timezone'>, customer: NpsCustomer, input: ReviewInput): Promise<void> {
    const { shopId } = shop;
    await this.deps.npsSettings.requireKnown(shopId, input.channel, input.category);
    const deviceProfile = customer.did === undefined ? undefined : (await this.deps.identity.requireDevice(shopId, customer.did)).profileId;
    const now = this.deps.clock.now();
    const day = dateInTimezone(now, shop.timezone);
    await this.db.transaction().execute(async (trx) => {
      const profileId = deviceProfile ?? (await this.deps.identity.resolveProfile(shopId, customer.identifiers, trx)).profileId;
      const id = await repo.nextReviewId(trx, shopId);
      await repo.upsertReview(trx, {
        shop_id: shopId,
        id,
        profile_id: profileId,
        channel: input.channel,
        category: input.category,
        rate: input.rate,
        comment: input.comment ?? null,
        order_id: input.orderId ?? null,
        dedupe_key: dedupeKey(input.orderId, day),
        day,
        created_at: now,
        updated_at: now,
      });
    });
    await this.deps.db.durable();
  }

  /** A page of reviews, newest first, after the cursor's key. */
  async listReviews(shopId: string, query: ReviewQuery, after: readonly [string, number] | null, limit: number): Promise<NpsReview[]> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listReviews(this.db, shopId, filterOf(query), after, limit);
    return rows.map(toReview);
  }

  /** Every review of the query, a batch at a time along the list's key (the CSV export). */
  async exportReviews(shopId: string, query: ReviewQuery): Promise<AsyncGenerator<NpsReview[]>> {
    await this.deps.shops.requireShop(shopId);
    const filter = filterOf(query);
    const db = this.db;
    return (async function* () {
      let after: readonly [string, number] | null = null;
      for (;;) {
        const rows = await repo.listReviews(db, shopId, filter, after, EXPORT_BATCH);
        if (rows.length === 0) return;
        yield rows.map(toReview);
        const last = rows[rows.length - 1] as repo.ReviewRow;
        if (rows.length < EXPORT_BATCH) return;
        after = [last.day, Number(last.id)];
      }
    })();
  }

  /** The score (promoters minus detractors, in percent) and the counts per day or week, channel and category. */
  async score(shopId: string, query: ReviewQuery, interval: Interval): Promise<NpsScore> {
    const shop = await this.deps.shops.requireShop(shopId);
    const period = checkedPeriod(query);
    const counts = await repo.countRates(this.db, shopId, filterOf(query));
    return { from: query.dateFrom, to: query.dateTo, timezone: shop.timezone, interval, ...scoreOf(period, counts, interval) };
  }

  async deleteReview(shopId: string, id: number): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (!(await repo.deleteReview(this.db, shopId, id))) throw new AppError('NOT_FOUND', 'NPS review does not exist.');
    await this.deps.db.durable();
  }
}

function checkedPeriod(query: ReviewQuery): readonly string[] {
  const period = reviewPeriod(query.dateFrom, query.dateTo);
  if (!period.ok) throw new AppError('VALIDATION_FAILED', period.message, { field: period.field });
  return period.dates;
}

function filterOf(query: ReviewQuery): repo.ReviewFilter {
  checkedPeriod(query);
  if (query.rateMin !== undefined && query.rateMax !== undefined && query.rateMax < query.rateMin) {
    throw new AppError('VALIDATION_FAILED', 'Field `rate_max` must not be below `rate_min`.', { field: 'rate_max' });
  }
  return {
    from: query.dateFrom,
    to: query.dateTo,
    ...(query.channel !== undefined && { channel: query.channel }),
    ...(query.category !== undefined && { category: query.category }),
    ...(query.rateMin !== undefined && { rateMin: query.rateMin }),
    ...(query.rateMax !== undefined && { rateMax: query.rateMax }),
  };
}

function toReview(row: repo.ReviewRow): NpsReview {
  return {
    id: Number(row.id),
    profileId: Number(row.profile_id),
    channel: row.channel,
    category: row.category,
    rate: Number(row.rate),
    comment: row.comment,
    orderId: row.order_id,
    orderFound: Number(row.order_found) === 1,
    day: row.day,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
