import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkLadder,
  DAY_MS,
  levelFor,
  memberLevel,
  windowedSum,
  type Ladder,
  type LevelDef,
  type PurchasePoint,
} from '../../../src/modules/loyalty/domain/levels.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const silver: LevelDef = { code: 'silver', name: 'Silver', minTotal: 1_000_00, rewardPercent: 300 };
const gold: LevelDef = { code: 'gold', name: 'Gold', minTotal: 5_000_00, rewardPercent: 500 };
const ladder: Ladder = { windowDays: 30, levels: [silver, gold] };
const WINDOW = 30 * DAY_MS;

describe('windowedSum', () => {
  it('counts a purchase from its instant until exactly one window later, exclusive', () => {
    const purchases = [{ amount: 100, at: NOW }];
    expect(windowedSum(purchases, WINDOW, NOW - 1)).toBe(0);
    expect(windowedSum(purchases, WINDOW, NOW)).toBe(100);
    expect(windowedSum(purchases, WINDOW, NOW + WINDOW - 1)).toBe(100);
    expect(windowedSum(purchases, WINDOW, NOW + WINDOW)).toBe(0);
  });
});

describe('memberLevel', () => {
  it('gives no level below the lowest min_total, and the highest level reached otherwise', () => {
    expect(memberLevel(ladder, [{ amount: 999_99, at: NOW }], NOW)).toEqual({ level: null, expiresAt: null, total: 999_99 });
    expect(memberLevel(ladder, [{ amount: 1_000_00, at: NOW }], NOW).level).toEqual(silver);
    expect(
      memberLevel(
        ladder,
        [
          { amount: 3_000_00, at: NOW - DAY_MS },
          { amount: 2_000_00, at: NOW },
        ],
        NOW,
      ).level,
    ).toEqual(gold);
  });

  it('expires a level when the purchase that keeps it leaves the window', () => {
    const purchases = [
      { amount: 4_000_00, at: NOW - 10 * DAY_MS },
      { amount: 1_000_00, at: NOW - 5 * DAY_MS },
    ];
    // Gold until the 4 000 leaves (20 days from now); then 1 000 is left: silver, but gold is what expires.
    expect(memberLevel(ladder, purchases, NOW)).toEqual({ level: gold, expiresAt: NOW + 20 * DAY_MS, total: 5_000_00 });
    // At that instant the member is silver until the 1 000 leaves too.
    expect(memberLevel(ladder, purchases, NOW + 20 * DAY_MS)).toEqual({ level: silver, expiresAt: NOW + 25 * DAY_MS, total: 1_000_00 });
  });

  it('keeps a level past a purchase leaving when the rest still reaches it', () => {
    const purchases = [
      { amount: 500_00, at: NOW - 20 * DAY_MS },
      { amount: 1_000_00, at: NOW - 2 * DAY_MS },
    ];
    // The 500 leaves in 10 days, the 1 000 still holds silver; it leaves in 28 days.
    expect(memberLevel(ladder, purchases, NOW).expiresAt).toBe(NOW + 28 * DAY_MS);
  });

  it('never expires a level of min_total 0, and gives no expiry without a level', () => {
    const base: LevelDef = { code: 'base', name: 'Base', minTotal: 0, rewardPercent: 100 };
    expect(memberLevel({ windowDays: 30, levels: [base, silver] }, [], NOW)).toEqual({ level: base, expiresAt: null, total: 0 });
    expect(memberLevel({ windowDays: 30, levels: [] }, [{ amount: 1, at: NOW }], NOW)).toEqual({ level: null, expiresAt: null, total: 1 });
  });

  it('lets a purchase dated after now join the sum at its instant', () => {
    const purchases = [
      { amount: 1_000_00, at: NOW - 29 * DAY_MS },
      { amount: 1_000_00, at: NOW + DAY_MS },
    ];
    // The first leaves in one day, when the second has already joined: silver holds until the second leaves.
    expect(memberLevel(ladder, purchases, NOW).expiresAt).toBe(NOW + 31 * DAY_MS);
  });
});

describe('checkLadder', () => {
  it('accepts an empty ladder and a well-formed one', () => {
    expect(checkLadder({ windowDays: 365, levels: [] })).toEqual({ ok: true });
    expect(checkLadder(ladder)).toEqual({ ok: true });
  });

  it.each([
    [{ windowDays: 0, levels: [] }, 'window_days'],
    [{ windowDays: 3651, levels: [] }, 'window_days'],
    [{ windowDays: 1.5, levels: [] }, 'window_days'],
    [{ windowDays: 30, levels: [silver, { ...gold, code: 'silver' }] }, 'levels[1].code'],
    [{ windowDays: 30, levels: [{ ...silver, code: 'Silver' }] }, 'levels[0].code'],
    [{ windowDays: 30, levels: [{ ...silver, code: '' }] }, 'levels[0].code'],
    [{ windowDays: 30, levels: [gold, silver] }, 'levels[1].min_total'],
    [{ windowDays: 30, levels: [silver, { ...gold, minTotal: silver.minTotal }] }, 'levels[1].min_total'],
    [{ windowDays: 30, levels: Array.from({ length: 21 }, (_, i) => ({ ...silver, code: `l${i}`, minTotal: i })) }, 'levels'],
  ])('refuses %j naming %s', (input, field) => {
    const check = checkLadder(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.field).toBe(field);
  });
});

/** Ladders with strictly increasing thresholds, some with a level of 0. */
const ladderArb: fc.Arbitrary<Ladder> = fc
  .record({
    windowDays: fc.integer({ min: 1, max: 60 }),
    thresholds: fc.uniqueArray(fc.integer({ min: 0, max: 50_000 }), { minLength: 0, maxLength: 5 }),
  })
  .map(({ windowDays, thresholds }) => ({
    windowDays,
    levels: [...thresholds]
      .sort((a, b) => a - b)
      .map((minTotal, i) => ({ code: `l${i}`, name: `L${i}`, minTotal, rewardPercent: i * 100 })),
  }));

const purchasesArb: fc.Arbitrary<PurchasePoint[]> = fc.array(
  fc.record({ amount: fc.integer({ min: 1, max: 20_000 }), at: fc.integer({ min: NOW - 90 * DAY_MS, max: NOW + 10 * DAY_MS }) }),
  { maxLength: 25 },
);

describe('memberLevel properties', () => {
  it('answers the highest level whose min_total the windowed sum reaches', () => {
    fc.assert(
      fc.property(ladderArb, purchasesArb, (l, purchases) => {
        const { level, total } = memberLevel(l, purchases, NOW);
        expect(total).toBe(windowedSum(purchases, l.windowDays * DAY_MS, NOW));
        const reached = l.levels.filter((x) => x.minTotal <= total);
        expect(level).toEqual(reached.at(-1) ?? null);
        expect(level).toEqual(levelFor(l.levels, total));
      }),
    );
  });

  it('holds the level at every instant before its expiry and loses it at the expiry', () => {
    fc.assert(
      fc.property(
        ladderArb,
        purchasesArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }),
        (l, purchases, probes) => {
          const windowMs = l.windowDays * DAY_MS;
          const { level, expiresAt } = memberLevel(l, purchases, NOW);
          if (level === null || level.minTotal === 0) {
            expect(expiresAt).toBeNull();
            return;
          }
          expect(expiresAt).not.toBeNull();
          const end = expiresAt as number;
          expect(end).toBeGreaterThan(NOW);
          expect(windowedSum(purchases, windowMs, end)).toBeLessThan(level.minTotal);
          // Every instant where the sum can change, and random ones, before the expiry keep the level.
          const instants = [
            ...purchases.flatMap((p) => [p.at, p.at + windowMs, p.at + windowMs - 1]),
            ...probes.map((f) => NOW + f * (end - NOW)),
            end - 1,
          ];
          for (const t of instants) {
            if (t >= NOW && t < end) expect(windowedSum(purchases, windowMs, t)).toBeGreaterThanOrEqual(level.minTotal);
          }
        },
      ),
    );
  });

  it('does not depend on the order the purchases come in', () => {
    fc.assert(
      fc.property(ladderArb, purchasesArb, (l, purchases) => {
        expect(memberLevel(l, [...purchases].reverse(), NOW)).toEqual(memberLevel(l, purchases, NOW));
      }),
    );
  });
});
