import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.js';
import { checkTransactionsHold, TransactionsDoNotHoldError } from '../../src/process/database.js';

/**
 * A process refuses to start where transactions do not hold (pgbouncer in statement mode: docs/scaling.md).
 * A direct connection passing the check is every PostgreSQL process test (multi-node.test.ts).
 */
describe('checkTransactionsHold', () => {
  it('refuses a PostgreSQL connection whose pooler refuses transaction blocks, naming the cause', async () => {
    const refusing = {
      dialect: 'postgres',
      db: {
        transaction: () => ({
          execute: () => Promise.reject(new Error('transaction blocks not allowed in statement pooling mode')),
        }),
      },
    } as unknown as DbHandle;
    const error = await checkTransactionsHold(refusing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransactionsDoNotHoldError);
    expect((error as Error).message).toContain('pgbouncer pool_mode = statement');
  });
});
