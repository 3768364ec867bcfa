/** The worked example of docs/checkout.md, as input; calculate.test.ts checks every figure the page gives. */
import type { CheckoutInput } from '../../../src/modules/checkout/domain/types.js';
import { NOW, certificate, code, input, line, member, product, promotion } from './builders.js';

export const WORKED_EXAMPLE: CheckoutInput = input({
  settings: { rewardPercent: 500, maxBonusSharePercent: 5_000, bonusValue: 100 },
  member: member({ balance: 10_000 }),
  cart: [
    line('A-coffee', 50_000, 2),
    line('B-mug', 9_999, 3),
    line('C-wrap', 5_000, 1, { discountable: false, bonusable: false, rewardable: false }),
    line('X-1', 3_000, 1),
  ],
  products: [
    product('A-coffee', ['coffee', 'food'], 'Coffee beans 1 kg'),
    product('B-mug', ['kitchen'], 'Mug'),
    product('C-wrap', [], 'Gift wrap'),
  ],
  promotions: [
    promotion(7, { priority: 10, conditions: { categoryIds: ['food'] }, discount: { kind: 'percent', percent: 1_000, per: 'line' } }),
    promotion(9, { byPromoCode: true, discount: { kind: 'fixed', amount: 10_000, per: 'order' } }),
    promotion(12, { conditions: { categoryIds: ['kitchen'] }, bonusRewardPercent: 200 }),
  ],
  promoCodes: [code('OLD', 9, { endsAt: NOW - 1 }), code('SPRING', 9)],
  certificates: [certificate('GIFT-1', 4, 5_000, { poolId: 2 }), { code: 'NOPE', state: { found: false } }],
  chargeBonuses: true,
  stream: 'web',
  currentTime: '15:00',
});
