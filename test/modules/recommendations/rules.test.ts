import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assembleBlock,
  checkRules,
  MAX_PROBLEMS,
  MAX_RULES,
  RECOMMENDERS,
  recommendersFor,
  type Rule,
  type RuleContext,
} from '../../../src/modules/recommendations/domain/rules.js';

const RULES: Rule[] = [
  {
    if: { has_item: true },
    then: [{ if: { item_in_category: 'shoes' }, then: [{ recommender: 'similar' }] }, { recommender: 'also_bought' }],
    else: [{ if: { known_customer: true }, then: [{ recommender: 'interesting' }] }, { recommender: 'popular' }],
  },
  { if: { has_cart: true }, then: [{ recommender: 'also_bought' }, { recommender: 'buying_now' }] },
  { recommender: 'trending' },
];

const problemsOf = (input: unknown) => {
  const check = checkRules(input);
  return check.ok ? [] : check.problems;
};

/** A chain of `if` rules, each holding the next in `then`, `depth` lists deep. */
function nested(depth: number): unknown {
  let rules: unknown = [{ recommender: 'popular' }];
  for (let level = 1; level < depth; level++) rules = [{ if: { has_item: true }, then: rules }];
  return rules;
}

describe('checking rules', () => {
  it('accepts a block in the admin API’s shape', () => {
    expect(checkRules(RULES)).toEqual({ ok: true, rules: RULES });
  });

  it.each([
    ['not an array', { recommender: 'popular' }, 'rules', 'must be an array of rules.'],
    ['an empty list', [], 'rules', 'A block needs at least one rule.'],
    ['a rule that is not an object', [null], 'rules[0]', expect.stringContaining('must be an object')],
    [
      'an unknown recommender deep down',
      [{ recommender: 'popular' }, { if: { has_cart: true }, then: [{ recommender: 'bestsellers' }] }],
      'rules[1].then[0].recommender',
      expect.stringContaining('must be one of popular, trending'),
    ],
    ['a recommender that is not a string', [{ recommender: ['popular'] }], 'rules[0].recommender', expect.any(String)],
    ['an unknown condition', [{ if: { has_wish: true }, then: [] }], 'rules[0].if', expect.stringContaining('{"has_item": true}')],
    ['a condition with two keys', [{ if: { has_item: true, has_cart: true }, then: [] }], 'rules[0].if', expect.any(String)],
    ['an empty condition', [{ if: {}, then: [] }], 'rules[0].if', expect.any(String)],
    ['a flag that is false', [{ if: { has_item: false }, then: [] }], 'rules[0].if.has_item', 'must be true.'],
    ['a category that is a number', [{ if: { item_in_category: 5 }, then: [] }], 'rules[0].if.item_in_category', expect.any(String)],
    ['an empty category', [{ if: { item_in_category: '' }, then: [] }], 'rules[0].if.item_in_category', expect.any(String)],
    ['an `if` without `then`', [{ if: { has_item: true } }], 'rules[0].then', 'is required with `if`.'],
    ['a `then` that is an object', [{ if: { has_item: true }, then: {} }], 'rules[0].then', 'must be an array of rules.'],
    ['an unknown field', [{ recommender: 'popular', weight: 2 }], 'rules[0].weight', expect.stringContaining('not a field')],
    ['a rule of neither kind', [{ then: [] }], 'rules[0]', 'needs `recommender` or `if`.'],
    [
      '21 rules in one list',
      Array.from({ length: 21 }, () => ({ recommender: 'popular' })),
      'rules',
      expect.stringContaining('at most 20'),
    ],
  ])('refuses %s', (_name, input, path, message) => {
    expect(problemsOf(input)).toEqual([{ path, message }]);
  });

  it('lists every problem with its path', () => {
    const input = [{ recommender: 'nope' }, { if: { has_cart: 1 }, then: [{ recommender: 'popular' }], else: [{ x: 1 }] }];
    expect(problemsOf(input).map((p) => p.path)).toEqual(['rules[0].recommender', 'rules[1].if.has_cart', 'rules[1].else[0]']);
  });

  it('takes rules five levels deep and refuses a sixth', () => {
    expect(checkRules(nested(5)).ok).toBe(true);
    expect(problemsOf(nested(6))).toEqual([
      { path: 'rules[0].then[0].then[0].then[0].then[0].then', message: 'nests too deep: rules go at most 5 levels deep.' },
    ]);
  });

  it(`refuses more than ${MAX_RULES} rules in all`, () => {
    const populars = (count: number) => Array.from({ length: count }, () => ({ recommender: 'popular' }));
    const wide: unknown[] = Array.from({ length: 20 }, () => ({ if: { has_item: true }, then: populars(4) }));
    expect(checkRules(wide).ok).toBe(true); // 20 + 20 × 4 = 100
    wide[19] = { if: { has_item: true }, then: populars(5) };
    expect(problemsOf(wide)).toEqual([
      { path: 'rules[19].then[4]', message: expect.stringContaining(`at most ${MAX_RULES} rules in all`) },
    ]);
  });

  it('stops at MAX_PROBLEMS problems', () => {
    const input = Array.from({ length: 20 }, () => ({ if: { has_item: 0 }, then: [{ recommender: 1 }], else: 'x' }));
    expect(problemsOf(input)).toHaveLength(MAX_PROBLEMS);
  });

  it('refuses a 10,000-deep tree without reading past the sixth level', () => {
    let reads = 0;
    let rules: unknown = [{ recommender: 'popular' }];
    for (let level = 1; level < 10_000; level++) {
      const inner = rules;
      const rule: Record<string, unknown> = { if: { has_item: true } };
      // From the sixth list down, where the check must not go, any read of `then` is counted.
      if (level <= 10_000 - 6) Object.defineProperty(rule, 'then', { enumerable: true, get: () => (reads++, inner) });
      else rule.then = inner;
      rules = [rule];
    }
    const started = performance.now();
    const check = checkRules(rules);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(check.ok).toBe(false);
    expect(reads).toBe(0);
  });

  it('refuses deep arrays, deep conditions and a huge list at once', () => {
    let array: unknown = [];
    for (let level = 0; level < 10_000; level++) array = [array];
    expect(problemsOf(array)).toEqual([{ path: 'rules[0]', message: expect.stringContaining('must be an object') }]);
    let condition: unknown = true;
    for (let level = 0; level < 10_000; level++) condition = { has_item: condition };
    expect(problemsOf([{ if: condition, then: [] }])).toEqual([{ path: 'rules[0].if.has_item', message: 'must be true.' }]);
    expect(problemsOf(new Array(1_000_000).fill({ recommender: 'popular' }))).toHaveLength(1);
  });

  const recommender = fc.constantFrom(...RECOMMENDERS);
  const condition = fc.oneof(
    fc.constant({ has_item: true as const }),
    fc.constant({ has_cart: true as const }),
    fc.constant({ known_customer: true as const }),
    fc.constantFrom('shoes', 'bags').map((id) => ({ item_in_category: id })),
  );
  const ruleTree = (depth: number): fc.Arbitrary<Rule> =>
    depth <= 1
      ? recommender.map((r) => ({ recommender: r }))
      : fc.oneof(
          recommender.map((r): Rule => ({ recommender: r })),
          fc.record(
            { if: condition, then: fc.array(ruleTree(depth - 1), { maxLength: 3 }), else: fc.array(ruleTree(depth - 1), { maxLength: 3 }) },
            { requiredKeys: ['if', 'then'] },
          ),
        );
  const countRules = (rules: readonly Rule[]): number =>
    rules.reduce((sum, rule) => sum + 1 + ('if' in rule ? countRules(rule.then) + countRules(rule.else ?? []) : 0), 0);

  it('accepts every well-formed tree up to five levels and 100 rules, and no bigger one', () => {
    fc.assert(
      fc.property(fc.array(ruleTree(5), { minLength: 1, maxLength: 4 }), (rules) => {
        expect(checkRules(rules).ok).toBe(countRules(rules) <= MAX_RULES);
      }),
    );
  });

  it('never throws and stays within MAX_PROBLEMS on any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const check = checkRules(value);
        if (!check.ok) expect(check.problems.length).toBeLessThanOrEqual(MAX_PROBLEMS);
      }),
    );
  });
});

describe('recommenders for a request', () => {
  const context = (overrides: Partial<RuleContext> = {}): RuleContext => ({
    hasItem: false,
    hasCart: false,
    knownCustomer: false,
    itemCategories: [],
    ...overrides,
  });

  it.each([
    [
      'an item in shoes with a cart',
      { hasItem: true, hasCart: true, itemCategories: ['bags', 'shoes'] },
      ['similar', 'also_bought', 'buying_now', 'trending'],
    ],
    ['an item elsewhere', { hasItem: true, itemCategories: ['bags'] }, ['also_bought', 'trending']],
    ['a known customer without an item', { knownCustomer: true }, ['interesting', 'popular', 'trending']],
    ['an anonymous visit', {}, ['popular', 'trending']],
  ])('asks, for %s, the recommenders of the branches taken, in order, each once', (_name, overrides, expected) => {
    expect(recommendersFor(RULES, context(overrides))).toEqual(expected);
  });

  it('does not take item_in_category without an item', () => {
    expect(
      recommendersFor([{ if: { item_in_category: 'shoes' }, then: [{ recommender: 'similar' }] }], context({ itemCategories: ['shoes'] })),
    ).toEqual([]);
  });
});

describe('assembling a block', () => {
  it('merges lists in rule order, each product once, without excluded or unavailable ones', () => {
    const lists = [
      ['a', 'cart', 'b', 'gone'],
      ['b', 'c', 'a', 'd'],
      ['e', 'f'],
    ];
    const options = { limit: 4, exclude: new Set(['cart']), isAvailable: (id: string) => id !== 'gone' };
    expect(assembleBlock(lists, options)).toEqual(['a', 'b', 'c', 'd']);
    expect(assembleBlock(lists, { ...options, limit: 10 })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(assembleBlock(lists, { ...options, limit: 0 })).toEqual([]);
  });

  it('asks availability once per product, and not once the block is full', () => {
    const asked: string[] = [];
    const isAvailable = (id: string) => (asked.push(id), true);
    assembleBlock(
      [
        ['a', 'b', 'a'],
        ['b', 'c', 'd'],
      ],
      { limit: 3, exclude: new Set(), isAvailable },
    );
    expect(asked).toEqual(['a', 'b', 'c']);
  });

  it('holds each eligible product once, in first-seen order, as many as fit', () => {
    const id: fc.Arbitrary<string> = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
    fc.assert(
      fc.property(
        fc.array(fc.array(id, { maxLength: 6 }), { maxLength: 5 }),
        fc.integer({ min: 0, max: 8 }),
        fc.uniqueArray(id),
        fc.uniqueArray(id),
        (lists, limit, excluded, unavailable) => {
          const exclude = new Set(excluded);
          const out = assembleBlock(lists, { limit, exclude, isAvailable: (x) => !unavailable.includes(x) });
          const eligible = [...new Set(lists.flat())].filter((x) => !exclude.has(x) && !unavailable.includes(x));
          expect(new Set(out).size).toBe(out.length);
          expect(out.length).toBeLessThanOrEqual(limit);
          expect(out.some((x) => exclude.has(x) || unavailable.includes(x))).toBe(false);
          expect(out).toEqual(eligible.slice(0, limit));
        },
      ),
    );
  });
});
