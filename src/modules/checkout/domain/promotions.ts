/**
 * Promotions' discounts and how they combine (docs/checkout.md "How promotions combine"):
 * every promotion in play applies, one after another in the order of `priority`
 * (higher first, then ascending id), each to what the ones before it left of each line.
 * A line never goes below zero, and a line with `discountable: false` takes nothing.
 */
import { promotionCovers } from './conditions.js';
import { distribute, mulDivRoundHalfUp, sum } from './money.js';
import type { CartLine, ProductFacts, Promotion, PromotionDiscount } from './types.js';

/** A cart line with what the feed says of its product (undefined: not in the feed). */
export interface PricedLine extends CartLine {
  /** price × quantity, minor units. */
  readonly total: number;
  readonly product: ProductFacts | undefined;
}

export interface PromotionEffect {
  readonly promotion: Promotion;
  /** Lines the promotion concerns (for its discount and its reward alike). */
  readonly covered: readonly boolean[];
  /** Minor units it takes off each line. */
  readonly discounts: readonly number[];
}

export interface StackedOffers {
  /** Minor units all promotions took off each line together. */
  readonly offers: readonly number[];
  /** One per promotion in play, in the order they applied. */
  readonly effects: readonly PromotionEffect[];
}

/** The order in which promotions apply: higher priority first, equal priorities by ascending id. */
export function comparePromotionOrder(a: Promotion, b: Promotion): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  return a.id - b.id;
}

/** What one discount takes off the lines it may touch, given what is left of each. */
function discountOf(
  discount: PromotionDiscount,
  lines: readonly PricedLine[],
  left: readonly number[],
  eligible: readonly boolean[],
): number[] {
  const keys = lines.map((l) => l.productId);
  const base = left.map((amount, i) => (eligible[i] ? amount : 0));
  switch (discount.kind) {
    case 'percent': {
      const percent = Math.min(Math.max(discount.percent, 0), 10_000);
      if (discount.per === 'line') return base.map((amount) => mulDivRoundHalfUp(amount, percent, 10_000));
      const whole = sum(base);
      if (whole === 0) return base.map(() => 0);
      return distribute(mulDivRoundHalfUp(whole, percent, 10_000), base, keys);
    }
    case 'fixed': {
      const amount = Math.max(discount.amount, 0);
      if (discount.per === 'unit') {
        return base.map((b, i) => Math.min(b, amount * (lines[i]?.quantity ?? 0)));
      }
      const whole = sum(base);
      if (whole === 0) return base.map(() => 0);
      return distribute(Math.min(amount, whole), base, keys);
    }
    case 'special_price':
      // The unit price becomes the special price unless what is left is already lower.
      return base.map((b, i) => {
        const line = lines[i];
        const special = line && discount.prices.find((p) => p.productId === line.productId);
        if (!line || !special) return 0;
        return Math.max(0, b - Math.max(special.price, 0) * line.quantity);
      });
  }
}

/** Applies the promotions in play (already in the order of comparePromotionOrder) to the lines. */
export function stackPromotions(lines: readonly PricedLine[], promotions: readonly Promotion[]): StackedOffers {
  const left = lines.map((l) => (l.discountable ? l.total : 0));
  const effects: PromotionEffect[] = [];
  for (const promotion of promotions) {
    const covered = lines.map((line) => promotionCovers(promotion, line, line.product));
    const eligible = covered.map((c, i) => c && (lines[i]?.discountable ?? false));
    const discounts = promotion.discount ? discountOf(promotion.discount, lines, left, eligible) : lines.map(() => 0);
    discounts.forEach((d, i) => {
      left[i] = (left[i] ?? 0) - d;
    });
    effects.push({ promotion, covered, discounts });
  }
  const offers = lines.map((l, i) => (l.discountable ? l.total - (left[i] ?? 0) : 0));
  return { offers, effects };
}
