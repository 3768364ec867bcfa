import type { Executor } from './chain-starter.js';
import type { RunRow } from './chains.repo.js';
import type { RunCount, SendCount } from './domain/stats.js';

/**
 * Kysely only: the reads of a chain's statistics and runs pages (migration 0040's indexes).
 * Every query filters by shop_id and the chain.
 */

/** A version's runs counted by step and status: an aggregate over chain_runs_chain_step, not a scan of the shop's runs. */
export async function countRunsByStep(db: Executor, shopId: string, chainId: number, version: number): Promise<RunCount[]> {
  const rows = await db
    .selectFrom('chain_runs')
    .select(['step', 'status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('shop_id', '=', shopId)
    .where('chain_id', '=', chainId)
    .where('version', '=', version)
    .groupBy(['step', 'status'])
    .execute();
  return rows.map((r) => ({ step: r.step, status: r.status, count: Number(r.n) }));
}

/**
 * A version's chain messages by send step (their `mailing_code` is `<chain>:<version>:<step>`,
 * chain-steps.ts), through the partial index messaging_messages_chain_step: deliveries
 * sent, opened and clicked; test messages left out.
 */
export async function countSendsByStep(
  db: Executor,
  shopId: string,
  chainId: number,
  version: number,
  sendSteps: readonly number[],
): Promise<SendCount[]> {
  if (sendSteps.length === 0) return [];
  const prefix = `${chainId}:${version}:`;
  const rows = await db
    .selectFrom('messaging_messages as m')
    .innerJoin('messaging_deliveries as d', (join) => join.onRef('d.shop_id', '=', 'm.shop_id').onRef('d.code', '=', 'm.code'))
    .select([
      'm.mailing_code',
      (eb) => eb.fn.count<string | number>('d.sent_at').as('sent'),
      (eb) => eb.fn.count<string | number>('d.opened_at').as('opened'),
      (eb) => eb.fn.count<string | number>('d.clicked_at').as('clicked'),
    ])
    .where('m.shop_id', '=', shopId)
    .where('m.type', '=', 'chain')
    .where('m.mailing_id', '=', chainId)
    // Equality per send step rather than a prefix: the index serves it whatever the database's collation.
    .where(
      'm.mailing_code',
      'in',
      sendSteps.map((step) => `${prefix}${step}`),
    )
    .where('m.test', '=', 0)
    .groupBy('m.mailing_code')
    .execute();
  return rows.map((r) => ({
    step: Number(r.mailing_code.slice(prefix.length)),
    sent: Number(r.sent),
    opened: Number(r.opened),
    clicked: Number(r.clicked),
  }));
}

/** A page of a chain's runs, newest first, after the run id `before` (chain_runs_chain_id). */
export async function listRunsPage(db: Executor, shopId: string, chainId: number, before: number | null, limit: number): Promise<RunRow[]> {
  let query = db.selectFrom('chain_runs').selectAll().where('shop_id', '=', shopId).where('chain_id', '=', chainId);
  if (before !== null) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}
