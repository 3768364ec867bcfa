/**
 * Multi-row statements of a few fixed shapes. SQLite prepares every distinct SQL text
 * and the connection keeps prepared statements (db/create-db.ts), so a multi-row insert
 * whose row count varies from batch to batch leaves a new large statement behind each
 * time. Rows are therefore cut into slices whose sizes are powers of two (a full slice of
 * the largest size, then the binary digits of the rest): at most a dozen shapes per
 * statement, and a batch still costs a fixed handful of statements. IN lists are padded
 * to such a size instead, by repeating their last value, which changes nothing.
 */

/** Bound parameters per statement: under SQLite's 32,766 and PostgreSQL's 65,535. */
export const MAX_PARAMETERS = 30_000;

/** Largest slice: beyond this, a bigger statement saves nothing measurable. */
export const MAX_SLICE_ROWS = 256;

function largestSlice(columns: number): number {
  const limit = Math.min(MAX_SLICE_ROWS, Math.floor(MAX_PARAMETERS / Math.max(1, columns)));
  let size = 1;
  while (size * 2 <= limit) size *= 2;
  return size;
}

/** `rows` in slices of power-of-two sizes, each within the parameter bound for `columns` values per row. */
export function statementSlices<T>(rows: readonly T[], columns: number): T[][] {
  const slices: T[][] = [];
  let at = 0;
  for (let size = largestSlice(columns); size >= 1; size = Math.floor(size / 2)) {
    while (rows.length - at >= size) {
      slices.push(rows.slice(at, at + size));
      at += size;
      // Only the largest size repeats; smaller ones are the binary digits of the rest.
      if (size !== largestSlice(columns)) break;
    }
  }
  return slices;
}

/** `values` as IN lists of power-of-two lengths (the last padded with its last value). */
export function inListSlices<T>(values: readonly T[]): T[][] {
  const largest = largestSlice(1);
  const slices: T[][] = [];
  for (let at = 0; at < values.length; at += largest) {
    const slice = values.slice(at, at + largest);
    let size = 1;
    while (size < slice.length) size *= 2;
    const last = slice[slice.length - 1] as T;
    while (slice.length < size) slice.push(last);
    slices.push(slice);
  }
  return slices;
}
