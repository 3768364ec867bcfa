import type pg from 'pg';
import type { Outcome } from './client.js';
import { GIFT_AMOUNT, GIFT_CODE, ONCE_CODE } from './shop.js';
import type { RaceResult } from './workload.js';

/**
 * What must hold after the cluster test's workload and faults, read from the database
 * and the SMTP peer. Each check returns the problems it found (empty: it holds), so that
 * a failure names every broken invariant at once.
 */

/** Keys acknowledged must be found exactly once; others at most once; nothing found that was never sent. */
export function onceEach(what: string, sent: ReadonlyMap<string, Outcome>, found: ReadonlyMap<string, number>): string[] {
  const problems: string[] = [];
  let missing = 0;
  let twice = 0;
  const examples: string[] = [];
  for (const [key, outcome] of sent) {
    const n = found.get(key) ?? 0;
    if (n > 1 || (outcome === 'ack' && n === 0)) {
      if (n > 1) twice += 1;
      else missing += 1;
      if (examples.length < 5) examples.push(`${key} (${outcome}) found ${n} times`);
    }
  }
  let unknown = 0;
  for (const key of found.keys()) if (!sent.has(key)) unknown += 1;
  if (missing > 0) problems.push(`${what}: ${missing} acknowledged never found`);
  if (twice > 0) problems.push(`${what}: ${twice} found more than once`);
  if (unknown > 0) problems.push(`${what}: ${unknown} found that were never sent`);
  if (examples.length > 0) problems.push(`${what}, for example: ${examples.join('; ')}`);
  return problems;
}

function count<T>(keys: Iterable<T>): Map<T, number> {
  const counts = new Map<T, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** Each stored product view, as `did item`. */
export async function storedViews(db: pg.Client, shopId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ did: string; items: string }>(`select did, items from events where shop_id = $1 and event = 'view'`, [
    shopId,
  ]);
  return count(rows.flatMap((row) => (JSON.parse(row.items) as { id: string }[]).map((item) => `${row.did} ${item.id}`)));
}

/** Each stored signed_up event, by the email of its profile (the live one it was merged into, if any). */
export async function storedSignups(db: pg.Client, shopId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ email: string }>(
    `select p.email from events e join profiles p on p.shop_id = e.shop_id and p.id = e.profile_id
      where e.shop_id = $1 and e.event = 'signed_up'`,
    [shopId],
  );
  return count(rows.map((row) => row.email));
}

/**
 * Devices linked to one email through different nodes at once: one live profile holds the
 * email, and every device whose /profile/set was acknowledged leads to it (a request sent
 * straight to the node killed under it may be lost, as the app would see).
 */
export async function checkLink(
  db: pg.Client,
  shopId: string,
  email: string,
  dids: readonly string[],
  outcomes: readonly Outcome[],
): Promise<string[]> {
  const problems: string[] = [];
  const acknowledged = dids.filter((_, i) => outcomes[i] === 'ack');
  if (acknowledged.length < dids.length / 2)
    problems.push(`link: only ${acknowledged.length} of ${dids.length} /profile/set were acknowledged`);
  const live = await db.query<{ id: string }>(`select id from profiles where shop_id = $1 and email = $2 and merged_into is null`, [
    shopId,
    email,
  ]);
  if (live.rows.length !== 1) {
    problems.push(`link: ${live.rows.length} live profiles hold ${email}, not 1`);
    return problems;
  }
  const owner = String(live.rows[0]!.id);
  const merged = await db.query<{ id: string; merged_into: string | null }>(`select id, merged_into from profiles where shop_id = $1`, [
    shopId,
  ]);
  const into = new Map(merged.rows.map((row) => [String(row.id), row.merged_into === null ? null : String(row.merged_into)]));
  const liveOf = (id: string): string => {
    let current = id;
    for (let hops = 0; hops < 100; hops += 1) {
      const next = into.get(current);
      if (next === null || next === undefined) return current;
      current = next;
    }
    return `a loop from ${id}`;
  };
  const devices = await db.query<{ did: string; profile_id: string }>(
    `select did, profile_id from devices where shop_id = $1 and did = any($2)`,
    [shopId, acknowledged],
  );
  if (devices.rows.length !== acknowledged.length) problems.push(`link: ${devices.rows.length} of ${acknowledged.length} devices stored`);
  const elsewhere = devices.rows.filter((row) => liveOf(String(row.profile_id)) !== owner).length;
  if (elsewhere > 0) problems.push(`link: ${elsewhere} devices do not lead to the profile holding ${email}`);
  return problems;
}

/** The single-use code was used by one order; the certificate paid no more than its amount and exactly what confirmed orders took. */
export async function checkCheckoutRace(db: pg.Client, shopId: string, race: RaceResult): Promise<string[]> {
  const problems: string[] = [];
  if (race.other.length > 0)
    problems.push(`checkout race: ${race.other.length} requests failed, e.g. ${race.other.slice(0, 3).join('; ')}`);
  const confirmed = new Set(race.confirmed);
  const withCode = race.applied.filter((a) => a.code && confirmed.has(a.orderId)).length;
  if (withCode !== 1) problems.push(`checkout race: ${withCode} confirmed orders took ${ONCE_CODE}, not 1`);
  const code = await db.query<{ used: number; blocked: number }>(`select used, blocked from promo_codes where shop_id = $1 and code = $2`, [
    shopId,
    ONCE_CODE,
  ]);
  const row = code.rows[0];
  if (!row || Number(row.used) !== 1 || Number(row.blocked) !== 0)
    problems.push(`checkout race: ${ONCE_CODE} used ${row?.used}, blocked ${row?.blocked}`);
  const uses = await db.query<{ n: string }>(
    `select count(*) as n from promo_code_uses where shop_id = $1 and code = $2 and status = 'used'`,
    [shopId, ONCE_CODE],
  );
  if (Number(uses.rows[0]?.n) !== 1) problems.push(`checkout race: ${uses.rows[0]?.n} uses of ${ONCE_CODE} recorded, not 1`);
  const certificate = await db.query<{ amount: number; balance: number; held: number }>(
    `select amount, balance, held from certificates where shop_id = $1 and code = $2`,
    [shopId, GIFT_CODE],
  );
  const gift = certificate.rows[0];
  const paid = race.applied.filter((a) => confirmed.has(a.orderId)).reduce((sum, a) => sum + Math.round(a.certificate * 100), 0);
  if (!gift) problems.push(`checkout race: no certificate ${GIFT_CODE}`);
  else {
    if (Number(gift.amount) !== GIFT_AMOUNT * 100) problems.push(`checkout race: the certificate's amount is ${gift.amount}`);
    if (Number(gift.balance) < 0 || Number(gift.held) !== 0)
      problems.push(`checkout race: certificate balance ${gift.balance}, held ${gift.held}`);
    if (Number(gift.amount) - Number(gift.balance) !== paid)
      problems.push(
        `checkout race: the certificate lost ${Number(gift.amount) - Number(gift.balance)} but confirmed orders were paid ${paid}`,
      );
    if (Number(gift.balance) !== 0) problems.push(`checkout race: the certificate kept ${gift.balance} although more orders asked for it`);
  }
  return problems;
}

/**
 * Every member's bonus ledger adds up: what its credited lots lost is what its live holds
 * and debits took, and the balance the admin API shows is what its confirmed lots keep.
 */
export async function checkLedgers(db: pg.Client, shopId: string, balances: ReadonlyMap<string, number>): Promise<string[]> {
  const problems: string[] = [];
  const lots = await db.query<{ profile_id: string; amount: string; remaining: string; confirmed_remaining: string }>(
    `select profile_id, sum(amount) as amount, sum(remaining) as remaining,
            sum(case when status = 'confirmed' and (expires_at is null or expires_at > $2) then remaining else 0 end) as confirmed_remaining
       from loyalty_lots where shop_id = $1 group by profile_id`,
    [shopId, Date.now()],
  );
  const taken = await db.query<{ profile_id: string; amount: string }>(
    `select profile_id, sum(abs(amount)) as amount from (
        select profile_id, amount from loyalty_holds where shop_id = $1 and status in ('active', 'captured')
        union all
        select profile_id, amount from loyalty_transactions where shop_id = $1 and entry = 'debit'
      ) t group by profile_id`,
    [shopId],
  );
  const takenBy = new Map(taken.rows.map((row) => [String(row.profile_id), Number(row.amount)]));
  const phones = await db.query<{ id: string; phone: string }>(`select id, phone from profiles where shop_id = $1 and phone is not null`, [
    shopId,
  ]);
  const phoneOf = new Map(phones.rows.map((row) => [String(row.id), row.phone]));
  let checked = 0;
  for (const row of lots.rows) {
    const lost = Number(row.amount) - Number(row.remaining);
    const took = takenBy.get(String(row.profile_id)) ?? 0;
    if (lost !== took) problems.push(`ledger of profile ${row.profile_id}: lots lost ${lost}, holds and debits took ${took}`);
    const phone = phoneOf.get(String(row.profile_id));
    const shown = phone === undefined ? undefined : balances.get(phone);
    if (shown !== undefined) {
      checked += 1;
      if (Math.round(shown * 100) !== Number(row.confirmed_remaining))
        problems.push(`ledger of ${phone}: the API shows ${shown}, its confirmed lots keep ${Number(row.confirmed_remaining) / 100}`);
    }
  }
  if (checked !== balances.size) problems.push(`ledger: ${checked} of ${balances.size} members' balances compared`);
  return problems;
}

/** The scheduled chains (expiry sweeps, level recomputes, model rebuilds, feed fetches, audit pruning): one pending link each. */
export async function checkSchedules(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query<{ name: string; payload: string; n: string }>(
    `select name, payload::jsonb - 'at' as payload, count(*) as n from jobs
      where status in ('queued', 'running')
        and name in ('catalog.fetch', 'loyalty.sweep', 'loyalty.levels', 'recommendations.rebuild', 'audit.prune')
        and coalesce(payload::jsonb -> 'at', 'null'::jsonb) <> 'null'::jsonb
      group by name, payload::jsonb - 'at'`,
  );
  return rows
    .filter((row) => Number(row.n) !== 1)
    .map((row) => `schedule ${row.name} ${JSON.stringify(row.payload)}: ${row.n} pending links, not 1`);
}
