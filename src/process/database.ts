import type { Config } from '../config.js';
import { createDb, dbOptionsFromConfig, type DbHandle } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import { SecretBox } from '../modules/messaging/secret-box.js';
import { SecretKeyCheck } from '../modules/system/secret-key-check.js';

/** The check of this process's secret key against the database's (modules/system/secret-key-check.ts). */
export function secretKeyCheck(config: Config, db: DbHandle, clock: Clock): SecretKeyCheck {
  const box = new SecretBox({ secretKey: config.secretKey, dataDir: config.dataDir });
  return new SecretKeyCheck({
    db,
    clock,
    keyCheck: () => box.keyCheck(),
    fromEnvironment: config.secretKey !== undefined,
    keyFile: SecretBox.keyFile(config.dataDir),
  });
}

/**
 * Patron's transactions must run on one server connection from begin to commit; a pooler
 * that hands each statement to another connection (pgbouncer's `statement` pooling mode)
 * breaks them, so a process refuses to start behind one (docs/scaling.md).
 */
export class TransactionsDoNotHoldError extends Error {
  override readonly name = 'TransactionsDoNotHoldError';
  constructor(detail: string) {
    super(
      `Transactions do not hold on this PostgreSQL connection (${detail}): a connection pooler in statement mode ` +
        '(pgbouncer pool_mode = statement) is the usual cause. Point DATABASE_URL at PostgreSQL itself, or at a pool in ' +
        'session or transaction mode.',
    );
  }
}

/** PostgreSQL: two statements of one transaction must see one transaction id. */
export async function checkTransactionsHold(db: DbHandle): Promise<void> {
  if (db.dialect !== 'postgres') return;
  let ids: [string, string];
  try {
    ids = await db.db.transaction().execute(async (trx) => {
      const first = await sql<{ id: string }>`select txid_current()::text as id`.execute(trx);
      const second = await sql<{ id: string }>`select txid_current()::text as id`.execute(trx);
      return [first.rows[0]?.id ?? '', second.rows[0]?.id ?? ''];
    });
  } catch (error) {
    // pgbouncer refuses a transaction block outright in statement mode.
    const message = error instanceof Error ? error.message : String(error);
    if (/statement pooling/i.test(message)) throw new TransactionsDoNotHoldError('the pooler refused a transaction block');
    throw error;
  }
  if (ids[0] === '' || ids[0] !== ids[1]) throw new TransactionsDoNotHoldError('two statements of one transaction ran in different ones');
}

export interface OpenedDatabase {
  readonly db: DbHandle;
  /** Names of the migrations this call applied (empty when the schema was current). */
  readonly applied: readonly string[];
}

/** Connects to the configured database and brings its schema up to date. */
export async function openMigratedDatabase(config: Config): Promise<OpenedDatabase> {
  const db = createDb(dbOptionsFromConfig(config));
  try {
    await checkTransactionsHold(db);
    const { applied } = await migrateToLatest(db);
    return { db, applied };
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
}

/** Where the data lives, for log lines; never includes a password. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `SQLite in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}
