import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import { codeFrom, compilePattern, hasRoomFor, SPACE_FACTOR } from './domain/code-pattern.js';
import { normalizeCode } from './domain/codes.js';
import type { PromotionStatus } from './domain/promotion.js';
import * as repo from './promo-codes.repo.js';
import * as promotionsRepo from './promotions.repo.js';

export interface PromoCodesDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
}

export interface PromoCode {
  readonly code: string;
  readonly promotionId: number;
  /** Null: unlimited. */
  readonly usageLimit: number | null;
  readonly perMemberLimit: number | null;
  readonly used: number;
  readonly blocked: number;
  readonly endsAt: number | null;
  readonly createdAt: number;
}

/** Rows read per statement by exportCodes. */
export const EXPORT_BATCH = 1000;

/** What a code is now: usable, used up (every use taken), or past its end. */
export type PromoCodeState = 'active' | 'used_up' | 'ended';

function promoCodeState(c: PromoCode, now: number): PromoCodeState {
  if (c.endsAt !== null && c.endsAt <= now) return 'ended';
  return c.usageLimit !== null && c.used >= c.usageLimit ? 'used_up' : 'active';
}

export interface CodeTerms {
  readonly usageLimit?: number | null | undefined;
  readonly perMemberLimit?: number | null | undefined;
  readonly endsAt?: number | null | undefined;
}

export const PROMO_CODE_NOT_FOUND = 'Promo code not found.';
export const MAX_GENERATE_COUNT = 100_000;
/** Rows per INSERT: 8 parameters each stays far below SQLite's 32,766 and PostgreSQL's 65,535. */
const INSERT_CHUNK = 2_000;
/** Rounds of regenerating codes lost to collisions before giving up (each leaves fewer missing). */
const MAX_ROUNDS = 20;
/** Generated codes are for one use each unless the call says otherwise (docs/promotions.md). */
const GENERATED_USAGE_LIMIT = 1;

/** Promo codes: the admin's codes and generation, and the checkout's reads of them (docs/promotions.md); the checkout's holds are PromoCodeHolds. */
export class PromoCodesService {
  constructor(private readonly deps: PromoCodesDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** One code for a promotion; a code the shop has already (in any case): CONFLICT. */
  async createCode(shopId: string, text: string, promotionId: number, terms: CodeTerms): Promise<PromoCode> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(text);
    if (code === null)
      throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 letters, digits, `-` or `_`.', { field: 'code' });
    this.requireFutureEnd(terms.endsAt);
    await this.requireOpenPromotion(shopId, promotionId);
    const row = this.row(shopId, code, promotionId, terms, terms.usageLimit ?? null);
    const inserted = await repo.insertCodes(this.db, [row]);
    if (inserted.length === 0) throw new AppError('CONFLICT', `Promo code \`${code}\` already exists.`);
    await this.deps.db.durable();
    return toPromoCode(row);
  }

  /**
   * `count` new codes of the pattern for a promotion, in one transaction: chunks inserted
   * with ON CONFLICT DO NOTHING (the unique key, not a read, rules out collisions), and
   * the codes a chunk lost to existing ones drawn again until the count is reached.
   */
  async generateCodes(
    shopId: string,
    promotionId: number,
    input: CodeTerms & { readonly count: number; readonly pattern: string },
  ): Promise<string[]> {
    await this.deps.shops.requireShop(shopId);
    const compiled = compilePattern(input.pattern);
    if (!compiled.ok) throw new AppError('VALIDATION_FAILED', compiled.message, { field: 'pattern' });
    if (!hasRoomFor(compiled.pattern, input.count)) {
      throw new AppError('VALIDATION_FAILED', `Field \`pattern\` must allow at least ${SPACE_FACTOR} times \`count\` distinct codes.`, {
        field: 'pattern',
      });
    }
    this.requireFutureEnd(input.endsAt);
    await this.requireOpenPromotion(shopId, promotionId);
    const { pattern } = compiled;
    const usageLimit = input.usageLimit === undefined ? GENERATED_USAGE_LIMIT : input.usageLimit;
    const created: string[] = [];
    await this.db.transaction().execute(async (trx) => {
      for (let round = 0; round < MAX_ROUNDS && created.length < input.count; round += 1) {
        // Each round after a collision draws more candidates than it needs (twice as many,
        // then four times …), so that a nearly full pattern still fills up in a few rounds.
        const missing = input.count - created.length;
        const draws = missing * 2 ** Math.min(round, 6);
        const random = new Uint32Array(crypto.randomBytes(4 * pattern.slots * draws).buffer);
        const batch = new Set<string>();
        for (let i = 0; i < draws; i += 1) batch.add(codeFrom(pattern, random, i * pattern.slots));
        const codes = [...batch];
        // A chunk is never larger than what is still missing, so the count is never overshot;
        // chunks are taken in draw order, so which extra candidates go unused is random too.
        for (let start = 0; start < codes.length && created.length < input.count; ) {
          // In key order: each chunk then lands in one stretch of the unique index instead
          // of touching pages all over it (twice as fast beside 100,000 existing codes).
          const chunk = codes.slice(start, start + Math.min(INSERT_CHUNK, input.count - created.length)).sort();
          start += chunk.length;
          const rows = chunk.map((code) => this.row(shopId, code, promotionId, input, usageLimit));
          created.push(...(await repo.insertCodes(trx, rows)));
        }
      }
      if (created.length < input.count) throw new AppError('CONFLICT', 'The pattern has too few free codes left; use a longer one.');
    });
    await this.deps.db.durable();
    return created;
  }

  async getCode(shopId: string, text: string): Promise<PromoCode> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(text);
    const row = code === null ? undefined : await repo.findCode(this.db, shopId, code);
    if (!row) throw new AppError('NOT_FOUND', PROMO_CODE_NOT_FOUND);
    return toPromoCode(row);
  }

  /** The checkout's loader: the codes among `texts` that exist (normalised), by their stored form. */
  async findCodes(shopId: string, texts: readonly string[]): Promise<Map<string, PromoCode>> {
    const codes = [...new Set(texts.map(normalizeCode).filter((c): c is string => c !== null))];
    const rows = await repo.findCodes(this.db, shopId, codes);
    return new Map(rows.map((r) => [r.code, toPromoCode(r)]));
  }

  async listCodes(
    shopId: string,
    promotionId: number,
    page: { after?: string | undefined; limit: number },
  ): Promise<{ codes: PromoCode[]; nextAfter: string | null }> {
    await this.deps.shops.requireShop(shopId);
    if (!(await promotionsRepo.findPromotion(this.db, shopId, promotionId))) throw new AppError('NOT_FOUND', 'Promotion not found.');
    const after = page.after === undefined ? undefined : (normalizeCode(page.after) ?? page.after.toUpperCase());
    const rows = await repo.listCodes(this.db, shopId, promotionId, after, page.limit + 1);
    const codes = rows.slice(0, page.limit).map(toPromoCode);
    return { codes, nextAfter: rows.length > page.limit ? (codes.at(-1)?.code ?? null) : null };
  }

  /**
   * Every code of a promotion, in code order, read in batches of `batch` rows along the
   * index (shop_id, promotion_id, code): the export never holds more than one batch. The
   * promotion is checked before the first batch, so that a missing one is a 404 before any
   * byte is sent. Codes added during the export appear if they sort after the batch read.
   */
  async exportCodes(
    shopId: string,
    promotionId: number,
    batch = EXPORT_BATCH,
  ): Promise<AsyncIterable<Array<PromoCode & { state: PromoCodeState }>>> {
    await this.deps.shops.requireShop(shopId);
    if (!(await promotionsRepo.findPromotion(this.db, shopId, promotionId))) throw new AppError('NOT_FOUND', 'Promotion not found.');
    const { db } = this;
    const { clock } = this.deps;
    return {
      async *[Symbol.asyncIterator]() {
        let after: string | undefined;
        for (;;) {
          const rows = await repo.listCodes(db, shopId, promotionId, after, batch);
          const now = clock.now();
          if (rows.length > 0)
            yield rows.map((row) => {
              const code = toPromoCode(row);
              return { ...code, state: promoCodeState(code, now) };
            });
          if (rows.length < batch) return;
          after = rows.at(-1)!.code;
        }
      },
    };
  }

  /** The codes an order has blocked, with the buyer each was blocked for (a repeat apply does not count them against itself). */
  async blockedCodesOf(shopId: string, orderId: string): Promise<{ code: string; profileId: number | null }[]> {
    return repo.blockedCodesOf(this.db, shopId, orderId);
  }

  /** A member's uses and blocks of these codes (what its per-member limit counts). */
  async memberUsesOf(shopId: string, profileId: number, codes: readonly string[]): Promise<Map<string, number>> {
    return repo.memberTakenOf(this.db, shopId, profileId, codes);
  }

  private requireFutureEnd(endsAt: number | null | undefined): void {
    if (endsAt !== undefined && endsAt !== null && endsAt <= this.deps.clock.now()) {
      throw new AppError('VALIDATION_FAILED', 'Field `ends_at` must be in the future.', { field: 'ends_at' });
    }
  }

  private async requireOpenPromotion(shopId: string, promotionId: number): Promise<PromotionStatus> {
    const found = await promotionsRepo.findPromotion(this.db, shopId, promotionId);
    if (!found) throw new AppError('NOT_FOUND', 'Promotion not found.');
    if (found.promotion.status === 'archived') throw new AppError('CONFLICT', 'An archived promotion takes no new codes.');
    return found.promotion.status;
  }

  private row(shopId: string, code: string, promotionId: number, terms: CodeTerms, usageLimit: number | null): repo.PromoCodeRow {
    const now = this.deps.clock.now();
    return {
      shop_id: shopId,
      code,
      promotion_id: promotionId,
      usage_limit: usageLimit,
      per_member_limit: terms.perMemberLimit ?? null,
      used: 0,
      blocked: 0,
      ends_at: terms.endsAt ?? null,
      created_at: now,
      updated_at: now,
    };
  }
}

function toPromoCode(row: repo.PromoCodeRow): PromoCode {
  return {
    code: row.code,
    promotionId: Number(row.promotion_id),
    usageLimit: row.usage_limit === null ? null : Number(row.usage_limit),
    perMemberLimit: row.per_member_limit === null ? null : Number(row.per_member_limit),
    used: Number(row.used),
    blocked: Number(row.blocked),
    endsAt: row.ends_at === null ? null : Number(row.ends_at),
    createdAt: Number(row.created_at),
  };
}
