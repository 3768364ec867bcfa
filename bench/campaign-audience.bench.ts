import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { openBenchApp } from './lib/admin-lists-app.js';

/**
 * `npm run bench:campaign-audience`: the reachable audience of a campaign
 * (GET …/mailings/bulk/audience, docs/bulk.md) through the real app (app.inject: auth,
 * validation, the service, the query, the JSON) on a SQLite shop whose segment holds N
 * members (1,000,000 unless `--members`): every member with an email, one in ten with a
 * phone, one in five with a push token, one in twenty with email_bulk off, one in a
 * hundred on the dead list, and a daily email cap with one in twenty over it. Prints p50
 * and p95 of R requests after a warm-up, and the process's CPU time a request (the app
 * runs in this process: a figure that a loaded machine stretches less than the wall
 * clock), for one segment on every channel, one segment on email only, and two
 * overlapping segments (N and N/2 members). A report, not a test.
 *
 *   npm run bench:campaign-audience -- [--members 1000000] [--repeat 5]
 */

const { values } = parseArgs({ options: { members: { type: 'string', default: '1000000' }, repeat: { type: 'string', default: '5' } } });
const MEMBERS = Number(values.members);
const REPEAT = Number(values.repeat);
if (!Number.isInteger(MEMBERS) || MEMBERS < 1 || MEMBERS > 5_000_000) throw new Error('--members must be 1 to 5000000');
if (!Number.isInteger(REPEAT) || REPEAT < 1 || REPEAT > 1000) throw new Error('--repeat must be 1 to 1000');

const file = path.join(os.tmpdir(), `patron-campaign-audience-${process.pid}.sqlite`);

async function main(): Promise<void> {
  const bench = await openBenchApp(file);
  const { app, headers } = bench;
  try {
    const shop = (await app.inject({ method: 'POST', url: '/admin/v1/shops', headers, payload: { name: 'Audience bench' } })).json();
    const shopId = String(shop.shop_id);
    const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url: `/admin/v1/shops/${shopId}${url}`, headers, ...(payload ? { payload } : {}) });
    await admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:1', from: 'shop@example.org' });
    await admin('PUT', '/messaging/limits', { email: { bulk_per_day: 2 } });
    const all = Number((await admin('POST', '/segments', { name: 'Everyone' })).json().id);
    const half = Number((await admin('POST', '/segments', { name: 'Half' })).json().id);
    const day = (await admin('GET', `/mailings/bulk/audience?segment_ids=${all}&channels=email`)).json().cap_periods.day as string;

    const seeding = performance.now();
    const raw = new SqliteDatabase(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = OFF');
    const profile = raw.prepare('insert into profiles (shop_id, id, email, phone, created_at, updated_at) values (?, ?, ?, ?, 1, 1)');
    const member = raw.prepare('insert into segment_members (shop_id, segment_id, profile_id, created_at) values (?, ?, ?, 1)');
    const flags = raw.prepare(
      'insert into audience_profiles (shop_id, profile_id, email_bulk, created_at, updated_at) values (?, ?, 0, 1, 1)',
    );
    const dead = raw.prepare(
      "insert into messaging_dead_addresses (shop_id, channel, address, reason, created_at) values (?, 'email', ?, 'bench', 1)",
    );
    const token = raw.prepare(
      "insert into profile_push_tokens (shop_id, token, platform, profile_id, created_at, updated_at) values (?, ?, 'android', ?, 1, 1)",
    );
    const cap = raw.prepare("insert into bulk_cap_counters (shop_id, profile_id, channel, period, count) values (?, ?, 'email', ?, 2)");
    const fill = raw.transaction((from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        // Scattered ids, as the identity service makes them.
        const id = 1_000_000_007 + ((i * 7_919) % 1_000_003) * 1_000 + (i % 1_000);
        const email = `member${i}@bench.example`;
        profile.run(shopId, id, email, i % 10 === 0 ? `7900${String(i).padStart(7, '0')}` : null);
        member.run(shopId, all, id);
        if (i % 2 === 0) member.run(shopId, half, id);
        if (i % 20 === 1) flags.run(shopId, id);
        if (i % 100 === 2) dead.run(shopId, email);
        if (i % 5 === 3) token.run(shopId, `token-${i}`, id);
        if (i % 20 === 4) cap.run(shopId, id, day);
      }
    });
    for (let from = 0; from < MEMBERS; from += 50_000) fill(from, Math.min(MEMBERS, from + 50_000));
    raw.exec('analyze');
    raw.close();
    console.log(`seeded ${MEMBERS} members in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

    const cases: Array<[string, string]> = [
      ['one segment, every channel', `segment_ids=${all}`],
      ['one segment, email', `segment_ids=${all}&channels=email`],
      ['two overlapping segments, email', `segment_ids=${all},${half}&channels=email`],
    ];
    for (const [label, query] of cases) {
      const first = await admin('GET', `/mailings/bulk/audience?${query}`);
      if (first.statusCode !== 200) throw new Error(`${label}: ${first.statusCode} ${first.body}`);
      const times: number[] = [];
      const cpu = process.cpuUsage();
      for (let r = 0; r < REPEAT; r += 1) {
        const t0 = performance.now();
        await admin('GET', `/mailings/bulk/audience?${query}`);
        times.push(performance.now() - t0);
      }
      const used = process.cpuUsage(cpu);
      const cpuMs = ((used.user + used.system) / 1000 / REPEAT).toFixed(0);
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(0);
      const body = first.json();
      console.log(
        `${label}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, CPU ${cpuMs} ms a request; members ${body.members}, email ${JSON.stringify(body.channels.email)}`,
      );
    }
  } finally {
    await bench.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}

await main();
