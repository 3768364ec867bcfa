import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { ShopsService } from '../shops/index.js';
import { memberSearch, type MemberCursor } from './domain/member-list.js';
import type { LedgerEntry, LoyaltyService } from './loyalty.service.js';
import * as repo from './loyalty-reports.repo.js';

export interface ReportsDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly members: Pick<LoyaltyService, 'findMember'>;
}

export interface MemberListQuery {
  /** A phone or loyalty_id prefix. */
  readonly q?: string | undefined;
  /** Minor units. */
  readonly minBalance?: number | undefined;
  readonly maxBalance?: number | undefined;
  readonly joinedFrom?: number | undefined;
  readonly joinedTo?: number | undefined;
  readonly hasPending?: boolean | undefined;
  readonly limit: number;
  readonly cursor: MemberCursor | null;
}

export interface MemberSummary {
  readonly identifier: string;
  /** Minor units. */
  readonly balance: number;
  readonly pending: number;
  readonly joinedAt: number;
}

export interface MemberPage {
  readonly items: readonly MemberSummary[];
  /** Where the next page starts; null after the last. */
  readonly next: MemberCursor | null;
}

export interface TransactionPage {
  /** Newest first. */
  readonly items: readonly LedgerEntry[];
  /** The `before` of the next page; null after the last. */
  readonly nextBefore: number | null;
}

export interface Liabilities {
  /** Minor units: confirmed, unexpired bonuses not yet spent or held. */
  readonly outstanding: number;
  /** Bonuses on their way (pending lots). */
  readonly pending: number;
  /** Of the outstanding, what expires within EXPIRING_WINDOW_DAYS. */
  readonly expiring: number;
  readonly members: number;
}

export const EXPIRING_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * The admin's reads across the ledger (docs/loyalty.md, "Admin API"): the member list
 * with its filters and keyset paging, a member's transactions page by page, and the
 * programme's liabilities. Balances come from SQL sums over the lots, at the clock's now.
 */
export class LoyaltyReportsService {
  constructor(private readonly deps: ReportsDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  async listMembers(shopId: string, query: MemberListQuery): Promise<MemberPage> {
    await this.deps.shops.requireShop(shopId);
    const search = query.q === undefined || query.q === '' ? undefined : memberSearch(query.q);
    const filter: repo.MemberListFilter = {
      ...(search ? { prefix: search.prefix, ...(search.phonePrefix === undefined ? {} : { phonePrefix: search.phonePrefix }) } : {}),
      ...(query.minBalance === undefined ? {} : { minBalance: query.minBalance }),
      ...(query.maxBalance === undefined ? {} : { maxBalance: query.maxBalance }),
      ...(query.joinedFrom === undefined ? {} : { joinedFrom: query.joinedFrom }),
      ...(query.joinedTo === undefined ? {} : { joinedTo: query.joinedTo }),
      ...(query.hasPending === undefined ? {} : { hasPending: query.hasPending }),
    };
    // One more than asked tells whether a next page exists.
    const rows = await repo.listMembers(this.db, shopId, this.deps.clock.now(), filter, query.cursor, query.limit + 1);
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return {
      items: items.map(({ identifier, balance, pending, joinedAt }) => ({ identifier, balance, pending, joinedAt })),
      next: rows.length > query.limit && last ? { joinedAt: last.joinedAt, profileId: last.profileId } : null,
    };
  }

  /** A member's transactions, newest first, `limit` at a time below the id `before`. */
  async listTransactions(shopId: string, identifier: string, page: { limit: number; before: number | null }): Promise<TransactionPage> {
    const member = await this.deps.members.findMember(shopId, identifier);
    const rows = await repo.listTransactionsBefore(this.db, shopId, member.profileId, page.before, page.limit + 1);
    const items = rows.slice(0, page.limit).map(
      (r): LedgerEntry => ({
        id: Number(r.id),
        amount: Number(r.amount),
        status: r.status,
        kind: r.kind,
        orderId: r.order_id,
        reason: r.reason,
        createdAt: Number(r.created_at),
        expiresAt: r.expires_at === null ? null : Number(r.expires_at),
      }),
    );
    return { items, nextBefore: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
  }

  async liabilities(shopId: string): Promise<Liabilities> {
    await this.deps.shops.requireShop(shopId);
    const now = this.deps.clock.now();
    return repo.sumLiabilities(this.db, shopId, now, now + EXPIRING_WINDOW_DAYS * DAY_MS);
  }
}
