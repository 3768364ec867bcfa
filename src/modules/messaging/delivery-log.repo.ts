import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Insertable, Selectable } from 'kysely';
import type { MessagingDeliveriesTable, MessagingDeliveryAttemptsTable } from '../../db/tables/messaging.js';
import type { Executor } from './messaging.repo.js';

/** Each try of a delivery and an email's HTML as rendered (migration 0041); read by the admin's delivery log. */

export type AttemptRow = Selectable<MessagingDeliveryAttemptsTable>;

export async function insertAttempt(db: Executor, row: Insertable<MessagingDeliveryAttemptsTable>): Promise<void> {
  // A worker killed before its commit tries again under the same attempt number: the first record stays.
  await db
    .insertInto('messaging_delivery_attempts')
    .values(row)
    .onConflict((oc) => oc.columns(['shop_id', 'code', 'seq', 'attempt']).doNothing())
    .execute();
}

export async function listAttempts(db: Executor, shopId: string, code: string): Promise<AttemptRow[]> {
  return db
    .selectFrom('messaging_delivery_attempts')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .orderBy('seq')
    .orderBy('attempt')
    .limit(1_000)
    .execute();
}

/** Stores the HTML an email delivery was sent with, deflated (HTML shrinks several times). */
export async function saveHtml(db: Executor, shopId: string, code: string, seq: number, html: string): Promise<void> {
  const packed = deflateRawSync(Buffer.from(html, 'utf8'), { level: 1 });
  await db
    .insertInto('messaging_delivery_html')
    .values({ shop_id: shopId, code, seq, html: packed })
    .onConflict((oc) => oc.columns(['shop_id', 'code', 'seq']).doUpdateSet({ html: packed }))
    .execute();
}

export async function findHtml(db: Executor, shopId: string, code: string): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('messaging_delivery_html')
    .select(['seq', 'html'])
    .where('shop_id', '=', shopId)
    .where('code', '=', code)
    .limit(1_000)
    .execute();
  return new Map(rows.map((r) => [r.seq, inflateRawSync(r.html).toString('utf8')]));
}

/** The outcomes a delivery log search can ask for, by their column. */
export const OUTCOME_COLUMNS = {
  delivered: 'delivered_at',
  opened: 'opened_at',
  clicked: 'clicked_at',
  unsubscribed: 'unsubscribed_at',
  bounced: undefined,
  hard_bounced: 'hard_bounced_at',
  soft_bounced: 'soft_bounced_at',
  complained: 'complained_at',
  purchased: 'purchased_at',
} as const;
export type OutcomeFilter = keyof typeof OUTCOME_COLUMNS;

export interface LogSearch {
  /** The customer: deliveries to these profiles, or to this address (an email, a phone), either. */
  readonly customer?: { readonly profileIds: readonly number[]; readonly address?: string };
  readonly code?: string;
  readonly channel?: string;
  readonly status?: 'queued' | 'sent' | 'failed';
  readonly outcome?: OutcomeFilter;
  readonly type?: 'transactional' | 'bulk' | 'chain';
  readonly test?: boolean;
  /** created_at from (inclusive) and to (exclusive), epoch ms. */
  readonly from?: number;
  readonly to?: number;
  /** The key of the previous page's last row: [created_at, code, seq]. */
  readonly after?: readonly [number, string, number] | null;
  readonly limit: number;
}

/**
 * The delivery log newest first, `created_at` desc then code and seq, a keyset page of
 * `limit` rows. Each filter has an index led by shop_id and ending in created_at
 * (migration 0041: one per outcome a partial index; the address and code ones of 0025),
 * so a page reads one index range.
 */
export async function searchLog(db: Executor, shopId: string, search: LogSearch): Promise<DeliveryLogRow[]> {
  if (search.outcome === 'bounced') {
    // Hard or soft: two reads of their partial indexes, merged in the log's order, rather than an OR no index serves.
    const [hard, soft] = await Promise.all([
      searchLog(db, shopId, { ...search, outcome: 'hard_bounced' }),
      searchLog(db, shopId, { ...search, outcome: 'soft_bounced' }),
    ]);
    const seen = new Set<string>();
    return [...hard, ...soft]
      .filter((r) => !seen.has(`${r.code}.${r.seq}`) && seen.add(`${r.code}.${r.seq}`))
      .sort((x, y) => Number(y.created_at) - Number(x.created_at) || (x.code < y.code ? -1 : x.code > y.code ? 1 : x.seq - y.seq))
      .slice(0, search.limit);
  }
  let query = db.selectFrom('messaging_deliveries').selectAll().where('shop_id', '=', shopId);
  const customer = search.customer;
  if (customer) {
    query = query.where((eb) =>
      eb.or([
        ...(customer.profileIds.length > 0 ? [eb('profile_id', 'in', [...customer.profileIds])] : []),
        ...(customer.address !== undefined ? [eb('address', '=', customer.address)] : []),
        ...(customer.profileIds.length === 0 && customer.address === undefined ? [eb.lit(false)] : []),
      ]),
    );
  }
  if (search.code !== undefined) query = query.where('code', '=', search.code);
  if (search.channel !== undefined) query = query.where('channel', '=', search.channel);
  if (search.status !== undefined) query = query.where('status', '=', search.status);
  if (search.type !== undefined) query = query.where('type', '=', search.type);
  if (search.test !== undefined) query = query.where('test', '=', search.test ? 1 : 0);
  if (search.from !== undefined) query = query.where('created_at', '>=', search.from);
  if (search.to !== undefined) query = query.where('created_at', '<', search.to);
  if (search.outcome !== undefined) {
    const column = OUTCOME_COLUMNS[search.outcome];
    if (column !== undefined) query = query.where(column, 'is not', null);
  }
  if (search.after) {
    const [at, code, seq] = search.after;
    query = query
      .where('created_at', '<=', at)
      .where((eb) => eb.or([eb('created_at', '<', at), eb('code', '>', code), eb.and([eb('code', '=', code), eb('seq', '>', seq)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('code').orderBy('seq').limit(search.limit).execute();
}

export type DeliveryLogRow = Selectable<MessagingDeliveriesTable>;
