import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBenchApp } from './lib/admin-lists-app.js';

/**
 * `npm run bench:push-rollups` (issue 36, part 8): what the dashboards' rollups add to
 * the CPU of storing /push events, measured in one process on a busy shared machine,
 * where two server processes measured one after the other (bench:push --rollups both)
 * differ by more than the thing measured. Two apps on two fresh SQLite files, one with
 * the rollups and one without (PATRON_DASHBOARD_ROLLUPS=off), store cart events through
 * the tracking service (the group committer, as /push does: C at once, so batches form),
 * in alternating rounds; the process's CPU of each round is added to its app's sum. The
 * ratio is of the storing path alone (no HTTP), so it is an upper bound of the ratio per
 * /push request.
 *
 *   npm run bench:push-rollups -- [--events 5000] [--rounds 6] [--concurrency 50] [--devices 1000]
 */

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '6' },
    concurrency: { type: 'string', default: '50' },
    devices: { type: 'string', default: '1000' },
  },
});
const EVENTS = Number(values.events);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const DEVICES = Number(values.devices);

type Mode = 'off' | 'on';

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patron-push-rollups-'));
  const apps = new Map<Mode, { app: Awaited<ReturnType<typeof openBenchApp>>; shopId: string; dids: string[] }>();
  try {
    for (const mode of ['off', 'on'] as const) {
      const app = await openBenchApp(path.join(dir, `${mode}.sqlite`), undefined, { PATRON_DASHBOARD_ROLLUPS: mode });
      const { shop } = await app.app.services.shops.createShop({ name: `rollups ${mode}`, timezone: 'Europe/Moscow' });
      const dids: string[] = [];
      for (let i = 0; i < DEVICES; i++) dids.push((await app.app.services.identity.createDevice(shop.shopId)).did);
      apps.set(mode, { app, shopId: shop.shopId, dids });
    }
    const cpu: Record<Mode, number> = { off: 0, on: 0 };
    const store = async (mode: Mode, count: number): Promise<number> => {
      const { app, shopId, dids } = apps.get(mode)!;
      const started = process.cpuUsage();
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < count) {
          const i = next++;
          await app.app.services.tracking.recordPush({
            shopId,
            did: dids[i % dids.length]!,
            event: 'cart',
            items: [{ id: `P-${i % 500}`, amount: 1, price: 100 }],
            attribution: {},
          });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const used = process.cpuUsage(started);
      return used.user + used.system;
    };
    // A warm-up round each, not counted.
    for (const mode of ['off', 'on'] as const) await store(mode, Math.min(EVENTS, 1000));
    for (let round = 0; round < ROUNDS; round++) {
      const order: Mode[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      const line: string[] = [];
      for (const mode of order) {
        const us = await store(mode, EVENTS);
        cpu[mode] += us;
        line.push(`${mode} ${(us / EVENTS).toFixed(1)} µs`);
      }
      console.log(`round ${round + 1}: ${line.join(', ')} per event`);
    }
    const off = cpu.off / (EVENTS * ROUNDS);
    const on = cpu.on / (EVENTS * ROUNDS);
    console.log(`\nCPU per stored event: without rollups ${off.toFixed(1)} µs, with ${on.toFixed(1)} µs: ratio ${(on / off).toFixed(3)}`);
    console.log(`target (issue 36, part 8): ${on / off <= 1.1 ? 'PASS' : 'MISS'}  at most 1.10`);
  } finally {
    for (const { app } of apps.values()) await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
