import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Executor } from './messaging.repo.js';
import type { DashboardRollups, MarkedOutcome } from '../dashboards/index.js';
import { markFirst, markOutcome, sentDeliveries, type Outcome, type OutcomeTarget, type SentDelivery } from './outcomes.repo.js';

/**
 * The seam through which another module (outbound webhooks) learns of message outcomes,
 * in the transaction that records them: an outcome committed is never without what the
 * hook wrote beside it. `wants` answers from memory, so that a shop with no use for an
 * outcome pays nothing: no transaction, no query.
 */

/** A messaging outcome by its column: `sent_at` (delivery.service.ts) or one of outcomes.repo.ts. */
export type HookedOutcome = 'sent_at' | Outcome;

export interface OutcomeHook {
  /**
   * Before a transaction that may record outcomes: brings what `wants` answers from up to
   * date with the admin's changes (docs/settings-caches.md). Called outside transactions.
   */
  prepare?(): Promise<void>;
  /** Synchronous and cheap; false means `recorded` need not be called for this shop and these outcomes. */
  wants(shopId: string, outcomes: readonly HookedOutcome[]): boolean;
  /** The sent deliveries the outcomes were recorded on, in the recording transaction. */
  recorded(
    executor: Executor,
    shopId: string,
    deliveries: readonly SentDelivery[],
    outcomes: readonly HookedOutcome[],
    at: number,
  ): Promise<void>;
}

/** Tells the hook, in `executor`'s transaction, of outcomes just recorded on the target's deliveries. */
export async function afterOutcome(
  executor: Executor,
  hook: OutcomeHook | undefined,
  target: OutcomeTarget,
  outcomes: readonly HookedOutcome[],
  at: number,
): Promise<void> {
  if (!hook?.wants(target.shopId, outcomes)) return;
  const deliveries = (await sentDeliveries(executor, target.shopId, target.code, target.channel)).filter(
    (d) => (target.seq === undefined || d.seq === target.seq) && (target.address === undefined || d.address === target.address),
  );
  if (deliveries.length > 0) await hook.recorded(executor, target.shopId, deliveries, outcomes, at);
}

/** What the dashboards keep of outcomes (dashboards/rollups.ts), in the recording transaction. */
export type OutcomeRollups = Pick<DashboardRollups, 'messageOutcome'>;

/** The outcomes the dashboards count (the others are only stamped). */
const COUNTED: ReadonlySet<HookedOutcome> = new Set<MarkedOutcome>(['delivered_at', 'opened_at', 'clicked_at', 'hard_bounced_at']);

/**
 * markOutcome, with the hook and the dashboards' rollups in the same transaction when
 * either wants these outcomes; the plain UPDATE otherwise. The rollups count each outcome
 * of each delivery once: it is first set by a conditional UPDATE of its own (markFirst).
 */
export async function markOutcomeHooked(
  db: Kysely<Database>,
  hook: OutcomeHook | undefined,
  target: OutcomeTarget,
  outcomes: readonly Outcome[],
  at: number,
  rollups?: OutcomeRollups,
): Promise<number> {
  await hook?.prepare?.();
  const counted = rollups ? outcomes.filter((o) => COUNTED.has(o)) : [];
  if (!hook?.wants(target.shopId, outcomes) && counted.length === 0) return markOutcome(db, target, outcomes, at);
  return db.transaction().execute(async (trx) => {
    await countFirst(trx, rollups, target, counted, at);
    const count = await markOutcome(trx, target, outcomes, at);
    if (count > 0) await afterOutcome(trx, hook, target, outcomes, at);
    return count;
  });
}

/** Sets each counted outcome where it is unset and tells the rollups of the deliveries it set. */
export async function countFirst(
  executor: Executor,
  rollups: OutcomeRollups | undefined,
  target: OutcomeTarget,
  outcomes: readonly Outcome[],
  at: number,
): Promise<void> {
  if (!rollups) return;
  for (const outcome of outcomes) {
    if (!COUNTED.has(outcome)) continue;
    await countMarked(executor, rollups, target.shopId, outcome, await markFirst(executor, target, outcome, at), at);
  }
}

/** Tells the rollups of the deliveries an outcome was first set on (by markFirst), when they count that outcome. */
export async function countMarked(
  executor: Executor,
  rollups: OutcomeRollups | undefined,
  shopId: string,
  outcome: Outcome,
  first: Awaited<ReturnType<typeof markFirst>>,
  at: number,
): Promise<void> {
  if (!rollups || !COUNTED.has(outcome) || first.length === 0) return;
  await rollups.messageOutcome(executor, shopId, outcome as MarkedOutcome, first, at);
}
