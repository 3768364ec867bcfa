import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Executor, TransactionRow } from './loyalty.repo.js';

/**
 * The admin's reads across the ledger (docs/loyalty.md, "Admin API"): balances are
 * summed by the database from the lots, never stored. Every query names its shop.
 */

export interface MemberListFilter {
  /** Compared with the start of the member's loyalty_id, as given. */
  readonly prefix?: string;
  /** Compared with the start of the member's phone (digits only). */
  readonly phonePrefix?: string;
  /** Minor units, inclusive. */
  readonly minBalance?: number;
  readonly maxBalance?: number;
  /** Joined at or after / at or before, ms. */
  readonly joinedFrom?: number;
  readonly joinedTo?: number;
  readonly hasPending?: boolean;
}

/** A position in the member list: after the member that joined at `joinedAt` with this profile id. */
export interface MemberKey {
  readonly joinedAt: number;
  readonly profileId: number;
}

export interface MemberListRow {
  readonly profileId: number;
  readonly identifier: string;
  readonly balance: number;
  readonly pending: number;
  readonly joinedAt: number;
}

type MemberScope = ExpressionBuilder<Database & { m: Database['loyalty_members'] }, 'm'>;

/** The member's balance: its confirmed, unexpired lots' remaining (the lots index by member). */
function balanceOf(eb: MemberScope, shopId: string, now: number) {
  return eb
    .selectFrom('loyalty_lots as l')
    .select(sql<number>`coalesce(sum(l.remaining), 0)`.as('balance'))
    .where('l.shop_id', '=', shopId)
    .whereRef('l.profile_id', '=', 'm.profile_id')
    .where('l.status', '=', sql.lit('confirmed'))
    .where('l.remaining', '>', sql.lit(0))
    .where((w) => w.or([w('l.expires_at', 'is', null), w('l.expires_at', '>', now)]));
}

/** Bonuses on their way: the member's pending lots' remaining. */
function pendingOf(eb: MemberScope, shopId: string) {
  return eb
    .selectFrom('loyalty_lots as l')
    .select(sql<number>`coalesce(sum(l.remaining), 0)`.as('pending'))
    .where('l.shop_id', '=', shopId)
    .whereRef('l.profile_id', '=', 'm.profile_id')
    .where('l.status', '=', sql.lit('pending'))
    .where('l.remaining', '>', sql.lit(0));
}

/**
 * One page of the shop's members, newest member first, after `after`: `limit` rows at
 * most. The walk follows loyalty_members_joined; each member's sums read its own lots
 * through loyalty_lots_member, so a page costs its members' lots, not the shop's.
 */
export async function listMembers(
  db: Executor,
  shopId: string,
  now: number,
  filter: MemberListFilter,
  after: MemberKey | null,
  limit: number,
): Promise<MemberListRow[]> {
  let query = db
    .selectFrom('loyalty_members as m')
    .innerJoin('profiles as p', (join) => join.onRef('p.shop_id', '=', 'm.shop_id').onRef('p.id', '=', 'm.profile_id'))
    .select((eb) => [
      'm.profile_id',
      'm.created_at',
      'p.phone',
      'p.loyalty_id',
      balanceOf(eb, shopId, now).as('balance'),
      pendingOf(eb, shopId).as('pending'),
    ])
    .where('m.shop_id', '=', shopId)
    // The public identifier is the phone or the loyalty_id: a profile with neither has none to list.
    .where((eb) => eb.or([eb('p.phone', 'is not', null), eb('p.loyalty_id', 'is not', null)]));
  const { prefix, phonePrefix } = filter;
  if (prefix !== undefined) {
    query = query.where((eb) => {
      // substr, not LIKE: no wildcards to escape, and case-sensitive on both databases.
      const byCard = eb(eb.fn('substr', ['p.loyalty_id', sql.lit(1), sql.val(prefix.length)]), '=', prefix);
      if (phonePrefix === undefined) return byCard;
      return eb.or([eb(eb.fn('substr', ['p.phone', sql.lit(1), sql.val(phonePrefix.length)]), '=', phonePrefix), byCard]);
    });
  }
  if (filter.joinedFrom !== undefined) query = query.where('m.created_at', '>=', filter.joinedFrom);
  if (filter.joinedTo !== undefined) query = query.where('m.created_at', '<=', filter.joinedTo);
  if (filter.minBalance !== undefined) query = query.where((eb) => eb(balanceOf(eb, shopId, now), '>=', filter.minBalance!));
  if (filter.maxBalance !== undefined) query = query.where((eb) => eb(balanceOf(eb, shopId, now), '<=', filter.maxBalance!));
  if (filter.hasPending !== undefined) {
    const pending = (eb: MemberScope) => eb.exists(pendingLot(eb, shopId));
    query = query.where((eb) => (filter.hasPending ? pending(eb) : eb.not(pending(eb))));
  }
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('m.created_at', 'm.profile_id'), '<', eb.tuple(after.joinedAt, after.profileId)));
  }
  const rows = await query.orderBy('m.created_at', 'desc').orderBy('m.profile_id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    profileId: Number(r.profile_id),
    identifier: (r.phone ?? r.loyalty_id) as string,
    balance: Number(r.balance),
    pending: Number(r.pending),
    joinedAt: Number(r.created_at),
  }));
}

function pendingLot(eb: MemberScope, shopId: string) {
  return eb
    .selectFrom('loyalty_lots as l')
    .select('l.id')
    .where('l.shop_id', '=', shopId)
    .whereRef('l.profile_id', '=', 'm.profile_id')
    .where('l.status', '=', sql.lit('pending'))
    .where('l.remaining', '>', sql.lit(0));
}

/** The member's transactions, newest first, with ids below `before` (all when null). */
export async function listTransactionsBefore(
  db: Executor,
  shopId: string,
  profileId: number,
  before: number | null,
  limit: number,
): Promise<TransactionRow[]> {
  let query = db.selectFrom('loyalty_transactions').selectAll().where('shop_id', '=', shopId).where('profile_id', '=', profileId);
  if (before !== null) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

export interface LiabilityTotals {
  readonly outstanding: number;
  readonly pending: number;
  readonly expiring: number;
  readonly members: number;
}

/**
 * The programme's liabilities in minor units: what confirmed, unexpired lots still hold,
 * what pending lots hold, and what of the former expires in (now, expiringUntil]. One
 * aggregate over the shop's lots with something left.
 */
export async function sumLiabilities(db: Executor, shopId: string, now: number, expiringUntil: number): Promise<LiabilityTotals> {
  const sums = await db
    .selectFrom('loyalty_lots')
    .select([
      sql<string>`coalesce(sum(case when status = 'confirmed' and (expires_at is null or expires_at > ${now}) then remaining else 0 end), 0)`.as(
        'outstanding',
      ),
      sql<string>`coalesce(sum(case when status = 'pending' then remaining else 0 end), 0)`.as('pending'),
      sql<string>`coalesce(sum(case when status = 'confirmed' and expires_at > ${now} and expires_at <= ${expiringUntil} then remaining else 0 end), 0)`.as(
        'expiring',
      ),
    ])
    .where('shop_id', '=', shopId)
    .where('remaining', '>', sql.lit(0))
    .executeTakeFirstOrThrow();
  const members = await db
    .selectFrom('loyalty_members')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('shop_id', '=', shopId)
    .executeTakeFirstOrThrow();
  return {
    outstanding: Number(sums.outstanding),
    pending: Number(sums.pending),
    expiring: Number(sums.expiring),
    members: Number(members.count),
  };
}
