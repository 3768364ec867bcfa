import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, whileDatabaseUnavailable } from '../../src/db/unavailable.js';
import { describeError } from '../../src/http/http-errors.js';
import { sql } from 'kysely';
import { createTestDb, TEST_DIALECTS } from '../helpers/db.js';

const url = process.env.TEST_DATABASE_URL;

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

describe('telling an unreachable database from a failed statement', () => {
  it('takes a refused connection as unavailable, and answers it 503 with a retry hint', async () => {
    const port = await closedPort();
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/none`, connectionTimeoutMillis: 2000 });
    const error = await errorOf(() => pool.query('select 1'));
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(describeError(error)).toMatchObject({ status: 503, code: 'UNAVAILABLE', retryAfterSeconds: 1 });
  });

  it('takes an error wrapped with its cause as unavailable', () => {
    expect(isDatabaseUnavailable(new Error('query failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBe(true);
  });

  it('leaves a statement error, a constraint violation and a plain error a 500', () => {
    for (const error of [
      Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }),
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      new Error('something else'),
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(describeError(error).status).toBe(500);
    }
  });

  it.skipIf(!url || !TEST_DIALECTS.includes('postgres'))('takes a connection cut by the server (a restart) as unavailable', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('error', () => undefined);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const error = await errorOf(async () => {
      const running = client.query('select pg_sleep(5)');
      await new Promise((r) => setTimeout(r, 200));
      await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await running;
    });
    await killer.end();
    await client.end().catch(() => undefined);
    expect((error as { code?: string }).code).toBe('57P01');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.skipIf(!url || !TEST_DIALECTS.includes('postgres'))(
    'survives the connection of a transaction cut between its statements (the process would end on an unheard error)',
    async () => {
      const db = await createTestDb('postgres');
      const killer = new pg.Client({ connectionString: url });
      await killer.connect();
      try {
        const error = await errorOf(() =>
          db.db.transaction().execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
            await killer.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
            // The connection is idle in the transaction when the server cuts it.
            await new Promise((r) => setTimeout(r, 300));
            await sql`select 1`.execute(trx);
          }),
        );
        expect(isDatabaseUnavailable(error)).toBe(true);
        // The pool dropped the broken connection: the next query gets a new one.
        expect((await sql<{ one: number }>`select 1 as one`.execute(db.db)).rows[0]?.one).toBe(1);
      } finally {
        await killer.end();
        await db.destroy();
      }
    },
  );

  it('writes again through an outage, and gives up on another failure or after its time', async () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    let tries = 0;
    const written = await whileDatabaseUnavailable(() => {
      tries += 1;
      if (tries < 3) return Promise.reject(refused());
      return Promise.resolve('written');
    }, 10_000);
    expect([written, tries]).toEqual(['written', 3]);

    let other = 0;
    const constraint = Object.assign(new Error('duplicate key value'), { code: '23505' });
    await expect(
      whileDatabaseUnavailable(() => {
        other += 1;
        return Promise.reject(constraint);
      }, 10_000),
    ).rejects.toBe(constraint);
    expect(other).toBe(1);

    let outage = 0;
    await expect(
      whileDatabaseUnavailable(() => {
        outage += 1;
        return Promise.reject(refused());
      }, 250),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(outage).toBeGreaterThanOrEqual(2);
    expect(outage).toBeLessThanOrEqual(3);
  });
});
