import type { Clock } from '../../src/clock.js';
import type { DbHandle } from '../../src/db/create-db.js';
import type { LoyaltyLedger } from '../../src/modules/loyalty/loyalty-ledger.js';
import type { OrderPlaceScope } from '../../src/modules/order-holds/order-holds.js';

class RolledBack extends Error {}

/**
 * One step of a hold participant on one order, run as the checkout runs its steps: in a
 * transaction of its own (the order may hold something already: not fresh), rolled back
 * when `refused` says the answer is a refusal (as an apply's refusal rolls back all it
 * wrote), then made durable. Answers the participant's answer.
 */
export async function inOrderStep<T>(
  db: DbHandle,
  clock: Clock,
  order: { readonly shopId: string; readonly orderId: string; readonly profileId?: number | null },
  work: (scope: OrderPlaceScope) => Promise<T>,
  refused: (answer: T) => boolean = () => false,
): Promise<T> {
  let answer: { value: T } | undefined;
  try {
    await db.db.transaction().execute(async (trx) => {
      const scope = {
        trx,
        shopId: order.shopId,
        orderId: order.orderId,
        profileId: order.profileId ?? null,
        now: clock.now(),
        timezone: 'UTC',
        fresh: false,
      };
      answer = { value: await work(scope) };
      if (refused(answer.value)) throw new RolledBack('refused');
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  await db.durable();
  if (!answer) throw new Error('the step answered nothing');
  return answer.value;
}

/** Captures or releases a bonus hold in a transaction of its own, as its order's confirm or cancel does. False when it was not active. */
export async function settleBonusHold(
  db: DbHandle,
  ledger: Pick<LoyaltyLedger, 'settleHoldIn'>,
  shopId: string,
  holdId: number,
  outcome: 'released' | 'captured',
): Promise<boolean> {
  const settled = await db.db.transaction().execute((trx) => ledger.settleHoldIn(trx, shopId, holdId, outcome));
  await db.durable();
  return settled;
}
