import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { sqliteDirectOf, type SqliteDirect } from './sqlite/write-lock.js';
import type { Database } from './types.js';

/**
 * The comment that SQL of a fixed, few-valued text starts with: a prepared query's, and
 * the full-size staging inserts of a feed import (catalog.repo.ts). Such a statement is
 * kept prepared on both databases (db/sqlite/connection.ts, db/postgres/connection.ts): on PostgreSQL it runs as a named
 * statement, parsed and planned once per connection, and SQLite's statement cache keeps
 * it whatever its length. Every other statement stays unnamed, and a long one uncached,
 * since statements of ever-changing text (a multi-row insert of any size, an IN list)
 * would each leave a plan behind.
 */
export const PREPARED_SQL_MARKER = '/* patron:prepared */ ';

/** The query with its SQL marked to be kept prepared (PREPARED_SQL_MARKER). */
export function keptPrepared<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  return { ...query, sql: `${PREPARED_SQL_MARKER}${query.sql}` };
}

/** Whether SQL text was marked by keptPrepared. */
export function isKeptPrepared(text: string): boolean {
  return text.startsWith(PREPARED_SQL_MARKER);
}

/**
 * A query of one fixed shape for the busiest reads, compiled by Kysely once per database
 * handle and then run with new parameters. Building and compiling a Kysely query costs
 * more than SQLite spends answering a primary-key lookup; the same SQL text each time
 * also hits the prepared-statement cache (db/sqlite/connection.ts) at once. The query is still
 * written with Kysely, so it is the same SQL on SQLite and PostgreSQL. On PostgreSQL it is
 * also parsed and planned once per connection (PREPARED_SQL_MARKER): planning a join
 * costs the server several times what running a primary-key lookup does.
 *
 * `build` receives one marker per argument and must use each where the argument goes;
 * every bound parameter of the compiled query must be one of the markers (constants
 * belong in the SQL), which is checked when the query is compiled.
 */
export class PreparedQuery<A extends readonly unknown[], R> {
  private readonly compiled = new WeakMap<
    object,
    { query: CompiledQuery<R>; slots: readonly number[]; direct: SqliteDirect | undefined }
  >();

  constructor(
    private readonly arity: A['length'],
    private readonly build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
  ) {}

  /** The rows of the query for these arguments. */
  async execute(db: Kysely<Database>, ...args: A): Promise<R[]> {
    return (await this.run(db, ...args)).rows;
  }

  /** The whole result: rows, and the rows an insert, update or delete touched. */
  async run(db: Kysely<Database>, ...args: A): Promise<QueryResult<R>> {
    const { query, slots, direct } = this.compile(db);
    const parameters = slots.map((slot) => args[slot]);
    // On SQLite, at once where the executor would not wait either (db/sqlite/write-lock.ts SqliteDirect).
    return direct?.run<R>(query.sql, parameters, db.isTransaction) ?? db.executeQuery<R>({ ...query, parameters });
  }

  private compile(db: Kysely<Database>) {
    // A transaction's executor shares its database's adapter (and compiler), so keyed by
    // the adapter a query compiled once serves every transaction too. Plugins change the
    // SQL: a handle with plugins keeps its own.
    const executor = db.getExecutor();
    const key = executor.plugins.length === 0 ? executor.adapter : db;
    let entry = this.compiled.get(key);
    if (!entry) {
      const markers = Array.from({ length: this.arity }, (_, index) => `\u0000prepared-query-argument-${index}\u0000`);
      const query = keptPrepared(this.build(db, ...(markers as unknown as A)).compile());
      const slots = query.parameters.map((parameter) => {
        const slot = markers.indexOf(parameter as string);
        if (slot === -1) throw new Error('A prepared query must take every bound parameter from its arguments.');
        return slot;
      });
      // Plugins transform results: a handle with plugins takes the executor's way.
      entry = { query, slots, direct: executor.plugins.length === 0 ? sqliteDirectOf(executor.adapter) : undefined };
      this.compiled.set(key, entry);
    }
    return entry;
  }
}

/**
 * Prepared queries of one kind that differ only in shape (how many ids an IN list
 * holds, which bucket lists a lookup names): one PreparedQuery per shape, made on first
 * use and kept. The caller keeps the shapes few (e.g. lists padded to powers of two), so
 * that the family, and the statements the databases keep for it, stay small.
 */
export class PreparedQueryFamily<S extends string | number, A extends readonly unknown[], R> {
  private readonly byShape = new Map<S, PreparedQuery<A, R>>();

  constructor(private readonly make: (shape: S) => PreparedQuery<A, R>) {}

  of(shape: S): PreparedQuery<A, R> {
    let query = this.byShape.get(shape);
    if (query === undefined) {
      query = this.make(shape);
      this.byShape.set(shape, query);
    }
    return query;
  }
}

/**
 * A statement around one row object (an insert's values, an update's set), prepared once
 * per set of columns the rows have: a caller passes the same few shapes over and over.
 * Undefined values are left out, as Kysely leaves them out. Every value must be a plain
 * value bound as a parameter, never a Kysely expression (the shape would not show it).
 */
export class PreparedRowQuery<T extends object, A extends readonly unknown[], R> {
  private readonly family: PreparedQueryFamily<string, unknown[], R>;

  constructor(arity: A['length'], build: (db: Kysely<Database>, row: T, ...args: A) => Compilable<R>) {
    this.family = new PreparedQueryFamily((shape: string) => {
      const columns = shape === '' ? [] : shape.split(',');
      return new PreparedQuery(columns.length + arity, (db, ...values: unknown[]) =>
        build(
          db,
          Object.fromEntries(columns.map((column, i) => [column, values[i]])) as T,
          ...(values.slice(columns.length) as unknown as A),
        ),
      );
    });
  }

  async run(db: Kysely<Database>, row: T, ...args: A): Promise<QueryResult<R>> {
    const record = row as Record<string, unknown>;
    const columns = Object.keys(record).filter((column) => record[column] !== undefined);
    return this.family.of(columns.join(',')).run(db, ...columns.map((column) => record[column]), ...args);
  }
}
