/**
 * Bounds how deeply a template's block tags nest, before liquidjs parses it: its parser
 * recurses once per open block, and at some depth the stack runs out where V8 cannot
 * recover (a regular expression compiled at the stack's end aborts the process) rather
 * than as a RangeError. No mailing nests blocks anywhere near MAX_NESTING. Pure.
 */

export const MAX_NESTING = 100;

/** liquidjs's tags that open a block closed by `end<tag>`. */
const BLOCKS = new Set(['if', 'unless', 'for', 'case', 'capture', 'tablerow', 'comment', 'raw']);
const TAG = /\{%-?\s*(\w+)/g;

/** The first place where blocks nest deeper than MAX_NESTING, in the engine's words; undefined when they do not. */
export function nestingProblem(source: string): string | undefined {
  let depth = 0;
  for (const match of source.matchAll(TAG)) {
    const name = match[1] as string;
    if (BLOCKS.has(name)) depth += 1;
    else if (name.startsWith('end') && BLOCKS.has(name.slice(3))) depth = Math.max(0, depth - 1);
    if (depth > MAX_NESTING) {
      const before = source.slice(0, match.index);
      const line = before.split('\n').length;
      const column = match.index - before.lastIndexOf('\n');
      return `blocks nest deeper than ${MAX_NESTING}, line:${line}, col:${column}`;
    }
  }
  return undefined;
}
