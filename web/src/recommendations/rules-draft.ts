/**
 * A block's rules as the editor holds them (docs/recommendations.md, admin-api.md
 * "Recommendation blocks"): a tree of `{recommender}` and `{if, then, else}` rules, each
 * with a key of its own for React, turned back into the API's JSON on save. Pure.
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

export const CONDITIONS = ['has_item', 'has_cart', 'known_customer', 'item_in_category'] as const;
export type Condition = (typeof CONDITIONS)[number];

export type RuleDraft =
  | { readonly key: number; readonly kind: 'recommender'; readonly recommender: string }
  | {
      readonly key: number;
      readonly kind: 'if';
      readonly condition: Condition;
      /** The category id of `item_in_category`. */
      readonly category: string;
      readonly then: readonly RuleDraft[];
      /** null: no `else` branch. */
      readonly otherwise: readonly RuleDraft[] | null;
    };

let nextKey = 1;
const key = () => nextKey++;

export function recommenderRule(recommender: string = 'popular'): RuleDraft {
  return { key: key(), kind: 'recommender', recommender };
}

export function conditionRule(): RuleDraft {
  return { key: key(), kind: 'if', condition: 'has_item', category: '', then: [recommenderRule('also_bought')], otherwise: null };
}

/** The API's rules as drafts; what the editor cannot hold (a server of a newer version) is kept as a recommender it names. */
export function draftOf(rules: readonly unknown[]): RuleDraft[] {
  return rules.map((rule) => {
    const r = (typeof rule === 'object' && rule !== null ? rule : {}) as Record<string, unknown>;
    if (!('if' in r)) return recommenderRule(typeof r.recommender === 'string' ? r.recommender : '');
    const cond = (typeof r.if === 'object' && r.if !== null ? r.if : {}) as Record<string, unknown>;
    const condition = CONDITIONS.find((c) => c in cond) ?? 'has_item';
    const list = (value: unknown) => draftOf(Array.isArray(value) ? value : []);
    return {
      key: key(),
      kind: 'if',
      condition,
      category: typeof cond.item_in_category === 'string' ? cond.item_in_category : '',
      then: list(r.then),
      otherwise: Array.isArray(r.else) ? list(r.else) : null,
    };
  });
}

/** The drafts as the API's JSON, as typed (the server checks them and names the path of a problem). */
export function rulesOf(drafts: readonly RuleDraft[]): unknown[] {
  return drafts.map((d) => {
    if (d.kind === 'recommender') return { recommender: d.recommender };
    const condition = d.condition === 'item_in_category' ? { item_in_category: d.category.trim() } : { [d.condition]: true };
    return { if: condition, then: rulesOf(d.then), ...(d.otherwise !== null && { else: rulesOf(d.otherwise) }) };
  });
}

/** Where a list is in the tree: the API's path of it (`rules`, `rules[0].then`, `rules[0].else`). */
export type ListPath = string;

/** The rules with the list at `path` replaced by what `change` makes of it. */
export function changeList(
  rules: readonly RuleDraft[],
  path: ListPath,
  change: (list: readonly RuleDraft[]) => readonly RuleDraft[],
  here: ListPath = 'rules',
): RuleDraft[] {
  if (path === here) return [...change(rules)];
  return rules.map((rule, index) => {
    if (rule.kind !== 'if') return rule;
    const at = `${here}[${index}]`;
    if (!path.startsWith(`${at}.`)) return rule;
    return {
      ...rule,
      then: changeList(rule.then, path, change, `${at}.then`),
      otherwise: rule.otherwise === null ? null : changeList(rule.otherwise, path, change, `${at}.else`),
    };
  });
}

/** `list` with its `index`-th rule moved by `by` places (-1 up, 1 down); unchanged at an end. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  const [item] = copy.splice(index, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

/**
 * The server's 422 on the rules, by the path each problem names. One problem: "Field
 * `rules[0].then[1].recommender` must be …"; several: "The rules have 2 problems: Field
 * `…` …. Field `…` …." — each sentence kept whole under its path.
 */
export function problemsOf(message: string): Map<string, string> {
  const problems = new Map<string, string>();
  const found = [...message.matchAll(/Field `([^`]+)`/g)];
  found.forEach((match, i) => {
    const start = match.index ?? 0;
    const end = found[i + 1]?.index ?? message.length;
    const path = match[1] as string;
    if (path === 'rules' || path.startsWith('rules[')) problems.set(path, message.slice(start, end).trim());
  });
  return problems;
}

/** The problems that belong to the rule at `rulePath` itself (not to the rules inside it). */
export function ownProblems(problems: ReadonlyMap<string, string>, rulePath: string): string[] {
  const own: string[] = [];
  for (const [path, message] of problems) {
    // Its own: the rule, its fields (recommender, if, then, else); a rule inside it is `.then[n]` or `.else[n]`.
    const mine = path === rulePath || (path.startsWith(`${rulePath}.`) && !/^\.(then|else)\[/.test(path.slice(rulePath.length)));
    if (mine) own.push(message);
  }
  return own;
}
