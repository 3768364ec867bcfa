import { Type, type TSchema } from '@sinclair/typebox';
import { AppError } from '../errors.js';

/**
 * Keyset paging of the admin lists (docs/admin-lists.md): a page answers `next_cursor`,
 * the key of its last row, and the next page starts after that key. The cursor is opaque
 * to callers (base64url of a JSON array of the key's parts); decoding checks every part's
 * type, so a forged or damaged cursor is a 422 naming `cursor`, never a query error.
 */

export const MAX_CURSOR_LENGTH = 1024;

export type KeyPart = 'string' | 'integer';
type PartValue<P extends KeyPart> = P extends 'string' ? string : number;
export type KeyOf<Parts extends readonly KeyPart[]> = { -readonly [I in keyof Parts]: PartValue<Parts[I]> };

export function encodeCursor(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

/** The key a cursor of this shape holds; undefined for a cursor this API did not give out. */
export function decodeCursor<Parts extends readonly KeyPart[]>(text: string, shape: Parts): KeyOf<Parts> | undefined {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== shape.length) return undefined;
  const ok = shape.every((part, i) =>
    part === 'string' ? typeof value[i] === 'string' && value[i].length <= 512 : Number.isSafeInteger(value[i]),
  );
  return ok ? (value as KeyOf<Parts>) : undefined;
}

/** decodeCursor of an optional query parameter: null without one, a 422 for a bad one. */
export function cursorKey<Parts extends readonly KeyPart[]>(text: string | undefined, shape: Parts): KeyOf<Parts> | null {
  if (text === undefined) return null;
  const key = decodeCursor(text, shape);
  if (!key) throw new AppError('VALIDATION_FAILED', 'Query parameter `cursor` is not valid.', { field: 'cursor' });
  return key;
}

export const CursorQuerySchema = Type.Optional(
  Type.String({ minLength: 1, maxLength: MAX_CURSOR_LENGTH, description: 'The `next_cursor` of the previous page; absent for the first.' }),
);

export function limitQuerySchema(defaultLimit: number, maxLimit: number) {
  return Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxLimit,
      default: defaultLimit,
      description: `Rows per page: 1 to ${maxLimit}, ${defaultLimit} by default.`,
    }),
  );
}

export const NextCursorSchema = Type.Union([Type.String(), Type.Null()], {
  description: 'Pass it as `cursor` for the next page; null on the last page.',
});

/** `{"items": [...], "next_cursor": …}`: the answer of every keyset-paged admin list. */
export function pageSchema<T extends TSchema>(item: T, description: string) {
  return Type.Object({ items: Type.Array(item), next_cursor: NextCursorSchema }, { description });
}

/** The first `limit` rows and the cursor after the last of them, from a read of limit + 1 rows. */
export function toPage<Row, Item>(
  rows: readonly Row[],
  limit: number,
  keyOf: (row: Row) => readonly (string | number)[],
  map: (row: Row) => Item,
): { items: Item[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(map), next_cursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
