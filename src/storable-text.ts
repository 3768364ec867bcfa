/**
 * What text Patron can store, on either database (docs/input.md): PostgreSQL's text and
 * jsonb cannot hold U+0000 and refuse text that is not valid UTF-8, and a lone UTF-16
 * surrogate (`"\ud800"` in JSON) is such text. Pure; the HTTP scopes refuse such input at
 * the edge (http/text-rule.ts) and imports skip the record that holds it.
 */

/** U+0000, or a surrogate that is not half of a pair ('u' flag: a pair is one code point). */
// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;

export type TextProblem = 'nul' | 'invalid_utf8';

/** Why a string cannot be stored, or undefined when it can. */
export function textProblem(text: string): TextProblem | undefined {
  if (!UNSTORABLE.test(text)) return undefined;
  return text.includes('\u0000') ? 'nul' : 'invalid_utf8';
}

/** "contains a NUL character (U+0000)", to complete a sentence about a field. */
export function describeTextProblem(problem: TextProblem): string {
  return problem === 'nul' ? 'contains a NUL character (U+0000)' : 'is not valid UTF-8 text';
}

export interface UnstorableText {
  /** Where, as `kids[0].name`; for a name, the path of the object that holds it ('' at the top). */
  readonly path: string;
  /** The problem is in an object key, not a value. */
  readonly inName: boolean;
  readonly problem: TextProblem;
}

/**
 * The first key or string of a parsed JSON value that cannot be stored, depth first, or
 * undefined. Iterative: the value may be nested as deep as its parser allowed.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  const found = findValueProblem(value);
  return found?.kind === 'text' ? found.text : undefined;
}

export type ValueProblem =
  | { readonly kind: 'text'; readonly text: UnstorableText }
  /** An object or array at `path` is nested `maxDepth` levels deep or deeper. */
  | { readonly kind: 'too_deep'; readonly path: string };

export interface ValueWalk {
  /** Objects and arrays this deep or deeper are a problem; unbounded when absent. */
  readonly maxDepth?: number;
  /** Whether an object that is not an array is walked into (every one when absent). */
  readonly walksInto?: (value: object) => boolean;
}

/**
 * The first problem of a value, depth first: a key or string that cannot be stored, or
 * nesting past `maxDepth`. Keys of an object are checked before any of its values. Paths
 * spell `kids[0].name`. Iterative, so that a hostile 10,000-level value cannot exhaust
 * the stack.
 */
export function findValueProblem(value: unknown, walk: ValueWalk = {}): ValueProblem | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { kind: 'text', text: { path: item.path, inName: false, problem } };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const isArray = Array.isArray(current);
    if (!isArray && walk.walksInto && !walk.walksInto(current)) continue;
    if (walk.maxDepth !== undefined && item.depth >= walk.maxDepth) return { kind: 'too_deep', path: item.path };
    if (isArray) {
      const list = current as unknown[];
      for (let i = list.length - 1; i >= 0; i -= 1) stack.push({ value: list[i], path: `${item.path}[${i}]`, depth: item.depth + 1 });
      continue;
    }
    const entries: Array<[string, unknown]> = Object.entries(current as Record<string, unknown>);
    for (const [key] of entries) {
      const problem = textProblem(key);
      if (problem) return { kind: 'text', text: { path: item.path, inName: true, problem } };
    }
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      stack.push({ value: child, path: item.path === '' ? key : `${item.path}.${key}`, depth: item.depth + 1 });
    }
  }
  return undefined;
}
