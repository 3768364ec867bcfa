import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { TtlCache } from '../../ttl-cache.js';
import type { ShopsService } from '../shops/index.js';
import { canTransition, isActiveAt, validatePromotion, type Promotion, type PromotionInput } from './domain/promotion.js';
import * as repo from './promotions.repo.js';

export interface PromotionsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
}

export const PROMOTION_NOT_FOUND = 'Promotion not found.';
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/**
 * How long a shop's list of live promotions is kept unused. Whether a kept list is still
 * right is told by the shop's revision, read on every call; this only lets an idle
 * shop's list go.
 */
export const LIVE_CACHE_TTL_MS = 10 * 60_000;

/** A shop's live promotions as read at a revision of them (repo.advanceRevision). */
interface LiveList {
  readonly revision: number;
  readonly promotions: readonly Promotion[];
}

export interface PromotionPage {
  readonly promotions: readonly Promotion[];
  /** The keyset of the next page; null on the last one. */
  readonly nextAfter: number | null;
}

/** Promotions of the admin API and the checkout's loader (docs/promotions.md). */
export class PromotionsService {
  private readonly live: TtlCache<string, LiveList>;

  constructor(private readonly deps: PromotionsDeps) {
    this.live = new TtlCache({ max: 1_000, ttlMs: LIVE_CACHE_TTL_MS, clock: deps.clock });
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.live.clear();
  }

  private get db() {
    return this.deps.db.db;
  }

  async createPromotion(shopId: string, input: PromotionInput): Promise<Promotion> {
    await this.deps.shops.requireShop(shopId);
    requireValid(input);
    const now = this.deps.clock.now();
    const created = await this.db.transaction().execute(async (trx) => {
      const id = await repo.nextId(trx, shopId, 'promotion');
      await repo.advanceRevision(trx, shopId);
      return repo.insertPromotion(trx, shopId, id, input, now);
    });
    await this.deps.db.durable();
    return created;
  }

  async getPromotion(shopId: string, id: number): Promise<Promotion> {
    await this.deps.shops.requireShop(shopId);
    const found = await repo.findPromotion(this.db, shopId, id);
    if (!found) throw new AppError('NOT_FOUND', PROMOTION_NOT_FOUND);
    return found.promotion;
  }

  /**
   * Changes any fields; the result is validated whole, the status change must be one
   * the transition table allows, and an archived promotion changes no more. The write
   * is conditional on the version read, so two PATCHes never lose one another.
   */
  async updatePromotion(shopId: string, id: number, patch: Partial<PromotionInput>): Promise<Promotion> {
    await this.deps.shops.requireShop(shopId);
    const found = await repo.findPromotion(this.db, shopId, id);
    if (!found) throw new AppError('NOT_FOUND', PROMOTION_NOT_FOUND);
    const { promotion, version } = found;
    if (promotion.status === 'archived') throw new AppError('CONFLICT', 'An archived promotion cannot be changed.');
    const { id: _id, createdAt: _created, updatedAt: _updated, ...current } = promotion;
    const next: PromotionInput = { ...current, ...definedOnly(patch) };
    if (!canTransition(promotion.status, next.status)) {
      throw new AppError('CONFLICT', `A promotion cannot go from \`${promotion.status}\` to \`${next.status}\`.`);
    }
    requireValid(next);
    const updated = await this.db.transaction().execute(async (trx) => {
      const row = await repo.updatePromotion(trx, shopId, id, version, next, this.deps.clock.now());
      if (row) await repo.advanceRevision(trx, shopId);
      return row;
    });
    if (!updated) throw new AppError('CONFLICT', 'The promotion was changed by a concurrent request; try again.');
    await this.deps.db.durable();
    return updated;
  }

  async listPromotions(
    shopId: string,
    filter: Omit<repo.PromotionFilter, 'limit'> & { limit?: number | undefined },
  ): Promise<PromotionPage> {
    await this.deps.shops.requireShop(shopId);
    const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await repo.listPromotions(this.db, shopId, { ...filter, limit: limit + 1 });
    const page = rows.slice(0, limit);
    return { promotions: page, nextAfter: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
  }

  /**
   * The checkout's loader: the shop's promotions active at `now`, highest priority first,
   * as plain objects. Called on every checkout, so the shop's live promotions are kept
   * and only filtered by isActiveAt per call. The kept list is used only while the shop's
   * revision is the one it was read at: every write advances the revision in its own
   * transaction, so a write through any process is seen by the next call here, and a
   * read that a write overtook is never taken for the new state (the revision is read
   * before the list, so a list is never older than the revision it is kept under).
   */
  async activePromotionsAt(shopId: string, now: number): Promise<readonly Promotion[]> {
    const revision = await repo.revisionOf(this.db, shopId);
    let kept = this.live.get(shopId);
    if (kept?.revision !== revision) {
      kept = { revision, promotions: Object.freeze(await repo.listLive(this.db, shopId, this.deps.clock.now())) };
      // A slower load of an older revision does not replace a newer one.
      if ((this.live.get(shopId)?.revision ?? -1) < revision) this.live.set(shopId, kept);
    }
    return kept.promotions.filter((p) => isActiveAt(p, now));
  }
}

function requireValid(input: PromotionInput): void {
  const result = validatePromotion(input);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message, { field: result.field });
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
