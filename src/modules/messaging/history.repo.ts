import type { Executor, DeliveryRow } from './messaging.repo.js';

/** Reads of the message history (GET /notifications and its counters, the admin's delivery log). */

export interface HistoryFilter {
  readonly profileIds: readonly number[];
  readonly types?: readonly string[];
  readonly channels?: readonly string[];
  readonly sentFrom?: number;
}

/** Sent, non-test deliveries of the profiles, newest first. */
export async function listSent(
  db: Executor,
  shopId: string,
  filter: HistoryFilter,
  page: { limit: number; offset: number },
): Promise<DeliveryRow[]> {
  if (filter.profileIds.length === 0) return [];
  let query = db
    .selectFrom('messaging_deliveries')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', [...filter.profileIds])
    .where('test', '=', 0)
    .where('status', '=', 'sent');
  if (filter.types) query = query.where('type', 'in', [...filter.types] as DeliveryRow['type'][]);
  if (filter.channels) query = query.where('channel', 'in', [...filter.channels]);
  if (filter.sentFrom !== undefined) query = query.where('sent_at', '>=', filter.sentFrom);
  return query.orderBy('sent_at', 'desc').orderBy('code').orderBy('seq').limit(page.limit).offset(page.offset).execute();
}

/** Where a page of a customer's sent messages stops: sent_at (descending), then code and seq. */
export interface SentKey {
  readonly sentAt: number;
  readonly code: string;
  readonly seq: number;
}

/**
 * Sent, non-test deliveries to these profile ids (a customer's live id and its merged
 * ones), newest first, after `after`: the index (shop_id, profile_id, sent_at) read
 * backwards from the key for each id.
 */
export async function listProfileSent(
  db: Executor,
  shopId: string,
  profileIds: readonly number[],
  after: SentKey | null,
  limit: number,
): Promise<DeliveryRow[]> {
  if (profileIds.length === 0) return [];
  let query = db
    .selectFrom('messaging_deliveries')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', [...profileIds])
    .where('sent_at', 'is not', null)
    .where('status', '=', 'sent')
    .where('test', '=', 0);
  if (after !== null) {
    const { sentAt, code, seq } = after;
    query = query
      .where('sent_at', '<=', sentAt)
      .where((eb) => eb.or([eb('sent_at', '<', sentAt), eb('code', '>', code), eb.and([eb('code', '=', code), eb('seq', '>', seq)])]));
  }
  return query.orderBy('sent_at', 'desc').orderBy('code').orderBy('seq').limit(limit).execute();
}

export interface CounterRow {
  readonly channel: string;
  readonly type: string;
  readonly sent: number;
  readonly opened: number;
  readonly clicked: number;
}

/** Sent, opened and clicked counts of the profiles' sent messages, by channel and type. */
export async function countSent(db: Executor, shopId: string, filter: HistoryFilter): Promise<CounterRow[]> {
  if (filter.profileIds.length === 0) return [];
  let query = db
    .selectFrom('messaging_deliveries')
    .select((eb) => [
      'channel',
      'type',
      eb.fn.countAll().as('sent'),
      eb.fn.count('opened_at').as('opened'),
      eb.fn.count('clicked_at').as('clicked'),
    ])
    .where('shop_id', '=', shopId)
    .where('profile_id', 'in', [...filter.profileIds])
    .where('test', '=', 0)
    .where('status', '=', 'sent');
  if (filter.types) query = query.where('type', 'in', [...filter.types] as DeliveryRow['type'][]);
  if (filter.channels) query = query.where('channel', 'in', [...filter.channels]);
  if (filter.sentFrom !== undefined) query = query.where('sent_at', '>=', filter.sentFrom);
  const rows = await query.groupBy(['channel', 'type']).execute();
  return rows.map((r) => ({
    channel: r.channel,
    type: r.type,
    sent: Number(r.sent),
    opened: Number(r.opened),
    clicked: Number(r.clicked),
  }));
}

export interface LogFilter {
  readonly code?: string;
  /** Addresses to match (an email, a phone), or the recipient's profiles. */
  readonly addresses?: readonly string[];
  readonly profileIds?: readonly number[];
  readonly limit: number;
}

/** The delivery log, newest first: every status, tests included. */
export async function listLog(db: Executor, shopId: string, filter: LogFilter): Promise<DeliveryRow[]> {
  let query = db.selectFrom('messaging_deliveries').selectAll().where('shop_id', '=', shopId);
  if (filter.code !== undefined) query = query.where('code', '=', filter.code);
  if (filter.addresses || filter.profileIds) {
    const addresses = [...(filter.addresses ?? [])];
    const profiles = [...(filter.profileIds ?? [])];
    query = query.where((eb) =>
      eb.or([
        ...(addresses.length > 0 ? [eb('address', 'in', addresses)] : []),
        ...(profiles.length > 0 ? [eb('profile_id', 'in', profiles)] : []),
        ...(addresses.length === 0 && profiles.length === 0 ? [eb.lit(false)] : []),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('code').orderBy('seq').limit(filter.limit).execute();
}
