/**
 * A recommendation block's own fields (admin-api.md "Recommendation blocks"); its rules
 * are checked by rules.ts. Pure.
 */

export const BLOCK_CODE = /^[a-z0-9_-]{1,64}$/;
export const DEFAULT_BLOCK_LIMIT = 10;
export const MAX_BLOCK_LIMIT = 100;
/** Ours: a title is a heading shown above the products, a name what the shop's team calls it. */
export const MAX_TITLE_LENGTH = 255;
export const MAX_NAME_LENGTH = 255;

export function isValidBlockCode(code: string): boolean {
  return BLOCK_CODE.test(code);
}

export type FieldCheck = { readonly ok: true } | { readonly ok: false; readonly field: string; readonly requirement: string };

/** The block's fields other than its rules, as a PUT gives them. */
export function checkBlockFields(input: { readonly title: string; readonly name?: string | null; readonly limit?: number }): FieldCheck {
  if (input.title.trim() === '' || input.title.length > MAX_TITLE_LENGTH) {
    return { ok: false, field: 'title', requirement: `must be 1 to ${MAX_TITLE_LENGTH} characters, not only spaces` };
  }
  if (input.name != null && input.name.length > MAX_NAME_LENGTH) {
    return { ok: false, field: 'name', requirement: `must be at most ${MAX_NAME_LENGTH} characters` };
  }
  const limit = input.limit ?? DEFAULT_BLOCK_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BLOCK_LIMIT) {
    return { ok: false, field: 'limit', requirement: `must be a whole number from 1 to ${MAX_BLOCK_LIMIT}` };
  }
  return { ok: true };
}
