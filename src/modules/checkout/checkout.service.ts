import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { CheckoutOrderStatus } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { PUBLIC_MEMBER_NOT_FOUND } from '../loyalty/index.js';
import type { LoyaltyService } from '../loyalty/index.js';
import type { BlockRefusal } from '../promotions/index.js';
import type { ShopsService } from '../shops/index.js';
import type { TrackingSubscriber } from '../tracking/index.js';
import type { CheckoutInputs, OwnHolds } from './checkout-inputs.js';
import type { CheckoutSettle } from './checkout-settle.js';
import * as repo from './checkout.repo.js';
import {
  COULD_NOT_APPLY,
  COULD_NOT_CANCEL,
  COULD_NOT_CONFIRM,
  ORDER_NOT_FOUND,
  type CheckoutAnswer,
  type CheckoutOrder,
  type CheckoutRequest,
  type CheckoutShop,
  type StoredCalculation,
} from './checkout.types.js';
import { calculateCheckout } from './domain/calculate.js';
import type { CheckoutProblem } from './domain/result.js';
import type { PromoCodeState } from './domain/types.js';
import { KeyedMutex } from './keyed-mutex.js';
import { readStoredCalculation, readStoredRequest, writeStoredCalculation, writeStoredRequest } from './stored-calculation.js';

export interface CheckoutDeps {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly members: Pick<LoyaltyService, 'findMember'>;
  readonly inputs: CheckoutInputs;
  readonly settle: CheckoutSettle;
}

export const CHECKOUT_SUBSCRIBER = 'checkout.orders';
/** Rounds of an apply whose hold lost a race: each round reloads, and refused codes stay refused. */
const APPLY_ROUNDS = 4;
export const HISTORY_LIMIT = 500;

/**
 * The loyalty checkout (docs/checkout.md "Orders"): estimate, apply, confirm, cancel and
 * the member's history. The calculation is domain/calculate.ts; the holds and what confirm
 * and cancel do with them are checkout-settle.ts. An order moves between statuses by one
 * conditional UPDATE; in this process the operations on one order also run one at a time.
 */
export class CheckoutService {
  private readonly orders = new KeyedMutex();

  constructor(private readonly deps: CheckoutDeps) {}

  private get db() {
    return this.deps.db.db;
  }

  /** The calculation alone: nothing is stored or held. */
  async estimate(shop: CheckoutShop, request: CheckoutRequest): Promise<CheckoutAnswer> {
    const loaded = await this.deps.inputs.load(shop, request, null, new Map());
    const outcome = calculateCheckout(loaded.input);
    if (!outcome.ok) return refusal(outcome.problem, loaded.member?.identifier ?? request.identifier ?? '');
    const result = await this.deps.inputs.withReferral(shop.shopId, loaded.member?.profileId ?? null, outcome.result);
    return answer(request, loaded.member?.identifier ?? null, result);
  }

  /**
   * Creates the order (created) and holds what it uses; a repeat for a created order
   * recomputes and replaces its holds; a completed or cancelled one is refused (409).
   */
  async apply(shop: CheckoutShop, request: CheckoutRequest): Promise<CheckoutAnswer> {
    const orderId = request.orderId;
    if (orderId === null) throw new AppError('VALIDATION_FAILED', 'Parameter `order_id` is required.', { field: 'order_id' });
    return this.orders.run(`${shop.shopId}\n${orderId}`, () => this.applyLocked(shop, request, orderId));
  }

  private async applyLocked(shop: CheckoutShop, request: CheckoutRequest, orderId: string): Promise<CheckoutAnswer> {
    const { shopId } = shop;
    const existing = await repo.findOrder(this.db, shopId, orderId);
    if (existing && existing.status !== 'created') throw new AppError('CONFLICT', COULD_NOT_APPLY);
    const bonusHoldId = existing?.bonus_hold_id == null ? null : Number(existing.bonus_hold_id);
    const own: OwnHolds = {
      orderId,
      stored: existing !== undefined,
      profileId: existing?.profile_id == null ? null : Number(existing.profile_id),
      bonusHoldId,
    };
    const forced = new Map<string, PromoCodeState>();
    for (let round = 0; round < APPLY_ROUNDS; round += 1) {
      const loaded = await this.deps.inputs.load(shop, request, own, forced);
      const outcome = calculateCheckout(loaded.input);
      if (!outcome.ok) return refusal(outcome.problem, loaded.member?.identifier ?? request.identifier ?? '');
      const profileId = loaded.member?.profileId ?? null;
      const result = await this.deps.inputs.withReferral(shopId, profileId, outcome.result);
      const calculation: StoredCalculation = { result, holds: outcome.holds };
      const placed = await this.deps.settle.apply({
        shopId,
        timezone: shop.timezone,
        orderId,
        existing: existing !== undefined,
        previousBonusHoldId: bonusHoldId,
        profileId,
        calculation,
        row: {
          profile_id: profileId,
          identifier: loaded.member?.identifier ?? null,
          request: writeStoredRequest(request),
          result: writeStoredCalculation(calculation),
          order_total: result.orderTotal,
          order_to_pay: result.orderToPay,
          bonuses_charged: outcome.holds.bonuses,
          bonuses_reward: result.bonusesReward,
          subscription: loaded.subscription,
          updated_at: this.deps.clock.now(),
        },
      });
      if (placed.ok) return answer(request, loaded.member?.identifier ?? null, result);
      // The transaction rolled back: the order holds what it held before; the next round computes against fresh counts.
      for (const [code, reason] of placed.refusedCodes) {
        const state = loaded.input.promoCodes.find((c) => c.code === code)?.state;
        if (state) forced.set(code, refusedState(state, reason, loaded.input.now));
      }
    }
    throw new AppError('CONFLICT', 'The bonuses or certificates of the order changed while it was applied; try again.');
  }

  /**
   * created → completed, once; then the holds are spent and the reward credited. A
   * completed order answers its result again (finishing steps a crash cut short); a
   * cancelled one is refused (409).
   */
  async confirm(shopId: string, orderId: string): Promise<CheckoutAnswer> {
    await this.deps.shops.requireShop(shopId);
    return this.orders.run(`${shopId}\n${orderId}`, async () => {
      let row = await this.requireOrder(shopId, orderId);
      if (row.status === 'created') {
        if (await this.deps.settle.holdsIntact(shopId, row)) await this.deps.settle.confirm(shopId, orderId, 'created');
        row = await this.requireOrder(shopId, orderId);
        // Still created: its holds are gone. (Another process's confirm or cancel moves the
        // status and its holds in one commit, so holds seen gone are seen with the new status.)
        if (row.status === 'created') {
          throw new AppError('CONFLICT', 'Could not confirm order whose holds were released; apply it again.');
        }
      }
      if (row.status !== 'completed') throw new AppError('CONFLICT', COULD_NOT_CONFIRM);
      // A confirm whose steps did not all run (a crash before the last of them) is finished.
      if (!row.steps_done) await this.deps.settle.confirm(shopId, orderId, 'completed');
      const order = toOrder(row);
      return answer(order.request, order.identifier, order.calculation.result);
    });
  }

  /**
   * created or completed → cancelled, once; then everything held is released, or for a
   * completed order refunded and the reward taken back. A cancelled order is final (409).
   */
  async cancel(shopId: string, orderId: string): Promise<CheckoutOrder> {
    await this.deps.shops.requireShop(shopId);
    return this.orders.run(`${shopId}\n${orderId}`, async () => {
      const row = await this.requireOrder(shopId, orderId);
      if (row.status === 'cancelled') {
        if (!row.steps_done) await this.deps.settle.cancel(shopId, orderId, 'cancelled');
        throw new AppError('CONFLICT', COULD_NOT_CANCEL);
      }
      if (!(await this.deps.settle.cancel(shopId, orderId, row.status))) throw new AppError('CONFLICT', COULD_NOT_CANCEL);
      return toOrder(await this.requireOrder(shopId, orderId));
    });
  }

  /** GET /loyalty/checkout/history: the member's orders, newest first, in every status. */
  async history(shopId: string, identifier: string): Promise<CheckoutOrder[]> {
    const member = await this.findMember(shopId, identifier);
    if (!member) throw new AppError('NOT_FOUND', PUBLIC_MEMBER_NOT_FOUND);
    return (await repo.listMemberOrders(this.db, shopId, member.profileId, HISTORY_LIMIT)).map(toOrder);
  }

  /** A member's orders computed with a paid subscription (the row's `subscription`), newest first, created within [from, to). */
  async subscriptionOrders(
    shopId: string,
    filter: { subscription: string; profileId: number; from: number | undefined; to: number | undefined; limit: number },
  ): Promise<{ orderId: string; status: CheckoutOrderStatus; createdAt: number; result: StoredCalculation['result'] }[]> {
    const rows = await repo.listSubscriptionOrders(this.db, shopId, filter);
    return rows.map((r) => ({
      orderId: r.order_id,
      status: r.status,
      createdAt: Number(r.created_at),
      result: readStoredCalculation(r.result).result,
    }));
  }

  /** Whether any of these profiles (a customer's ids, merged ones included) has a completed order. */
  hasCompletedOrder(shopId: string, profileIds: readonly number[]): Promise<boolean> {
    return repo.hasCompletedOrderOfAny(this.db, shopId, profileIds);
  }

  /** The admin list, newest first; an identifier that names no member lists nothing. */
  async listOrders(
    shopId: string,
    filter: { status?: CheckoutOrderStatus | undefined; identifier?: string | undefined; after?: string | undefined; limit: number },
  ): Promise<{ orders: CheckoutOrder[]; nextAfter: string | null }> {
    await this.deps.shops.requireShop(shopId);
    let profileId: number | undefined;
    if (filter.identifier !== undefined) {
      const member = await this.findMember(shopId, filter.identifier);
      if (!member) return { orders: [], nextAfter: null };
      profileId = member.profileId;
    }
    const rows = await repo.listOrders(this.db, shopId, {
      status: filter.status,
      profileId,
      after: decodeCursor(filter.after),
      limit: filter.limit + 1,
    });
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    return { orders: page.map(toOrder), nextAfter: rows.length > filter.limit && last ? encodeCursor(last) : null };
  }

  async getOrder(shopId: string, orderId: string): Promise<CheckoutOrder> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findOrder(this.db, shopId, orderId);
    // The admin scope's sentences end with a period; the public contract's do not.
    if (!row) throw new AppError('NOT_FOUND', 'Order not found.');
    return toOrder(row);
  }

  /** A `purchase` event whose order_id names a created order confirms it (contract-notes "Loyalty checkout"). */
  trackingSubscriber(): TrackingSubscriber {
    const orderIdOf = (params: Readonly<Record<string, unknown>>) =>
      typeof params.order_id === 'string' && params.order_id !== '' ? params.order_id : undefined;
    return {
      name: CHECKOUT_SUBSCRIBER,
      accepts: (event) => !event.custom && event.event === 'purchase' && orderIdOf(event.params) !== undefined,
      handle: async (event) => {
        const orderId = orderIdOf(event.params);
        if (orderId === undefined) return;
        const row = await repo.findOrder(this.db, event.shopId, orderId);
        if (!row || row.status === 'cancelled') return;
        // An order that refuses the confirm (cancelled meanwhile, holds lost) is left as it is: a redelivery would change nothing.
        await this.confirm(event.shopId, orderId).catch((error: unknown) => {
          if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
        });
      },
    };
  }

  private async requireOrder(shopId: string, orderId: string): Promise<repo.OrderRow> {
    const row = await repo.findOrder(this.db, shopId, orderId);
    if (!row) throw new AppError('NOT_FOUND', ORDER_NOT_FOUND);
    return row;
  }

  private async findMember(shopId: string, identifier: string) {
    try {
      return await this.deps.members.findMember(shopId, identifier);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') {
        await this.deps.shops.requireShop(shopId);
        return undefined;
      }
      throw error;
    }
  }
}

function answer(request: CheckoutRequest, memberIdentifier: string | null, result: StoredCalculation['result']): CheckoutAnswer {
  return {
    ok: true,
    orderId: request.orderId,
    identifier: memberIdentifier ?? request.identifier ?? '',
    paymentType: request.paymentType ?? '',
    result,
  };
}

/** The calculation's refusals, worded for the endpoint's envelope (docs/checkout.md "Refusals"). */
function refusal(problem: CheckoutProblem, identifier: string): CheckoutAnswer {
  switch (problem.reason) {
    case 'duplicate_product':
      return { ok: false, duplicateProductId: problem.productId, identifier };
    case 'empty_cart':
      throw new AppError('VALIDATION_FAILED', 'Parameter `cart_items` must not be empty.', { field: 'cart_items' });
    case 'invalid_line':
      throw new AppError(
        'VALIDATION_FAILED',
        `Parameter \`cart_items[${problem.index}][${problem.field === 'total' ? 'quantity' : problem.field}]\` is too large or not positive.`,
        {
          field: 'cart_items',
        },
      );
    case 'order_too_large':
      throw new AppError('VALIDATION_FAILED', 'Parameter `cart_items` makes an order total that is too large.', { field: 'cart_items' });
    case 'member_required':
      throw new AppError('NOT_FOUND', PUBLIC_MEMBER_NOT_FOUND);
    case 'invalid_bonuses_amount':
      throw new AppError('VALIDATION_FAILED', 'Parameter `bonuses_amount` must be an integer of at least 0.', { field: 'bonuses_amount' });
    case 'bonuses_amount_above_balance':
      throw new AppError(
        'CONFLICT',
        `Parameter \`bonuses_amount\` is above the member's balance of ${(problem.balance / 100).toFixed(2)} bonuses.`,
      );
  }
}

/** A code whose block was refused, as the next round's calculation must see it. */
function refusedState(state: PromoCodeState, reason: BlockRefusal, now: number): PromoCodeState {
  if (!state.found || reason === 'unknown') return { found: false };
  if (reason === 'expired') return { ...state, endsAt: now };
  if (reason === 'member_required' || reason === 'member_limit') return { ...state, perMemberLimit: 0 };
  return { ...state, usageLeft: 0 };
}

export function toOrder(row: repo.OrderRow): CheckoutOrder {
  return {
    orderId: row.order_id,
    status: row.status,
    profileId: row.profile_id === null ? null : Number(row.profile_id),
    identifier: row.identifier,
    request: readStoredRequest(row.request),
    calculation: readStoredCalculation(row.result),
    subscription: row.subscription,
    bonusHoldId: row.bonus_hold_id === null ? null : Number(row.bonus_hold_id),
    rewardTransactionId: row.reward_transaction_id === null ? null : Number(row.reward_transaction_id),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    cancelledAt: row.cancelled_at === null ? null : Number(row.cancelled_at),
  };
}

function encodeCursor(row: repo.OrderRow): string {
  return `${Number(row.created_at)}:${row.order_id}`;
}

function decodeCursor(text: string | undefined): { createdAt: number; orderId: string } | undefined {
  if (text === undefined) return undefined;
  const at = text.indexOf(':');
  const createdAt = Number(text.slice(0, at));
  if (at <= 0 || !Number.isSafeInteger(createdAt))
    throw new AppError('VALIDATION_FAILED', 'Field `after` must be a `next_after` of a previous page.', { field: 'after' });
  return { createdAt, orderId: text.slice(at + 1) };
}
