import { describe, expect, it } from 'vitest';
import { payWithCertificates } from '../../../src/modules/checkout/domain/certificates.js';
import { NOW, certificate } from './builders.js';

const keys = ['A', 'B'];

describe('checkout certificates', () => {
  it('pays up to its balance, spread over the lines by what is left of them', () => {
    const plan = payWithCertificates([certificate('GIFT', 4, 1000, { poolId: 2 })], [3000, 1000], keys, NOW);
    expect(plan.payments).toEqual([{ id: 4, code: 'GIFT', poolId: 2, amount: 1000, parts: [750, 250] }]);
    expect(plan.paid).toEqual([750, 250]);
    expect(plan.failed).toEqual([]);
  });

  it('pays no more than the order has left and keeps the rest of its balance', () => {
    const plan = payWithCertificates([certificate('BIG', 4, 99_999)], [3000, 1000], keys, NOW);
    expect(plan.payments[0]?.amount).toBe(4000);
    expect(plan.paid).toEqual([3000, 1000]);
  });

  it('uses certificates in the order named, and fails one that finds nothing left to pay', () => {
    const plan = payWithCertificates(
      [certificate('ONE', 1, 3000), certificate('TWO', 2, 3000), certificate('THREE', 3, 10)],
      [3000, 1000],
      keys,
      NOW,
    );
    expect(plan.payments.map((p) => [p.code, p.amount])).toEqual([
      ['ONE', 3000],
      ['TWO', 1000],
    ]);
    expect(plan.failed).toEqual([
      { code: 'THREE', reason: 'nothing_to_pay', message: 'Order has nothing left to pay with the certificate' },
    ]);
  });

  it('fails unknown, inactive, expired and empty certificates', () => {
    const plan = payWithCertificates(
      [
        { code: 'NOPE', state: { found: false } },
        certificate('OFF', 1, 500, { active: false }),
        certificate('OLD', 2, 500, { expiresAt: NOW }),
        certificate('ZERO', 3, 0),
        certificate('OK', 5, 500, { expiresAt: NOW + 1 }),
      ],
      [3000, 1000],
      keys,
      NOW,
    );
    expect(plan.failed.map((f) => [f.code, f.reason])).toEqual([
      ['NOPE', 'unknown'],
      ['OFF', 'inactive'],
      ['OLD', 'expired'],
      ['ZERO', 'empty'],
    ]);
    expect(plan.payments.map((p) => p.code)).toEqual(['OK']);
  });

  it('uses a certificate once, named twice by code or by id', () => {
    const plan = payWithCertificates(
      [certificate('GIFT', 4, 100), certificate('GIFT', 4, 100), certificate('gift-alias', 4, 100)],
      [3000, 1000],
      keys,
      NOW,
    );
    expect(plan.payments).toHaveLength(1);
    expect(plan.failed.map((f) => f.reason)).toEqual(['already_applied', 'already_applied']);
  });
});
