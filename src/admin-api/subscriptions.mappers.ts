import { AppError } from '../errors.js';
import { parsePositiveAmount, toUnits } from '../modules/loyalty/domain/amount.js';
import type { Benefit } from '../modules/subscriptions/domain/benefits.js';
import type { Plan, Subscription, SubscriptionMember } from '../modules/subscriptions/subscriptions.types.js';
import type { BenefitBody, PlanBody, SubscriptionBody, SubscriptionMemberBody } from './subscriptions.schemas.js';

/** The admin edge of paid subscriptions: currency units in and out, minor units behind, ISO times. */

export function fromBenefitBodies(bodies: readonly BenefitBody[]): Benefit[] {
  return bodies.map((b, i) => {
    if (b.data_type === 'boolean') return { code: b.code, name: b.name, dataType: 'boolean', value: b.value };
    if (b.data_type === 'integer') return { code: b.code, name: b.name, dataType: 'integer', value: b.value };
    return {
      code: b.code,
      name: b.name,
      dataType: 'promos',
      promotionIds: b.promotion_ids,
      savingsLimit: savingsField(`benefits[${i}].savings_limit`, b.savings_limit),
      usageLimit: b.usage_limit,
    };
  });
}

function savingsField(field: string, units: number): number {
  if (units === 0) return 0;
  // interface.md's Benefit table types savings_limit (and what is used and left of it) as Integer.
  if (!Number.isInteger(units))
    throw new AppError('VALIDATION_FAILED', `Field \`${field}\` must be a whole number of currency units.`, { field });
  const parsed = parsePositiveAmount(units);
  if (!parsed.ok) throw new AppError('VALIDATION_FAILED', `Field \`${field}\` ${parsed.requirement}.`, { field });
  return parsed.minor;
}

export function toBenefitBody(b: Benefit): BenefitBody {
  if (b.dataType === 'boolean') return { code: b.code, name: b.name, data_type: 'boolean', value: b.value };
  if (b.dataType === 'integer') return { code: b.code, name: b.name, data_type: 'integer', value: b.value };
  return {
    code: b.code,
    name: b.name,
    data_type: 'promos',
    promotion_ids: [...b.promotionIds],
    savings_limit: toUnits(b.savingsLimit),
    usage_limit: b.usageLimit,
  };
}

export function toSubscriptionBody(s: Subscription): SubscriptionBody {
  return {
    code: s.code,
    name: s.name,
    status: s.status,
    created_at: new Date(s.createdAt).toISOString(),
    updated_at: new Date(s.updatedAt).toISOString(),
  };
}

export function toPlanBody(p: Plan): PlanBody {
  return {
    subscription: p.subscription,
    code: p.code,
    name: p.name,
    status: p.status,
    period_days: p.periodDays,
    benefits: p.benefits.map(toBenefitBody),
    created_at: new Date(p.createdAt).toISOString(),
    updated_at: new Date(p.updatedAt).toISOString(),
  };
}

export function toMemberBody(m: SubscriptionMember): SubscriptionMemberBody {
  return {
    identifier: m.identifier,
    subscription: m.subscription,
    plan: m.plan,
    active: m.active,
    paid_till: m.paidTill,
    limits_reset_date: m.limitsResetDate,
    started_on: m.startedOn,
  };
}
