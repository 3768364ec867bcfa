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
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { path: item.path, inName: false, problem };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ value: current[i] as unknown, path: `${item.path}[${i}]` });
      continue;
    }
    const entries: Array<[string, unknown]> = Object.entries(current as Record<string, unknown>);
    for (const [key] of entries) {
      const problem = textProblem(key);
      if (problem) return { path: item.path, inName: true, problem };
    }
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      stack.push({ value: child, path: item.path === '' ? key : `${item.path}.${key}` });
    }
  }
  return undefined;
}
