import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/shops.service.js';
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

export interface CodeTerms {
  readonly usageLimit?: number | null | undefined;
  readonly perMemberLimit?: number | null | undefined;
  readonly endsAt?: number | null | undefined;
}

export type BlockRefusal = 'unknown' | 'expired' | 'exhausted' | 'member_required' | 'member_limit' | 'order_settled';
export type BlockOutcome =
  | { readonly ok: true; readonly code: string; readonly promotionId: number }
  | { readonly ok: false; readonly code: string; readonly reason: BlockRefusal };

export const PROMO_CODE_NOT_FOUND = 'Promo code not found.';
export const MAX_GENERATE_COUNT = 100_000;
/** Rows per INSERT: 8 parameters each stays far below SQLite's 32,766 and PostgreSQL's 65,535. */
const INSERT_CHUNK = 2_000;
/** Rounds of regenerating codes lost to collisions before giving up (each leaves fewer missing). */
const MAX_ROUNDS = 20;
/** Generated codes are for one use each unless the call says otherwise (docs/promotions.md). */
const GENERATED_USAGE_LIMIT = 1;

class Refused extends Error {
  constructor(readonly reason: BlockRefusal) {
    super(reason);
  }
}

/** Promo codes: the admin's codes and generation, and the limits the checkout holds (docs/promotions.md). */
export class PromoCodesService {
  constructor(private readonly deps: PromoCodesDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** One code for a promotion; a code the shop has already (in any case): CONFLICT. */
  async createCode(shopId: string, text: string, promotionId: number, terms: CodeTerms): Promise<PromoCode> {
    await this.deps.shops.requireShop(shopId);
    const code = normalizeCode(text);
    if (code === null) throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 letters, digits, `-` or `_`.', { field: 'code' });
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
   * Blocks one use of a code for an order (apply). Held by conditional writes only: the
   * use row (one per order and code, so a repeat apply of the order blocks nothing more),
   * the code's counter (`used + blocked < usage_limit`, not ended at the clock's now) and,
   * for a code with `per_member_limit`, the member's counter. A refusal writes nothing.
   */
  async blockUse(shopId: string, input: { orderId: string; code: string; profileId: number | null }): Promise<BlockOutcome> {
    const code = normalizeCode(input.code);
    if (code === null) return { ok: false, code: input.code, reason: 'unknown' };
    try {
      const outcome = await this.db.transaction().execute(async (trx) => {
        const blocked = await this.blockUseIn(trx, shopId, { ...input, code });
        // A refusal may follow writes of this transaction: it rolls back.
        if (!blocked.ok) throw new Refused(blocked.reason);
        return blocked;
      });
      await this.deps.db.durable();
      return outcome;
    } catch (error) {
      if (error instanceof Refused) return { ok: false, code, reason: error.reason };
      throw error;
    }
  }

  /**
   * blockUse inside the caller's transaction (the checkout's apply, which places all its
   * holds in one). A refusal may leave writes in `trx`: the caller must roll it back.
   */
  async blockUseIn(trx: Transaction<Database>, shopId: string, input: { orderId: string; code: string; profileId: number | null }): Promise<BlockOutcome> {
    const code = normalizeCode(input.code);
    if (code === null) return { ok: false, code: input.code, reason: 'unknown' };
    const refused = (reason: BlockRefusal): BlockOutcome => ({ ok: false, code, reason });
    const now = this.deps.clock.now();
    const use = { shop_id: shopId, order_id: input.orderId, code, profile_id: input.profileId, status: 'blocked' as const };
    const claimed = await repo.claimUse(trx, { ...use, created_at: now, updated_at: now });
    if (!claimed) {
      const existing = await repo.findUse(trx, shopId, input.orderId, code);
      if (existing?.status !== 'blocked') return refused('order_settled');
      const row = await repo.findCode(trx, shopId, code);
      return row ? { ok: true, code, promotionId: Number(row.promotion_id) } : refused('unknown');
    }
    const taken = await repo.takeBlock(trx, shopId, code, now);
    if (!taken) return refused(await this.whyRefused(trx, shopId, code, now));
    if (taken.per_member_limit !== null) {
      if (input.profileId === null) return refused('member_required');
      const slot = await repo.takeMemberSlot(trx, shopId, code, input.profileId, Number(taken.per_member_limit));
      if (!slot) return refused('member_limit');
    }
    return { ok: true, code, promotionId: Number(taken.promotion_id) };
  }

  /**
   * The checkout's apply, inside its transaction: the order's blocks become exactly
   * `codes` for `profileId` (a block of a code left out, or of another buyer, is given
   * back; the others are blocked). Codes are visited in one order (sorted), so that two
   * applies never lock two codes in opposite orders. Answers the refusals; any refusal
   * leaves writes in `trx`, which the caller must roll back.
   */
  async replaceBlocksIn(
    trx: Transaction<Database>,
    shopId: string,
    input: { orderId: string; profileId: number | null; codes: readonly string[]; fresh?: boolean },
  ): Promise<Map<string, BlockRefusal>> {
    const wanted = new Set(input.codes);
    // A fresh order was created in `trx`: it has blocked nothing yet.
    const old = new Map(input.fresh ? [] : (await repo.blockedCodesOf(trx, shopId, input.orderId)).map((b) => [b.code, b.profileId]));
    const refusals = new Map<string, BlockRefusal>();
    for (const code of [...new Set([...old.keys(), ...wanted])].sort()) {
      if (old.has(code) && (!wanted.has(code) || old.get(code) !== input.profileId)) {
        await this.settleIn(trx, shopId, input.orderId, 'blocked', 'released', { blocked: -1, used: 0 }, true, code);
      }
      if (!wanted.has(code)) continue;
      const blocked = await this.blockUseIn(trx, shopId, { orderId: input.orderId, code, profileId: input.profileId });
      if (!blocked.ok) refusals.set(code, blocked.reason);
    }
    return refusals;
  }

  /** The codes an order has blocked, with the buyer each was blocked for (a repeat apply does not count them against itself). */
  async blockedCodesOf(shopId: string, orderId: string): Promise<{ code: string; profileId: number | null }[]> {
    return repo.blockedCodesOf(this.db, shopId, orderId);
  }

  /** A member's uses and blocks of these codes (what its per-member limit counts). */
  async memberUsesOf(shopId: string, profileId: number, codes: readonly string[]): Promise<Map<string, number>> {
    return repo.memberTakenOf(this.db, shopId, profileId, codes);
  }

  /** Gives back the order's block of one code (the code left the cart); false when it had none. */
  async releaseUse(shopId: string, orderId: string, text: string): Promise<boolean> {
    const code = normalizeCode(text);
    if (code === null) return false;
    return (await this.settle(shopId, orderId, 'blocked', 'released', { blocked: -1, used: 0 }, true, code)) > 0;
  }

  /** Confirm: the order's blocks become uses (blocked → used), once. Answers how many. */
  async confirmUses(shopId: string, orderId: string): Promise<number> {
    return this.settle(shopId, orderId, 'blocked', 'used', { blocked: -1, used: 1 }, false);
  }

  /** confirmUses inside the caller's transaction (the checkout's confirm). */
  async confirmUsesIn(trx: Transaction<Database>, shopId: string, orderId: string): Promise<number> {
    return this.settleIn(trx, shopId, orderId, 'blocked', 'used', { blocked: -1, used: 1 }, false);
  }

  /**
   * Cancel: the order's blocks are given back and, for a completed order, its uses are
   * counted no more (and return to the member's allowance). Once.
   */
  async cancelUses(shopId: string, orderId: string): Promise<{ released: number; uncounted: number }> {
    const moved = await this.db.transaction().execute((trx) => this.cancelUsesIn(trx, shopId, orderId));
    if (moved.released + moved.uncounted > 0) await this.deps.db.durable();
    return moved;
  }

  /** cancelUses inside the caller's transaction (the checkout's cancel). */
  async cancelUsesIn(trx: Transaction<Database>, shopId: string, orderId: string): Promise<{ released: number; uncounted: number }> {
    const released = await this.settleIn(trx, shopId, orderId, 'blocked', 'released', { blocked: -1, used: 0 }, true);
    const uncounted = await this.settleIn(trx, shopId, orderId, 'used', 'cancelled', { blocked: 0, used: -1 }, true);
    return { released, uncounted };
  }

  private async settle(
    shopId: string,
    orderId: string,
    from: 'blocked' | 'used',
    to: 'released' | 'used' | 'cancelled',
    change: { blocked: -1 | 0; used: -1 | 0 | 1 },
    givesBackMemberSlot: boolean,
    code?: string,
  ): Promise<number> {
    const moved = await this.db.transaction().execute((trx) => this.settleIn(trx, shopId, orderId, from, to, change, givesBackMemberSlot, code));
    if (moved > 0) await this.deps.db.durable();
    return moved;
  }

  private async settleIn(
    trx: Transaction<Database>,
    shopId: string,
    orderId: string,
    from: 'blocked' | 'used',
    to: 'released' | 'used' | 'cancelled',
    change: { blocked: -1 | 0; used: -1 | 0 | 1 },
    givesBackMemberSlot: boolean,
    code?: string,
  ): Promise<number> {
    const now = this.deps.clock.now();
    const rows = await repo.settleUses(trx, shopId, orderId, from, to, now, code);
    // One lock order (by code) for every multi-code settle, so two never deadlock.
    rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    for (const row of rows) {
      await repo.moveCounters(trx, shopId, row.code, change, now);
      if (givesBackMemberSlot && row.profile_id !== null) await repo.giveBackMemberSlot(trx, shopId, row.code, Number(row.profile_id));
    }
    return rows.length;
  }

  /** Why takeBlock refused: read after the refusal, for the message only. */
  private async whyRefused(trx: repo.Executor, shopId: string, code: string, now: number): Promise<BlockRefusal> {
    const row = await repo.findCode(trx, shopId, code);
    if (!row) return 'unknown';
    if (row.ends_at !== null && Number(row.ends_at) <= now) return 'expired';
    return 'exhausted';
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
