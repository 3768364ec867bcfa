/**
 * Input no calculation answers (contract-notes "Loyalty checkout"; issue 14 "Bad input").
 * The edge checks shapes and bounds first; these are the rules that need the whole
 * request, kept here so that the calculation is total over what it accepts.
 */
import type { CheckoutProblem } from './result.js';
import type { CheckoutInput } from './types.js';

/**
 * The largest order the calculation takes, in minor units (10^13 currency units): twice
 * it is still a safe integer, which the per-unit rounding needs.
 */
export const MAX_ORDER_TOTAL = 1_000_000_000_000_000;

export function findProblem(input: CheckoutInput): CheckoutProblem | null {
  if (input.cart.length === 0) return { reason: 'empty_cart' };
  const seen = new Set<string>();
  let orderTotal = 0;
  for (const [index, line] of input.cart.entries()) {
    if (!Number.isSafeInteger(line.price) || line.price <= 0) return { reason: 'invalid_line', index, field: 'price' };
    if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0) {
      return { reason: 'invalid_line', index, field: 'quantity' };
    }
    const total = line.price * line.quantity;
    if (!Number.isSafeInteger(total) || total > MAX_ORDER_TOTAL) return { reason: 'invalid_line', index, field: 'total' };
    orderTotal += total;
  }
  if (orderTotal > MAX_ORDER_TOTAL) return { reason: 'order_too_large' };
  // Duplicates after the line checks: a cart both malformed and duplicated answers the malformed line.
  for (const line of input.cart) {
    if (seen.has(line.productId)) return { reason: 'duplicate_product', productId: line.productId };
    seen.add(line.productId);
  }
  if (input.chargeBonuses && input.member === null) return { reason: 'member_required' };
  const amount = input.bonusesAmount;
  if (amount !== null && (!Number.isSafeInteger(amount) || amount < 0)) return { reason: 'invalid_bonuses_amount' };
  if (input.chargeBonuses && amount !== null && input.member !== null && amount > input.member.balance) {
    return { reason: 'bonuses_amount_above_balance', balance: input.member.balance };
  }
  return null;
}
