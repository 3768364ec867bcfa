import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { adminCaller, CRASH_DELIVERY_CONCURRENCY, loadUntilKill, resentCount, useCrashBed } from './crash-harness.js';

/**
 * Issue 17, "Done when": a kill -9 in the middle of a chain wait loses nothing and sends
 * nothing twice. Custom events each start a chain (send → wait 2 s → send); the server is
 * killed with SIGKILL while runs wait, and started again. Every acknowledged event has its
 * run, every run ends done with exactly one message per send step (a step moves its run
 * in the transaction of its message), and every message reaches the bed.peer. A delivery the
 * peer took in the instant before the kill may come again with the same Message-ID (the
 * messaging engine's at-least-once send, bounded by the sends in flight); it is counted apart.
 */

const ADMIN_TOKEN = 'crash-test-admin-token-0123456789';
const MIN_ACKNOWLEDGED = 30;

describe.each(TEST_DIALECTS)('a chain wait when the server is killed, on %s', (dialect) => {
  const bed = useCrashBed(dialect);

  it('finishes every run after a SIGKILL during its wait, one message per send step', async () => {
    const env = bed.env(ADMIN_TOKEN, 'e'.repeat(64));
    const first = bed.start(env);
    const base = await first.url;
    const call = adminCaller(() => base, ADMIN_TOKEN);
    const admin = (method: string, path: string, body: unknown) => call(method, `/admin/v1${path}`, body);
    const shopId = String((await admin('POST', '/shops', { name: 'Chain crash shop' })).shop_id);
    await admin('PUT', `/shops/${shopId}/channels/email`, { smtp_url: 'smtp://127.0.0.1:1', from: 'shop@example.org' });
    await admin('POST', `/shops/${shopId}/custom-events`, { code: 'go' });
    const chain = await admin('PUT', `/shops/${shopId}/chains/crash`, {
      status: 'active',
      trigger: { event: 'go' },
      reentry: 'always',
      steps: [
        { send: { email: { subject: 'A {{ n }}', html: 'a' } } },
        { wait: { seconds: 2 } },
        { send: { email: { subject: 'B {{ n }}', html: 'b' } } },
      ],
    });

    const acknowledged = await loadUntilKill(first, {
      loops: 6,
      killAfterMs: 1_500,
      minAcknowledged: MIN_ACKNOWLEDGED,
      loadLimitMs: 15_000,
      send: async (n, i) => {
        const r = await fetch(`${base}/push/custom`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ shop_id: shopId, event: 'go', email: `c${n}-${i}@example.org`, n: `${n}-${i}` }),
        });
        if (r.status !== 200) throw new Error(await r.text());
      },
    });
    expect(acknowledged).toBeGreaterThanOrEqual(MIN_ACKNOWLEDGED);

    const handle = createDb(bed.db);
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
      const second = bed.start(env);
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
      const lost = messages.filter((m) => !bed.peer.received.has(`<${m.code}.0@patron>`));
      // A lost message's deliveries say how it was lost (none written, failed, or still queued past the wait).
      const lostDeliveries =
        lost.length === 0
          ? []
          : await handle.db
              .selectFrom('messaging_deliveries')
              .select(['code', 'seq', 'status', 'error', 'attempts'])
              .where('shop_id', '=', shopId)
              .where(
                'code',
                'in',
                lost.map((m) => m.code),
              )
              .execute();
      expect({ lost, lostDeliveries, settledInTime: await settled(), drainMs }).toEqual({
        lost: [],
        lostDeliveries: [],
        settledInTime: true,
        drainMs,
      });
      const resent = resentCount(bed.peer);
      expect(resent).toBeLessThanOrEqual(CRASH_DELIVERY_CONCURRENCY);
      console.log(
        `[chain crash, ${dialect}] ${acknowledged} events acknowledged, ${waitingAtKill} runs waiting at the kill; ` +
          `after the restart ${runs.length} runs done with ${messages.length} messages, all received in ${drainMs} ms; ${resent} resent in flight`,
      );
    } finally {
      await handle.destroy();
    }
  }, 90_000);
});
