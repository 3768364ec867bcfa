import fc from 'fast-check';
import type {
  CartLine,
  CertificateRequest,
  CheckoutInput,
  PromoCodeRequest,
  Promotion,
  PromotionConditions,
  PromotionDiscount,
} from '../../../src/modules/checkout/domain/types.js';
import { NO_CONDITIONS, NOW } from './builders.js';

/**
 * Random checkouts: carts of up to 12 lines over a pool of 16 products (some not in the
 * feed), members or none, up to 5 promotions of every kind with random conditions and
 * priorities, codes and certificates in every state, any programme settings.
 */
const POOL = Array.from({ length: 16 }, (_, i) => `p${i}`);
const CATEGORIES = ['c0', 'c1', 'c2', 'c3'];

const lineArb = (productId: string): fc.Arbitrary<CartLine> =>
  fc.record({
    productId: fc.constant(productId),
    // Repeated prices and quantities make equal remainders, where only the tie-break keeps the order out.
    price: fc.oneof(fc.constantFrom(100, 999, 3_333), fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 5_000_000 })),
    quantity: fc.oneof(fc.constantFrom(1, 3), fc.integer({ min: 1, max: 25 })),
    discountable: fc.constantFrom(true, true, true, false),
    bonusable: fc.boolean(),
    rewardable: fc.boolean(),
  });

const discountArb: fc.Arbitrary<PromotionDiscount | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    kind: fc.constant('percent' as const),
    percent: fc.integer({ min: 1, max: 3_000 }),
    per: fc.constantFrom('line' as const, 'order' as const),
  }),
  fc.record({
    kind: fc.constant('percent' as const),
    percent: fc.integer({ min: 1, max: 10_000 }),
    per: fc.constantFrom('line' as const, 'order' as const),
  }),
  fc.record({
    kind: fc.constant('fixed' as const),
    amount: fc.integer({ min: 1, max: 2_000_000 }),
    per: fc.constantFrom('unit' as const, 'order' as const),
  }),
  fc.record({
    kind: fc.constant('special_price' as const),
    prices: fc.uniqueArray(fc.record({ productId: fc.constantFrom(...POOL), price: fc.integer({ min: 0, max: 3_000_000 }) }), {
      selector: (p) => p.productId,
      maxLength: 6,
    }),
  }),
);

const productConditionsArb: fc.Arbitrary<PromotionConditions> = fc
  .record({
    productIds: fc.oneof(fc.constant([]), fc.subarray(POOL, { maxLength: 8 })),
    categoryIds: fc.oneof(fc.constant([]), fc.subarray(CATEGORIES, { maxLength: 2 })),
  })
  .map((c) => ({ ...NO_CONDITIONS, ...c }));

const anyConditionsArb: fc.Arbitrary<PromotionConditions> = fc.record({
  productIds: fc.oneof(fc.constant([]), fc.subarray(POOL, { maxLength: 8 })),
  categoryIds: fc.oneof(fc.constant([]), fc.subarray(CATEGORIES, { maxLength: 2 })),
  minOrderTotal: fc.option(fc.integer({ min: 0, max: 20_000_000 }), { nil: null, freq: 2 }),
  streams: fc.oneof(fc.constant([]), fc.subarray(['web', 'pos'], { minLength: 1 })),
  paymentTypes: fc.oneof(fc.constant([]), fc.constant([]), fc.subarray(['card', 'cash'], { minLength: 1 })),
  locationIds: fc.constant([]),
  timeOfDay: fc.option(fc.record({ from: fc.nat(1439), to: fc.nat(1439) }), { nil: null, freq: 3 }),
  memberLevels: fc.oneof(fc.constant([]), fc.constant([]), fc.subarray(['gold', 'silver'], { maxLength: 1 })),
  firstOrderOnly: fc.constantFrom(false, false, false, true),
});

const promotionArb = (id: number): fc.Arbitrary<Promotion> =>
  fc.record({
    id: fc.constant(id),
    status: fc.constantFrom('active' as const, 'active' as const, 'active' as const, 'scheduled' as const, 'draft' as const),
    startsAt: fc.option(fc.constantFrom(NOW - 1, NOW - 1, NOW + 1), { nil: null }),
    endsAt: fc.constant(null),
    priority: fc.integer({ min: 0, max: 3 }),
    byPromoCode: fc.constantFrom(false, false, true),
    // Most promotions are bound at most to products, some to every kind of condition.
    conditions: fc.oneof({ weight: 3, arbitrary: productConditionsArb }, { weight: 1, arbitrary: anyConditionsArb }),
    discount: discountArb,
    bonusRewardPercent: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3_000 })),
  });

const codeArb = (promotionIds: number[]): fc.Arbitrary<PromoCodeRequest> =>
  fc.oneof(
    fc.record({ code: fc.constantFrom('A', 'B', 'C', 'D'), state: fc.constant({ found: false as const }) }),
    fc.record({
      code: fc.constantFrom('A', 'B', 'C', 'D'),
      state: fc.record({
        found: fc.constant(true as const),
        promotionId: promotionIds.length > 0 ? fc.constantFrom(...promotionIds) : fc.constant(99),
        endsAt: fc.option(fc.constantFrom(NOW, NOW + 1), { nil: null, freq: 4 }),
        usageLeft: fc.option(fc.nat(2), { nil: null, freq: 3 }),
        perMemberLimit: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null, freq: 3 }),
        memberUses: fc.nat(2),
      }),
    }),
  );

/**
 * A certificate as the service loads it: one state per code, the id fixed by the code
 * (a code names one certificate), so two requests of one code carry the same state.
 */
const certificateArb: fc.Arbitrary<CertificateRequest> = fc.constantFrom('G1', 'G2', 'G3').chain((code) =>
  fc.record({
    code: fc.constant(code),
    state: fc.oneof(
      fc.constant({ found: false as const }),
      fc.record({
        found: fc.constant(true as const),
        id: fc.constant(Number(code.slice(1))),
        poolId: fc.option(fc.nat(3), { nil: null }),
        balance: fc.nat(5_000_000),
        expiresAt: fc.option(fc.constantFrom(NOW, NOW + 1), { nil: null }),
        active: fc.constantFrom(true, true, true, false),
      }),
    ),
  }),
);

/** Up to three codes, each once, and now and then the first asked a second time. */
const certificatesArb: fc.Arbitrary<CertificateRequest[]> = fc
  .uniqueArray(certificateArb, { selector: (c) => c.code, maxLength: 3 })
  .chain((list) => fc.boolean().map((again) => (again && list.length > 0 ? [...list, list[0]!] : list)));

export const inputArb: fc.Arbitrary<CheckoutInput> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: 12 }),
    fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 5 })),
  )
  .chain(([ids, promotionCount]) => {
    const promotionIds = Array.from({ length: promotionCount }, (_, i) => i + 1);
    return fc.record({
      cart: fc.tuple(...ids.map(lineArb)),
      products: fc.tuple(
        ...ids.map((productId) =>
          fc.option(
            fc.record({ productId: fc.constant(productId), name: fc.constant(`N ${productId}`), categoryIds: fc.subarray(CATEGORIES) }),
            {
              nil: undefined,
              freq: 5,
            },
          ),
        ),
      ),
      member: fc.option(
        fc.record({
          identifier: fc.constant('79001234567'),
          balance: fc.oneof(fc.nat(1_000), fc.nat(10_000_000)),
          levelCode: fc.constantFrom(null, 'gold', 'silver'),
          rewardPercent: fc.option(fc.nat(10_000), { nil: null }),
          isFirstOrder: fc.boolean(),
        }),
        { nil: null, freq: 4 },
      ),
      settings: fc.record({
        rewardPercent: fc.nat(10_000),
        maxBonusSharePercent: fc.nat(10_000),
        bonusValue: fc.oneof(
          { arbitrary: fc.constantFrom(1, 33, 50, 100, 150, 200, 1_000), weight: 3 },
          { arbitrary: fc.integer({ min: 1, max: 100_000 }), weight: 1 },
        ),
      }),
      promotions: fc.tuple(...promotionIds.map(promotionArb)),
      promoCodes: fc.array(codeArb(promotionIds), { maxLength: 3 }),
      certificates: certificatesArb,
      chargeBonuses: fc.constantFrom(true, true, true, false),
      amountPercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null, freq: 2 }),
      paymentType: fc.constantFrom(null, 'card', 'cash'),
      stream: fc.constantFrom(null, 'web', 'pos'),
      currentTime: fc.constantFrom(null, '09:30', '17:31', '25:99'),
      // Lines alike but for their ids: every split among them ties, and only the tie-break decides.
      alike: fc.constantFrom(false, false, true),
    });
  })
  .map(({ amountPercent, products, member, chargeBonuses, alike, cart, ...rest }) => ({
    ...rest,
    cart: alike ? cart.map((l) => ({ ...cart[0]!, productId: l.productId })) : cart,
    products: products.filter((p) => p !== undefined),
    member,
    chargeBonuses: chargeBonuses && member !== null,
    bonusesAmount: amountPercent === null || member === null ? null : Math.floor((member.balance * amountPercent) / 100),
    locationId: null,
    now: NOW,
    timezone: 'Europe/Moscow',
  }));
