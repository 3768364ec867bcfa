import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbOptions } from '../../src/db/create-db.js';
import { freshDbOptions, removeDatabase, TEST_DIALECTS } from '../helpers/db.js';
import { databaseEnv } from '../process/cli-harness.js';
import { CrashServer } from './crash-server.js';

/**
 * Issue 17, "Done when": a kill -9 in the middle of a chain wait loses nothing and sends
 * nothing twice. Custom events each start a chain (send → wait 2 s → send); the server is
 * killed with SIGKILL while runs wait, and started again. Every acknowledged event has its
 * run, every run ends done with exactly one message per send step (a step moves its run
 * in the transaction of its message), and every message reaches the peer. A delivery the
 * peer took in the instant before the kill may come again with the same Message-ID (the
 * messaging engine's at-least-once send, bounded by the sends in flight); it is counted apart.
 */

const ADMIN_TOKEN = 'crash-test-admin-token-0123456789';
const LOOPS = 6;
const KILL_AFTER_MS = 1_500;
const MIN_ACKNOWLEDGED = 30;
const LOAD_LIMIT_MS = 15_000;
const WORKER_CONCURRENCY = 4;

describe.each(TEST_DIALECTS)('a chain wait when the server is killed, on %s', (dialect) => {
  let db: DbOptions;
  const received = new Map<string, number>();
  let peer: http.Server;
  let peerUrl: string;
  const servers: CrashServer[] = [];

  beforeAll(async () => {
    db = await freshDbOptions(dialect);
    peer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { messageId } = JSON.parse(body) as { messageId: string };
        received.set(messageId, (received.get(messageId) ?? 0) + 1);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/mail`;
  });

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await new Promise((resolve) => peer.close(resolve));
    await removeDatabase(db);
  });

  it('finishes every run after a SIGKILL during its wait, one message per send step', async () => {
    const env = {
      ...databaseEnv(db),
      PATRON_ADMIN_TOKEN: ADMIN_TOKEN,
      PATRON_SECRET_KEY: 'e'.repeat(64),
      PATRON_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      PATRON_JOB_LEASE_SECONDS: '2',
      PEER_URL: peerUrl,
    };
    const first = CrashServer.start(env);
    servers.push(first);
    const base = await first.url;
    const admin = async (method: string, url: string, body: unknown) => {
      const r = await fetch(`${base}/admin/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`${url}: ${r.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const shopId = String((await admin('POST', '/shops', { name: 'Chain crash shop' })).shop_id);
    await admin('PUT', `/shops/${shopId}/channels/email`, { smtp_url: 'smtp://127.0.0.1:1', from: 'shop@example.org' });
    await admin('POST', `/shops/${shopId}/custom-events`, { code: 'go' });
    const chain = await admin('PUT', `/shops/${shopId}/chains/crash`, {
      status: 'active',
      trigger: { event: 'go' },
      reentry: 'always',
      steps: [{ send: { email: { subject: 'A {{ n }}', html: 'a' } } }, { wait: { seconds: 2 } }, { send: { email: { subject: 'B {{ n }}', html: 'b' } } }],
    });

    let acknowledged = 0;
    let killed = false;
    const startedAt = Date.now();
    const loop = async (n: number) => {
      for (let i = 0; !killed && Date.now() - startedAt < LOAD_LIMIT_MS; i += 1) {
        try {
          const r = await fetch(`${base}/push/custom`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ shop_id: shopId, event: 'go', email: `c${n}-${i}@example.org`, n: `${n}-${i}` }),
          });
          if (r.status !== 200) throw new Error(await r.text());
          acknowledged += 1;
        } catch {
          return;
        }
      }
    };
    const loops = Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
    while ((Date.now() - startedAt < KILL_AFTER_MS || acknowledged < MIN_ACKNOWLEDGED) && Date.now() - startedAt < LOAD_LIMIT_MS) {
      await new Promise((r) => setTimeout(r, 20));
    }
    killed = true;
    await first.kill();
    await loops;
    expect(acknowledged).toBeGreaterThanOrEqual(MIN_ACKNOWLEDGED);

    const handle = createDb(db);
    try {
      const count = async (status: 'waiting' | 'done') =>
        Number(
          (
            await handle.db
              .selectFrom('chain_runs')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('shop_id', '=', shopId)
              .where('status', '=', status)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const waitingAtKill = await count('waiting');
      // Events committed whose answer the kill cut off start their runs too: every stored event counts.
      const events = Number(
        (
          await handle.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('shop_id', '=', shopId)
            .where('event', '=', 'go')
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(events).toBeGreaterThanOrEqual(acknowledged);
      const second = CrashServer.start(env);
      servers.push(second);
      await second.url;
      const restartedAt = Date.now();
      const deadline = Date.now() + 45_000;
      const settled = async () => {
        const queued = await handle.db
          .selectFrom('messaging_deliveries')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('shop_id', '=', shopId)
          .where('status', '=', 'queued')
          .executeTakeFirstOrThrow();
        return (await count('done')) >= events && (await count('waiting')) === 0 && Number(queued.n) === 0;
      };
      while (!(await settled()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const drainMs = Date.now() - restartedAt;
      await second.kill();

      const runs = await handle.db.selectFrom('chain_runs').select(['id', 'status', 'step']).where('shop_id', '=', shopId).execute();
      expect(runs).toHaveLength(events);
      expect(runs.filter((r) => r.status !== 'done')).toEqual([]);
      const messages = await handle.db
        .selectFrom('messaging_messages')
        .select(['code', 'idempotency_key'])
        .where('shop_id', '=', shopId)
        .where('type', '=', 'chain')
        .where('mailing_id', '=', Number(chain.id))
        .execute();
      expect(messages).toHaveLength(2 * events);
      const keys = new Set(messages.map((m) => m.idempotency_key));
      for (const run of runs) {
        expect(keys.has(`chain:${Number(run.id)}:0`)).toBe(true);
        expect(keys.has(`chain:${Number(run.id)}:2`)).toBe(true);
      }
      const lost = messages.filter((m) => !received.has(`<${m.code}.0@patron>`));
      expect(lost).toEqual([]);
      const resent = [...received.values()].filter((n) => n > 1).length;
      expect(resent).toBeLessThanOrEqual(WORKER_CONCURRENCY);
      console.log(
        `[chain crash, ${dialect}] ${acknowledged} events acknowledged, ${waitingAtKill} runs waiting at the kill; ` +
          `after the restart ${runs.length} runs done with ${messages.length} messages, all received in ${drainMs} ms; ${resent} resent in flight`,
      );
    } finally {
      await handle.destroy();
    }
  }, 90_000);
});
