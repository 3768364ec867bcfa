import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './types.js';

/**
 * Multi-row statements of a few fixed shapes. SQLite prepares every distinct SQL text
 * and the connection keeps prepared statements (db/sqlite/connection.ts), so a multi-row insert
 * whose row count varies from batch to batch leaves a new large statement behind each
 * time. Rows are therefore cut into slices whose sizes are powers of two (a full slice of
 * the largest size, then the binary digits of the rest): at most a dozen shapes per
 * statement, and a batch still costs a fixed handful of statements. IN lists are padded
 * to such a size instead, by repeating their last value, which changes nothing.
 */

/** Bound parameters per statement: under SQLite's 32,766 and PostgreSQL's 65,535. */
export const MAX_PARAMETERS = 30_000;

/**
 * Largest slice of a multi-row statement. A prepared statement's memory grows with its
 * parameters and SQLite keeps what it prepared; 128 rows keep the kept shapes small,
 * and a statement of more rows saves nothing measurable.
 */
export const MAX_SLICE_ROWS = 128;

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

/**
 * `rows` in chunks of at most MAX_PARAMETERS values (`columns` per row), as few as the
 * bound allows: one statement per chunk, not statementSlices' power-of-two slices, for a
 * hot path where every extra statement costs (the tracking batch). The SQLite statement
 * cache does not keep the long texts of large chunks (db/sqlite/connection.ts).
 */
export function parameterChunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  const result: T[][] = [];
  for (let i = 0; i < rows.length; i += size) result.push(rows.slice(i, i + size));
  return result;
}

/** The values per row of a multi-row insert: the first row's columns (1 for none). */
export function columnCount(rows: readonly object[]): number {
  return rows[0] ? Object.keys(rows[0]).length : 1;
}

/** Longest IN list: one bound parameter per value, and a select's text is small. */
export const MAX_IN_LIST = 1024;

/** `values` as IN lists of power-of-two lengths (the last padded with its last value). */
export function inListSlices<T>(values: readonly T[]): T[][] {
  const largest = MAX_IN_LIST;
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

/**
 * A multi-row statement (an insert or upsert of many rows) run in slices, each slice
 * size compiled by Kysely once and then reused with new parameters: building and
 * compiling a query tree of thousands of values costs as much as running it, and the
 * same SQL text object each time also makes the prepared-statement lookup cheap. `build`
 * must take every parameter from the rows' values (constants belong in the SQL).
 */
export class BulkStatement<R extends Readonly<Record<string, unknown>>> {
  private readonly templates = new Map<string, { sql: string; slots: readonly (readonly [number, string])[] }>();

  constructor(
    /** Values per row, for the parameter bound. */
    private readonly columns: number,
    private readonly build: (db: Kysely<Database>, rows: R[]) => Compilable<unknown>,
  ) {}

  /** Runs the statement for every row; returns the number of rows the database reports affected. */
  async execute(db: Kysely<Database>, rows: readonly R[]): Promise<number> {
    let affected = 0;
    for (const slice of statementSlices(rows, this.columns)) {
      const template = this.template(db, slice);
      const parameters = template.slots.map(([row, column]) => (slice[row] as R)[column]);
      const result = await db.executeQuery(CompiledQuery.raw(template.sql, parameters));
      affected += Number(result.numAffectedRows ?? 0n);
    }
    return affected;
  }

  private template(db: Kysely<Database>, slice: readonly R[]) {
    // Placeholders differ by dialect (`?` or `$1`): a probe's text tells which this is.
    const style = db.selectFrom('shops').select('shop_id').where('shop_id', '=', '').compile().sql.includes('$1') ? '$' : '?';
    const key = `${style}${slice.length}`;
    let template = this.templates.get(key);
    if (!template) {
      const markers = new Map<unknown, readonly [number, string]>();
      const dummy = slice.map(
        (row, index) =>
          Object.fromEntries(
            Object.keys(row).map((column) => {
              const marker = `\u0000${index}\u0000${column}`;
              markers.set(marker, [index, column]);
              return [column, marker];
            }),
          ) as unknown as R,
      );
      const compiled = this.build(db, dummy).compile();
      const slots = compiled.parameters.map((parameter) => {
        const slot = markers.get(parameter);
        if (!slot) throw new Error('A bulk statement must take every parameter from its rows.');
        return slot;
      });
      template = { sql: compiled.sql, slots };
      this.templates.set(key, template);
    }
    return template;
  }
}
