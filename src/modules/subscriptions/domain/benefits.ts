/**
 * Plans' benefits (interface.md, Benefit; admin-api.md, "Paid subscriptions"). Pure:
 * the checks a plan's benefits must pass, and what a promos benefit has left in a period.
 * Money is minor units; the admin edge converts currency units.
 */

export type BenefitDataType = 'boolean' | 'integer' | 'promos';

export type Benefit =
  | { readonly code: string; readonly name: string; readonly dataType: 'boolean'; readonly value: boolean }
  | { readonly code: string; readonly name: string; readonly dataType: 'integer'; readonly value: number }
  | {
      readonly code: string;
      readonly name: string;
      readonly dataType: 'promos';
      readonly promotionIds: readonly number[];
      /** Minor units of discount per billing period. */
      readonly savingsLimit: number;
      /** Orders per billing period that may take the benefit's promotions. */
      readonly usageLimit: number;
    };

export type PromosBenefit = Extract<Benefit, { dataType: 'promos' }>;

/** interface.md, Limits: "integer benefit value 0 to 1,000,000". */
export const INTEGER_BENEFIT_MAX = 1_000_000;
export const MAX_BENEFITS = 100;
export const MAX_BENEFIT_PROMOTIONS = 100;
export const MAX_USAGE_LIMIT = 1_000_000;
export const CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const CODE_PATTERN_TEXT = '^[A-Za-z0-9_-]{1,64}$';
export const NAME_MAX_LENGTH = 255;
export const PERIOD_DAYS_MAX = 3660;

export type BenefitsProblem = { readonly field: string; readonly message: string };

/** The first problem of a plan's benefits, or undefined when they may be stored. */
export function findBenefitsProblem(benefits: readonly Benefit[]): BenefitsProblem | undefined {
  if (benefits.length === 0) return { field: 'benefits', message: 'Field `benefits` must hold at least one benefit.' };
  if (benefits.length > MAX_BENEFITS)
    return { field: 'benefits', message: `Field \`benefits\` must hold at most ${MAX_BENEFITS} benefits.` };
  const codes = new Set<string>();
  for (const [i, b] of benefits.entries()) {
    const at = `benefits[${i}]`;
    if (!CODE_PATTERN.test(b.code))
      return { field: `${at}.code`, message: `Field \`${at}.code\` must be 1 to 64 letters, digits, \`-\` or \`_\`.` };
    if (codes.has(b.code)) return { field: `${at}.code`, message: `Benefit code \`${b.code}\` is used twice in the plan.` };
    codes.add(b.code);
    if (b.name.length === 0 || b.name.length > NAME_MAX_LENGTH) {
      return { field: `${at}.name`, message: `Field \`${at}.name\` must be 1 to ${NAME_MAX_LENGTH} characters.` };
    }
    if (b.dataType === 'integer' && (!Number.isSafeInteger(b.value) || b.value < 0 || b.value > INTEGER_BENEFIT_MAX)) {
      return { field: `${at}.value`, message: `Field \`${at}.value\` of an integer benefit must be an integer from 0 to 1,000,000.` };
    }
    if (b.dataType === 'promos') {
      const ids = b.promotionIds;
      if (ids.length === 0 || ids.length > MAX_BENEFIT_PROMOTIONS || new Set(ids).size !== ids.length) {
        return {
          field: `${at}.promotion_ids`,
          message: `Field \`${at}.promotion_ids\` must list 1 to ${MAX_BENEFIT_PROMOTIONS} distinct promotions.`,
        };
      }
      if (!Number.isSafeInteger(b.usageLimit) || b.usageLimit < 0 || b.usageLimit > MAX_USAGE_LIMIT) {
        return { field: `${at}.usage_limit`, message: `Field \`${at}.usage_limit\` must be an integer from 0 to ${MAX_USAGE_LIMIT}.` };
      }
      if (!Number.isSafeInteger(b.savingsLimit) || b.savingsLimit < 0) {
        return { field: `${at}.savings_limit`, message: `Field \`${at}.savings_limit\` must be an amount of at least 0.` };
      }
    }
  }
  return undefined;
}

/** A promos benefit's counters in one period (minor units; uses). */
export interface PeriodUsage {
  readonly savingsUsed: number;
  readonly savingsHeld: number;
  readonly usageUsed: number;
  readonly usageHeld: number;
}

export const NO_USAGE: PeriodUsage = { savingsUsed: 0, savingsHeld: 0, usageUsed: 0, usageHeld: 0 };

export interface BenefitAllowance {
  readonly savingsLimit: number;
  /** Counted and held: an applied order has taken it until it is cancelled. */
  readonly savingsUsed: number;
  readonly savingsLeft: number;
  readonly usageLimit: number;
  readonly usageUsed: number;
  readonly usageLeft: number;
}

/**
 * What a promos benefit has used and left in a period. Held amounts count as used: an
 * order applied and not yet paid has taken them (docs/subscriptions.md, "Holds"). Never
 * negative, even if a plan's limit was lowered below what the period already used.
 */
export function allowanceOf(benefit: PromosBenefit, usage: PeriodUsage): BenefitAllowance {
  const savingsUsed = usage.savingsUsed + usage.savingsHeld;
  const usageUsed = usage.usageUsed + usage.usageHeld;
  return {
    savingsLimit: benefit.savingsLimit,
    savingsUsed,
    savingsLeft: Math.max(0, benefit.savingsLimit - savingsUsed),
    usageLimit: benefit.usageLimit,
    usageUsed,
    usageLeft: Math.max(0, benefit.usageLimit - usageUsed),
  };
}
