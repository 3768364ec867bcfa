import type { paths } from '../api/schema';
import { parseUnits } from './money';

/** A new plan as the admin API takes it. */
export type PlanBody = NonNullable<
  paths['/admin/v1/shops/{shop_id}/subscriptions/{code}/plans']['post']['requestBody']
>['content']['application/json'];
/** A benefit as the admin API takes it (docs/subscriptions.md). */
export type BenefitBody = PlanBody['benefits'][number];
type Plan = paths['/admin/v1/shops/{shop_id}/subscriptions/{code}/plans/{plan}']['get']['responses'][200]['content']['application/json'];
/** A benefit as the admin API answers it. */
export type Benefit = Plan['benefits'][number];

/** The most benefits a plan may hold (the server's bound, docs/subscriptions.md). */
export const MAX_BENEFITS = 100;

export type BenefitKind = 'boolean' | 'integer' | 'promos';

/** A benefit as the form holds it: every field as typed. */
export interface BenefitDraft {
  readonly code: string;
  readonly name: string;
  readonly kind: BenefitKind;
  /** "true"/"false" for a yes-or-no benefit, the number for a counted one. */
  readonly value: string;
  readonly promotions: string;
  readonly savings: string;
  readonly uses: string;
}

export function emptyBenefit(): BenefitDraft {
  return { code: '', name: '', kind: 'boolean', value: 'true', promotions: '', savings: '', uses: '' };
}

/** A saved benefit back into the form, for editing. */
export function draftOf(benefit: Benefit): BenefitDraft {
  const head = { ...emptyBenefit(), code: benefit.code, name: benefit.name };
  if (benefit.data_type === 'boolean') return { ...head, kind: 'boolean', value: benefit.value ? 'true' : 'false' };
  if (benefit.data_type === 'integer') return { ...head, kind: 'integer', value: String(benefit.value) };
  return {
    ...head,
    kind: 'promos',
    value: '0',
    promotions: benefit.promotion_ids.join(', '),
    savings: String(benefit.savings_limit),
    uses: String(benefit.usage_limit),
  };
}

/** Why a draft cannot be sent, as a key of the i18n table, naming the row's field. */
export interface DraftProblem {
  readonly index: number;
  readonly field: 'value' | 'promotions' | 'savings' | 'uses';
  readonly key: 'loyalty.subs.wholeNumber' | 'loyalty.subs.promotionIdsInvalid' | 'loyalty.amountInvalid';
}

const WHOLE = /^\d{1,9}$/;

/**
 * The drafts as the API's benefit list, or the first field that is not what it must be.
 * Codes, names and limits the server checks (and names in its 422) are passed as typed.
 */
export function benefitBodies(drafts: readonly BenefitDraft[]): { readonly benefits: BenefitBody[] } | { readonly problem: DraftProblem } {
  const benefits: BenefitBody[] = [];
  for (const [index, d] of drafts.entries()) {
    const head = { code: d.code.trim(), name: d.name.trim() };
    if (d.kind === 'boolean') {
      benefits.push({ ...head, data_type: 'boolean', value: d.value === 'true' });
      continue;
    }
    if (d.kind === 'integer') {
      if (!WHOLE.test(d.value.trim())) return { problem: { index, field: 'value', key: 'loyalty.subs.wholeNumber' } };
      benefits.push({ ...head, data_type: 'integer', value: Number(d.value.trim()) });
      continue;
    }
    const ids = d.promotions.split(/[\s,]+/).filter((s) => s !== '');
    if (ids.length === 0 || !ids.every((id) => WHOLE.test(id))) {
      return { problem: { index, field: 'promotions', key: 'loyalty.subs.promotionIdsInvalid' } };
    }
    const savings = parseUnits(d.savings);
    if (savings === null || savings < 0) return { problem: { index, field: 'savings', key: 'loyalty.amountInvalid' } };
    const uses = d.uses.trim() === '' ? '0' : d.uses.trim();
    if (!WHOLE.test(uses)) return { problem: { index, field: 'uses', key: 'loyalty.subs.wholeNumber' } };
    benefits.push({ ...head, data_type: 'promos', promotion_ids: ids.map(Number), savings_limit: savings, usage_limit: Number(uses) });
  }
  return { benefits };
}
