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

function channelSql(shopId: string, channel: Channel, alias: number, anyDead: boolean): ChannelSql {
  const deadOf = (column: RawBuilder<unknown>) =>
    !anyDead
      ? FALSE
      : sql`exists (select 1 from messaging_dead_addresses ${sql.raw(`x${alias}`)}
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
 *
 * The inner query groups the segments' rows by member (the DISTINCT) and works out each
 * member's facts once, as 0/1 columns that are disjoint per channel: `a` has an address,
 * `u` turned the flag off, `d` is on the dead list, `c` is over a cap; reachable is
 * a − u − d − c. Being an aggregate, neither database folds it into the outer sums, so
 * no lookup is repeated per sum. Cheap or constant conditions come first in each AND.
 */
export async function countReach(
  db: Executor,
  shopId: string,
  segmentIds: readonly number[],
  channels: readonly Channel[],
  caps: ReadonlyMap<Channel, ReachCaps>,
  anyOf: readonly Channel[],
): Promise<ReachRow> {
  const facts: RawBuilder<unknown>[] = [];
  const sums: RawBuilder<unknown>[] = [sql`count(*) as members`];
  const reachableOf = new Map<Channel, RawBuilder<unknown>>();
  // A channel without dead addresses (most but email) skips the lookup per member.
  const dead = await db
    .selectFrom('messaging_dead_addresses')
    .select('channel')
    .distinct()
    .where('shop_id', '=', shopId)
    .where('channel', 'in', [...channels])
    .execute();
  const withDead = new Set(dead.map((r) => r.channel));
  channels.forEach((channel, i) => {
    const c = channelSql(shopId, channel, i, withDead.has(channel));
    const capped = overCapSql(shopId, channel, caps.get(channel), i);
    const fact = (condition: RawBuilder<unknown>, name: string) =>
      sql`max(case when ${condition} then 1 else 0 end) as ${sql.ref(`${name}${i}`)}`;
    facts.push(
      fact(c.address, 'a'),
      fact(sql`${c.flagOff} and ${c.address}`, 'u'),
      fact(sql`${c.dead} and not (${c.flagOff}) and ${c.address}`, 'd'),
      fact(sql`${capped} and not (${c.flagOff}) and not (${c.dead}) and ${c.address}`, 'c'),
    );
    const col = (name: string) => sql.ref(`f.${name}${i}`);
    const reachable = sql`(${col('a')} - ${col('u')} - ${col('d')} - ${col('c')})`;
    reachableOf.set(channel, reachable);
    const sum = (value: RawBuilder<unknown>, name: string) => sql`sum(${value}) as ${sql.ref(`${channel}_${name}`)}`;
    sums.push(
      sum(col('a'), 'address'),
      sum(col('u'), 'unsubscribed'),
      sum(col('d'), 'dead'),
      sum(col('c'), 'over_cap'),
      sum(reachable, 'reachable'),
    );
  });
  const any = anyOf.flatMap((c) => {
    const r = reachableOf.get(c);
    return r ? [r] : [];
  });
  sums.push(
    any.length === 0 ? sql`0 as reachable_any` : sql`sum(case when ${sql.join(any, sql` + `)} > 0 then 1 else 0 end) as reachable_any`,
  );
  const result = await sql<Record<string, number | string | null>>`
    select ${sql.join(sums)}
    from (
      select ${sql.join([sql`m.profile_id`, ...facts])}
      from segment_members m
      left join profiles p on p.shop_id = ${shopId} and p.id = m.profile_id
      left join audience_profiles a on a.shop_id = ${shopId} and a.profile_id = m.profile_id
      where m.shop_id = ${shopId} and m.segment_id in (${sql.join([...segmentIds])})
      group by m.profile_id
    ) f`.execute(db);
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
