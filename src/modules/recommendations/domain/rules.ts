/**
 * A recommendation block's rules (admin-api.md "Recommendation blocks"): which
 * recommenders a request asks, in order, and how their lists become one answer.
 * Pure: the request's facts and the availability check come in as arguments.
 */

export const RECOMMENDERS = [
  'popular',
  'trending',
  'buying_now',
  'similar',
  'also_bought',
  'also_viewed',
  'interesting',
  'recently_viewed',
  'search',
] as const;
export type Recommender = (typeof RECOMMENDERS)[number];

export type Condition =
  | { readonly has_item: true }
  | { readonly has_cart: true }
  | { readonly known_customer: true }
  | { readonly item_in_category: string };

export type Rule =
  | { readonly recommender: Recommender }
  | { readonly if: Condition; readonly then: readonly Rule[]; readonly else?: readonly Rule[] };

/** The top-level list is level 1. */
export const MAX_RULE_DEPTH = 5;
export const MAX_RULES_PER_LEVEL = 20;
/**
 * Ours: depth and width alone would allow 20 + 20·40 + … rules (each `if` has two lists),
 * millions of them; a block never needs more than this, and the check stops there.
 */
export const MAX_RULES = 100;
/** Enough to fix a block in one go; a hostile body does not get a megabyte of answers. */
export const MAX_PROBLEMS = 20;
/** A category id as the catalog keeps it (catalog-import.md: ids up to 255 characters). */
export const MAX_CATEGORY_ID_LENGTH = 255;

export interface RuleProblem {
  /** Where, as `rules[1].then[0].recommender`. */
  readonly path: string;
  readonly message: string;
}

export type RulesCheck = { readonly ok: true; readonly rules: readonly Rule[] } | { readonly ok: false; readonly problems: RuleProblem[] };

const RECOMMENDER_SET: ReadonlySet<string> = new Set(RECOMMENDERS);
const FLAG_CONDITIONS: ReadonlySet<string> = new Set(['has_item', 'has_cart', 'known_customer']);
const CONDITION_SHAPES = '{"has_item": true}, {"has_cart": true}, {"known_customer": true}, {"item_in_category": "<category id>"}';
/** Longest unknown key quoted back in a path. */
const MAX_KEY_IN_PATH = 64;

interface Walk {
  readonly problems: RuleProblem[];
  rules: number;
  stopped: boolean;
}

/**
 * Checks a block's `rules` as parsed from JSON. The walk goes no deeper than
 * MAX_RULE_DEPTH, reads no list longer than MAX_RULES_PER_LEVEL and stops after MAX_RULES
 * rules or MAX_PROBLEMS problems, so its work is bounded whatever the body holds.
 */
export function checkRules(input: unknown, path = 'rules'): RulesCheck {
  const walk: Walk = { problems: [], rules: 0, stopped: false };
  if (Array.isArray(input) && input.length === 0) report(walk, path, 'A block needs at least one rule.');
  else checkList(input, path, 1, walk);
  return walk.problems.length === 0 ? { ok: true, rules: input as Rule[] } : { ok: false, problems: walk.problems };
}

function checkList(value: unknown, path: string, depth: number, walk: Walk): void {
  if (!Array.isArray(value)) return report(walk, path, 'must be an array of rules.');
  if (depth > MAX_RULE_DEPTH) return report(walk, path, `nests too deep: rules go at most ${MAX_RULE_DEPTH} levels deep.`);
  if (value.length > MAX_RULES_PER_LEVEL) {
    return report(walk, path, `holds ${value.length} rules; a list holds at most ${MAX_RULES_PER_LEVEL}.`);
  }
  for (let index = 0; index < value.length && !walk.stopped; index++) {
    checkRule(value[index] as unknown, `${path}[${index}]`, depth, walk);
  }
}

function checkRule(value: unknown, path: string, depth: number, walk: Walk): void {
  walk.rules++;
  if (walk.rules > MAX_RULES) {
    report(walk, path, `is one rule too many: a block holds at most ${MAX_RULES} rules in all.`);
    walk.stopped = true;
    return;
  }
  if (!isObject(value)) return report(walk, path, 'must be an object: {"recommender": …} or {"if": …, "then": […], "else"?: […]}.');
  if (Object.hasOwn(value, 'recommender')) {
    if (!onlyKeys(value, ['recommender'], path, walk)) return;
    const recommender = value.recommender;
    if (typeof recommender !== 'string' || !RECOMMENDER_SET.has(recommender)) {
      report(walk, `${path}.recommender`, `must be one of ${RECOMMENDERS.join(', ')}.`);
    }
    return;
  }
  if (!Object.hasOwn(value, 'if')) return report(walk, path, 'needs `recommender` or `if`.');
  if (!onlyKeys(value, ['if', 'then', 'else'], path, walk)) return;
  checkCondition(value.if, `${path}.if`, walk);
  if (!Object.hasOwn(value, 'then')) report(walk, `${path}.then`, 'is required with `if`.');
  else checkList(value.then, `${path}.then`, depth + 1, walk);
  if (Object.hasOwn(value, 'else')) checkList(value.else, `${path}.else`, depth + 1, walk);
}

function checkCondition(value: unknown, path: string, walk: Walk): void {
  const shapes = `must be one of ${CONDITION_SHAPES}.`;
  if (!isObject(value)) return report(walk, path, shapes);
  let key: string | undefined;
  for (const own in value) {
    if (!Object.hasOwn(value, own)) continue;
    // A second key is refused at once, without reading the rest.
    if (key !== undefined) return report(walk, path, shapes);
    key = own;
  }
  if (key === undefined) return report(walk, path, shapes);
  const argument = value[key];
  if (FLAG_CONDITIONS.has(key)) {
    if (argument !== true) report(walk, `${path}.${key}`, 'must be true.');
    return;
  }
  if (key !== 'item_in_category') return report(walk, path, shapes);
  if (typeof argument !== 'string' || argument.length === 0 || argument.length > MAX_CATEGORY_ID_LENGTH) {
    report(walk, `${path}.item_in_category`, `must be a category id of 1 to ${MAX_CATEGORY_ID_LENGTH} characters.`);
  }
}

/** Refuses the first key outside `allowed`, reading no further. */
function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], path: string, walk: Walk): boolean {
  for (const key in value) {
    if (!Object.hasOwn(value, key) || allowed.includes(key)) continue;
    const shown = key.length > MAX_KEY_IN_PATH ? `${key.slice(0, MAX_KEY_IN_PATH)}…` : key;
    report(walk, `${path}.${shown}`, `is not a field of this rule (${allowed.join(', ')}).`);
    return false;
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function report(walk: Walk, path: string, message: string): void {
  if (walk.problems.length < MAX_PROBLEMS) walk.problems.push({ path, message });
  if (walk.problems.length >= MAX_PROBLEMS) walk.stopped = true;
}

export interface RuleContext {
  /** The request names a current product. */
  readonly hasItem: boolean;
  readonly hasCart: boolean;
  readonly knownCustomer: boolean;
  /** The current product's categories; pass their ancestors too for a rule on a parent to match. */
  readonly itemCategories: readonly string[];
}

/** The recommenders to ask, in rule order, each once. */
export function recommendersFor(rules: readonly Rule[], context: RuleContext): Recommender[] {
  const found = new Set<Recommender>();
  collect(rules, context, found, 1);
  return [...found];
}

function collect(rules: readonly Rule[], context: RuleContext, found: Set<Recommender>, depth: number): void {
  if (depth > MAX_RULE_DEPTH) return;
  for (const rule of rules) {
    if ('recommender' in rule) found.add(rule.recommender);
    else collect((holds(rule.if, context) ? rule.then : rule.else) ?? [], context, found, depth + 1);
  }
}

export function holds(condition: Condition, context: RuleContext): boolean {
  if ('has_item' in condition) return context.hasItem;
  if ('has_cart' in condition) return context.hasCart;
  if ('known_customer' in condition) return context.knownCustomer;
  return context.hasItem && context.itemCategories.includes(condition.item_in_category);
}

export interface AssembleOptions {
  readonly limit: number;
  /** The current item, the cart, what was just bought, the request's `exclude`. */
  readonly exclude: ReadonlySet<string>;
  readonly isAvailable: (id: string) => boolean;
}

/**
 * One answer from the recommenders' lists in rule order: each product once, up to
 * `limit`, none excluded or unavailable. Availability is asked once per product and only
 * until the block is full.
 */
export function assembleBlock(lists: readonly (readonly string[])[], options: AssembleOptions): string[] {
  const result: string[] = [];
  const seen = new Set<string>();
  for (const list of lists) {
    for (const id of list) {
      if (result.length >= options.limit) return result;
      if (seen.has(id) || options.exclude.has(id)) continue;
      seen.add(id);
      if (options.isAvailable(id)) result.push(id);
    }
  }
  return result;
}

/** Whether any rule, at any depth, asks this condition (so that a request reads what it needs only). */
export function asksCondition(rules: readonly Rule[], key: 'has_item' | 'has_cart' | 'known_customer' | 'item_in_category'): boolean {
  return rules.some((rule) => {
    if ('recommender' in rule) return false;
    return key in rule.if || asksCondition(rule.then, key) || asksCondition(rule.else ?? [], key);
  });
}
