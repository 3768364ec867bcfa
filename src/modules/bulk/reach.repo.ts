import { sql, type RawBuilder } from 'kysely';
import type { Channel } from '../messaging/index.js';
import type { Executor } from './bulk.repo.js';

/**
 * Kysely only: how many distinct members of some segments a bulk mailing could reach,
 * per channel (docs/bulk.md, "Reachable audience"), in one pass over the members. Every
 * join is a primary key or an index lookup led by shop_id: segment_members
 * (shop_id, segment_id, profile_id), profiles (shop_id, id), audience_profiles
 * (shop_id, profile_id), messaging_dead_addresses (shop_id, channel, address),
 * bulk_cap_counters (shop_id, profile_id, channel, period), and the token tables'
 * (shop_id, profile_id) indexes.
 */

/** A channel's caps as counted today: null when the channel has none of that kind. */
export interface ReachCaps {
  readonly perDay: number | null;
  readonly perWeek: number | null;
  readonly day: string;
  readonly week: string;
}

export interface ChannelReachRow {
  /** Members with an address (or a token) on the channel. */
  readonly address: number;
  /** Of those, with the channel's bulk flag turned off. */
  readonly unsubscribed: number;
  /** Of those not unsubscribed, whose address is on the dead list (hard bounce, complaint, refused). */
  readonly dead: number;
  /** Of those left, over today's or this week's cap. */
  readonly overCap: number;
  readonly reachable: number;
}

export interface ReachRow {
  readonly members: number;
  /** Members reachable on at least one of the `anyOf` channels. */
  readonly reachableAny: number;
  readonly channels: ReadonlyMap<Channel, ChannelReachRow>;
}

/** The per-channel SQL facts of one member row `m` joined to `p` (profiles) and `a` (audience_profiles). */
interface ChannelSql {
  readonly address: RawBuilder<unknown>;
  readonly flagOff: RawBuilder<unknown>;
  readonly dead: RawBuilder<unknown>;
}

const FALSE = sql`1 = 0`;

function channelSql(shopId: string, channel: Channel, alias: number): ChannelSql {
  const deadOf = (column: RawBuilder<unknown>) =>
    sql`exists (select 1 from messaging_dead_addresses ${sql.raw(`x${alias}`)}
      where ${sql.raw(`x${alias}`)}.shop_id = ${shopId} and ${sql.raw(`x${alias}`)}.channel = ${channel}
      and ${sql.raw(`x${alias}`)}.address = ${column})`;
  const tokens = (table: string) =>
    sql`exists (select 1 from ${sql.table(table)} ${sql.raw(`x${alias}`)}
      where ${sql.raw(`x${alias}`)}.shop_id = ${shopId} and ${sql.raw(`x${alias}`)}.profile_id = m.profile_id)`;
  switch (channel) {
    case 'email':
      return { address: sql`p.email is not null`, flagOff: sql`coalesce(a.email_bulk, 1) = 0`, dead: deadOf(sql`p.email`) };
    case 'sms':
      return { address: sql`p.phone is not null`, flagOff: sql`coalesce(a.sms_bulk, 1) = 0`, dead: deadOf(sql`p.phone`) };
    case 'whatsapp':
    case 'max':
      return { address: sql`p.phone is not null`, flagOff: FALSE, dead: deadOf(sql`p.phone`) };
    case 'telegram':
      return { address: sql`p.telegram_id is not null`, flagOff: FALSE, dead: deadOf(sql`p.telegram_id`) };
    case 'mobile_push':
      return { address: tokens('profile_push_tokens'), flagOff: FALSE, dead: FALSE };
    case 'web_push':
      return { address: tokens('web_push_subscriptions'), flagOff: FALSE, dead: FALSE };
    case 'wallet':
      return { address: tokens('wallet_passes'), flagOff: FALSE, dead: FALSE };
  }
}

function overCapSql(shopId: string, channel: Channel, caps: ReachCaps | undefined, alias: number): RawBuilder<unknown> {
  if (!caps || (caps.perDay === null && caps.perWeek === null)) return FALSE;
  const over = (period: string, cap: number | null, n: string) =>
    cap === null
      ? FALSE
      : cap === 0
        ? sql`1 = 1`
        : sql`exists (select 1 from bulk_cap_counters ${sql.raw(n)}
            where ${sql.raw(n)}.shop_id = ${shopId} and ${sql.raw(n)}.profile_id = m.profile_id
            and ${sql.raw(n)}.channel = ${channel} and ${sql.raw(n)}.period = ${period} and ${sql.raw(n)}.count >= ${cap})`;
  return sql`(${over(caps.day, caps.perDay, `cd${alias}`)} or ${over(caps.week, caps.perWeek, `cw${alias}`)})`;
}

/**
 * The reach of the distinct members of `segmentIds` on `channels` (with `caps` per
 * channel that has any), and how many are reachable on at least one of `anyOf`.
 */
export async function countReach(
  db: Executor,
  shopId: string,
  segmentIds: readonly number[],
  channels: readonly Channel[],
  caps: ReadonlyMap<Channel, ReachCaps>,
  anyOf: readonly Channel[],
): Promise<ReachRow> {
  const columns: RawBuilder<unknown>[] = [sql`count(*) as members`];
  const reachableOf = new Map<Channel, RawBuilder<unknown>>();
  channels.forEach((channel, i) => {
    const c = channelSql(shopId, channel, i);
    const capped = overCapSql(shopId, channel, caps.get(channel), i);
    const live = sql`${c.address} and not (${c.flagOff})`;
    const reachable = sql`${live} and not (${c.dead}) and not (${capped})`;
    reachableOf.set(channel, reachable);
    const sum = (condition: RawBuilder<unknown>, name: string) =>
      sql`sum(case when ${condition} then 1 else 0 end) as ${sql.ref(`${channel}_${name}`)}`;
    columns.push(
      sum(c.address, 'address'),
      sum(sql`${c.address} and ${c.flagOff}`, 'unsubscribed'),
      sum(sql`${live} and ${c.dead}`, 'dead'),
      sum(sql`${live} and not (${c.dead}) and ${capped}`, 'over_cap'),
      sum(reachable, 'reachable'),
    );
  });
  const any = anyOf.flatMap((c) => {
    const r = reachableOf.get(c);
    return r ? [r] : [];
  });
  columns.push(
    any.length === 0 ? sql`0 as reachable_any` : sql`sum(case when ${sql.join(any, sql` or `)} then 1 else 0 end) as reachable_any`,
  );
  const result = await sql<Record<string, number | string | null>>`
    select ${sql.join(columns)}
    from (select distinct profile_id from segment_members
          where shop_id = ${shopId} and segment_id in (${sql.join([...segmentIds])})) m
    left join profiles p on p.shop_id = ${shopId} and p.id = m.profile_id
    left join audience_profiles a on a.shop_id = ${shopId} and a.profile_id = m.profile_id`.execute(db);
  const row = result.rows[0] ?? {};
  const n = (key: string) => Number(row[key] ?? 0);
  return {
    members: n('members'),
    reachableAny: n('reachable_any'),
    channels: new Map(
      channels.map((c) => [
        c,
        {
          address: n(`${c}_address`),
          unsubscribed: n(`${c}_unsubscribed`),
          dead: n(`${c}_dead`),
          overCap: n(`${c}_over_cap`),
          reachable: n(`${c}_reachable`),
        },
      ]),
    ),
  };
}
