import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { driverErrorCode } from '../dialect.js';
import { pingDb, type DbHandle } from '../handle.js';
import { isKeptPrepared } from '../prepared-query.js';
import type { Database } from '../types.js';

// int8 (bigint) columns hold millisecond timestamps and counters, all far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));

/** A pool of connections to PostgreSQL (DATABASE_URL). */
export function createPostgresHandle(options: { url: string; poolSize?: number }): DbHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  return {
    db,
    dialect: 'postgres',
    ping: () => pingDb(db),
    durable: () => Promise.resolve(),
    destroy: () => db.destroy(),
  };
}

/**
 * The pool as Kysely sees it, with one change: SQL that db/prepared-query.ts marked runs
 * as a named statement, so each connection parses and plans it once (pg keeps the names
 * it prepared per connection). For the busiest reads, planning costs the server several
 * times what running them does (GET /products/get's join of three tables, for one).
 * Named statements need the same server connection from one query to the next: behind
 * PgBouncer, use session pooling.
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  let serial = 0;
  const nameOf = (text: string, fresh = false): string => {
    let name = names.get(text);
    if (name === undefined || fresh) {
      serial += 1;
      name = `patron_${serial}`;
      names.set(text, name);
    }
    return name;
  };
  // One wrapper per pg client: Kysely keys its connections by the client object.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const named = async (text: string, values: unknown[]): Promise<pg.QueryResult> => {
      try {
        return await client.query({ name: nameOf(text), text, values });
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        // The tables it reads changed shape since this connection prepared it (a
        // migration run by a newer process): prepare it again under a new name. The old
        // plan stays on the server until the connection closes.
        return client.query({ name: nameOf(text, true), text, values });
      }
    };
    // A cursor (Kysely's stream()) passes through as it came.
    const query = (text: unknown, values?: readonly unknown[]): unknown =>
      typeof text === 'string' && isKeptPrepared(text)
        ? named(text, values as unknown[])
        : client.query(text as string, values as unknown[]);
    return { query: query as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        // While a client is checked out the pool takes its own error listener off, and a
        // connection cut then (PostgreSQL restarting under a transaction, a failover)
        // would emit an 'error' nobody hears, which ends the process. The query in flight
        // is rejected with the error anyway (a 503: db/unavailable.ts), and the pool drops
        // the broken client when it is released.
        client.on('error', ignoreClientError);
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

function ignoreClientError(): void {
  // Reported through the rejected query (above).
}

/** PostgreSQL's answer to a prepared statement whose result columns changed (SQLSTATE 0A000). */
function isStalePlan(error: unknown): boolean {
  return error instanceof Error && driverErrorCode(error) === '0A000' && error.message.includes('cached plan must not change result type');
}
