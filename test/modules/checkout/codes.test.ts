import { describe, expect, it } from 'vitest';
import { PROMO_CODE_MESSAGES, screenPromoCodes } from '../../../src/modules/checkout/domain/codes.js';
import type { OrderFacts } from '../../../src/modules/checkout/domain/conditions.js';
import type { MemberFacts, PromoCodeRequest, Promotion } from '../../../src/modules/checkout/domain/types.js';
import { NOW, code, member, promotion } from './builders.js';

const order: OrderFacts = { orderTotal: 10_000, member: null, paymentType: null, stream: null, locationId: null, minutes: 900 };
const spring = promotion(1, { byPromoCode: true, discount: { kind: 'percent', percent: 1000, per: 'line' } });

function screen(requests: PromoCodeRequest[], promotions: Promotion[] = [spring], who: MemberFacts | null = null) {
  return screenPromoCodes(requests, new Map(promotions.map((p) => [p.id, p])), who, { ...order, member: who }, NOW);
}

function reasons(requests: PromoCodeRequest[], promotions?: Promotion[], who?: MemberFacts | null) {
  return screen(requests, promotions, who ?? null).map((s) => (s.ok ? 'ok' : s.failure.reason));
}

describe('checkout promo codes', () => {
  it('brings a valid code’s promotion into play', () => {
    const [first] = screen([code('SPRING', 1)]);
    expect(first).toEqual({ ok: true, code: 'SPRING', promotion: spring });
  });

  it('fails an unknown code', () => {
    expect(screen([{ code: 'NOPE', state: { found: false } }])).toEqual([
      { ok: false, failure: { code: 'NOPE', reason: 'unknown', message: 'Promo code is not found' } },
    ]);
  });

  it('fails a code past its end and a code whose promotion does not count now', () => {
    expect(reasons([code('OLD', 1, { endsAt: NOW })])).toEqual(['expired']);
    expect(reasons([code('LATER', 1, { endsAt: NOW + 1 })])).toEqual(['ok']);
    expect(reasons([code('X', 1)], [{ ...spring, status: 'archived' }])).toEqual(['inactive']);
    expect(reasons([code('X', 1)], [{ ...spring, status: 'scheduled', startsAt: NOW + 60_000 }])).toEqual(['inactive']);
    expect(reasons([code('X', 2)])).toEqual(['inactive']);
  });

  it('fails a code with no uses left', () => {
    expect(reasons([code('X', 1, { usageLeft: 0 })])).toEqual(['exhausted']);
    expect(reasons([code('X', 1, { usageLeft: 1 })])).toEqual(['ok']);
  });

  it('keeps the limit per member, and asks for a member when there is one', () => {
    expect(reasons([code('X', 1, { perMemberLimit: 1 })])).toEqual(['member_required']);
    expect(reasons([code('X', 1, { perMemberLimit: 1, memberUses: 1 })], undefined, member())).toEqual(['member_limit']);
    expect(reasons([code('X', 1, { perMemberLimit: 2, memberUses: 1 })], undefined, member())).toEqual(['ok']);
  });

  it('fails a code whose promotion’s conditions the order does not meet', () => {
    const big = { ...spring, conditions: { ...spring.conditions, minOrderTotal: 50_000 } };
    expect(reasons([code('X', 1)], [big])).toEqual(['conditions_not_met']);
  });

  it('uses one code a promotion: a repeated code and a second code of it fail', () => {
    expect(reasons([code('A', 1), code('A', 1), code('B', 1)])).toEqual(['ok', 'already_applied', 'already_applied']);
  });

  it('answers each failure with its one-sentence message', () => {
    for (const message of Object.values(PROMO_CODE_MESSAGES)) expect(message).toMatch(/^[A-Z][^.]*$/);
    expect(new Set(Object.values(PROMO_CODE_MESSAGES)).size).toBe(Object.keys(PROMO_CODE_MESSAGES).length);
  });
});
