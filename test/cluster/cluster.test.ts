import crypto from 'node:crypto';
import fs from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp-peer.js';
import { admin, newTally, type Tally } from './client.js';
import { Cluster, missingParts, type PatronNode } from './cluster.js';
import { checkCheckoutRace, checkLedgers, checkLink, checkSchedules, onceEach, storedSignups, storedViews } from './invariants.js';
import { setUpShop, startFeedServer, waitForCatalog, type FeedServer, type Shop } from './shop.js';
import { checkoutRace, importAudience, linkDevices, makeDevices, memberEmail, newRecords, startStreams, type Device } from './workload.js';

/**
 * `npm run test:cluster` (issue 39): 3 `patron serve --no-worker` and 2 `patron worker`
 * on one fresh PostgreSQL database behind HAProxy (test/cluster/cluster.ts), under a fixed
 * mixed workload with faults, then every invariant checked exactly:
 *
 * 1. load with kill -9 of one API node and one worker in the middle, both started again;
 * 2. a rolling restart of every node, one at a time, under load: no request may fail;
 * 3. PostgreSQL itself restarted under load (the cluster's own server: test/cluster/cluster.ts):
 *    requests answer 503 in their endpoint's envelope while it is down, and every node
 *    recovers by itself;
 *
 * then: every acknowledged event stored once, every acknowledged message delivered once
 * (nothing sent twice), one profile for 400 devices linked to one email through different
 * nodes, the single-use code redeemed once, the certificate never overdrawn, every bonus
 * balance equal to its ledger, the audience imported whole and mailed once by a bulk
 * mailing, one feed fetch for its tick and one pending link of each scheduled chain.
 * CLUSTER_PGBOUNCER=on puts pgbouncer (transaction pooling) between the nodes and PostgreSQL.
 */

const PGBOUNCER = process.env.CLUSTER_PGBOUNCER === 'on';
const ADMIN_TOKEN = `cluster-${crypto.randomBytes(12).toString('hex')}`;
const LINK_EMAIL = 'linked@cluster.example';
const MEMBERS = 20;
const AUDIENCE = 1000;
const RACE_ORDERS = 40;
const missing = missingParts({ pgbouncer: PGBOUNCER });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(missing.length > 0)(
  `a cluster of 3 API nodes and 2 workers behind HAProxy${PGBOUNCER ? ', through pgbouncer' : ''}`,
  () => {
    let cluster: Cluster;
    let peer: SmtpPeer;
    let feed: FeedServer;
    let shop: Shop;
    let devices: Device[];
    let db: pg.Client;

    let setUpStarted = 0;

    beforeAll(async () => {
      setUpStarted = Date.now();
      peer = await startSmtpPeer();
      feed = await startFeedServer();
      cluster = await Cluster.start({
        apiNodes: 3,
        workers: 2,
        pgbouncer: PGBOUNCER,
        adminToken: ADMIN_TOKEN,
        env: { PATRON_JOB_LEASE_SECONDS: '5' },
      });
      shop = await setUpShop(cluster.url, ADMIN_TOKEN, peer.port, feed.url, MEMBERS);
      await waitForCatalog(cluster.url, ADMIN_TOKEN, shop.id);
      devices = await makeDevices(cluster.url, shop.id, 60);
      db = await cluster.client();
    }, 180_000);

    afterAll(async () => {
      await db?.end();
      await cluster?.close();
      await peer?.close();
      await feed?.close();
    });

    it('keeps every invariant through kill -9, a rolling restart and a PostgreSQL restart', async () => {
      const records = newRecords();
      const started = Date.now();
      const report: string[] = [`set up in ${((started - setUpStarted) / 1000).toFixed(1)} s`];
      const mark = (what: string) => report.push(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);

      // 1. Load, with one API node and one worker killed in the middle and started again.
      const killTally = newTally();
      const steady = startStreams(cluster.url, shop, devices, records, killTally, 'k');
      const side = Promise.all([
        linkDevices(
          cluster.url,
          cluster.api.map((n) => n.baseUrl),
          shop.id,
          LINK_EMAIL,
          400,
        ),
        checkoutRace(cluster.url, shop, RACE_ORDERS),
        importAudience(cluster.url, shop, AUDIENCE),
      ]);
      await sleep(1500);
      const victims: PatronNode[] = [cluster.api[1]!, cluster.workers[0]!];
      await Promise.all(victims.map((node) => node.kill()));
      await sleep(2000);
      await Promise.all(victims.map((node) => node.start()));
      const [link, race] = await side;
      await sleep(1000);
      await steady.stop();
      mark(`kill -9 phase: ${summary(killTally)}`);
      expect(killTally.badEnvelopes, 'answers of 5xx other than the balancer’s and the endpoints’ own 503').toEqual([]);

      // The audience is imported whole (its job ran on whichever worker), then mailed.
      await waitFor(
        async () =>
          Number((await admin(cluster.url, ADMIN_TOKEN, 'GET', `/shops/${shop.id}/segments/${shop.segmentId}`)).size) === AUDIENCE,
        60_000,
        'the imported segment to fill',
      );
      mark('audience imported');
      const mailing = await admin(cluster.url, ADMIN_TOKEN, 'POST', `/shops/${shop.id}/mailings/bulk`, {
        name: 'Cluster',
        segment_ids: [shop.segmentId],
        email: { subject: 'Sale', html: '<p>Sale</p>' },
      });

      // 2. A rolling restart of every node under load: not one request may fail.
      const rollingTally = newTally();
      const restarts: string[] = [];
      const rolling = startStreams(cluster.url, shop, devices, records, rollingTally, 'r');
      for (const node of [...cluster.api, ...cluster.workers]) {
        const stopping = Date.now();
        expect(await node.stop(), `${node.name} exits 0 after its drain`).toBe(0);
        const starting = Date.now();
        await node.start();
        restarts.push(`${node.name} ${((starting - stopping) / 1000).toFixed(1)} s + ${((Date.now() - starting) / 1000).toFixed(1)} s`);
        // HAProxy puts a node back after two good checks (500 ms apart).
        if (node.kind === 'api') await sleep(1500);
      }
      await sleep(500);
      await rolling.stop();
      mark(`rolling restart (stopped + started: ${restarts.join(', ')}): ${summary(rollingTally)}`);
      expect(rollingTally.refused + rollingTally.unknown, `failed requests in a rolling restart: ${rollingTally.examples.join('\n')}`).toBe(
        0,
      );

      // 3. PostgreSQL restarted under load.
      {
        const pgTally = newTally();
        const outage = startStreams(cluster.url, shop, devices, records, pgTally, 'p');
        await sleep(1000);
        await cluster.postgres.restart();
        await sleep(4000);
        await outage.stop();
        mark(`PostgreSQL restart: ${summary(pgTally)}`);
        expect(
          pgTally.badEnvelopes,
          `answers while PostgreSQL was down that were not the endpoint’s own 503\n${cluster.outputs().slice(-8000)}`,
        ).toEqual([]);
        expect(pgTally.unknown, `requests without a clear answer while PostgreSQL restarted: ${JSON.stringify(pgTally.statuses)}`).toBe(0);
        // Every node recovers by itself: each answers a request that needs the database.
        for (const node of cluster.api) {
          await waitFor(async () => (await fetch(`${node.baseUrl}/ready`)).status === 200, 30_000, `${node.name} ready again`);
        }
        await db.end().catch(() => undefined);
        db = await cluster.client();
      }

      // Everything acknowledged is delivered: wait until the queue has nothing due and the mailing is done.
      await waitFor(
        async () => {
          const view = await admin(cluster.url, ADMIN_TOKEN, 'GET', `/shops/${shop.id}/mailings/bulk/${String(mailing.id)}`);
          const due = await db.query<{ n: string }>(
            `select count(*) as n from jobs where status in ('queued', 'running') and run_at <= $1`,
            [Date.now()],
          );
          return view.status === 'done' && Number(due.rows[0]?.n) === 0;
        },
        120_000,
        'the queue to drain and the bulk mailing to finish',
      );
      await sleep(1000);
      mark('everything delivered');

      const problems: string[] = [];
      problems.push(...onceEach('product views', records.views, await storedViews(db, shop.id)));
      problems.push(...onceEach('signed_up events', records.signups, await storedSignups(db, shop.id)));
      const mails = new Map<string, number>();
      for (const mail of peer.received) for (const to of mail.rcptTo) mails.set(to, (mails.get(to) ?? 0) + 1);
      const chainMails = new Map([...mails].filter(([to]) => /-c\d+@/.test(to)));
      const transactMails = new Map([...mails].filter(([to]) => /-t\d+@/.test(to)));
      const bulkMails = new Map([...mails].filter(([to]) => to.startsWith('member')));
      problems.push(...onceEach('chain mails', records.signups, chainMails));
      problems.push(...onceEach('transactional mails', records.transacts, transactMails));
      problems.push(
        ...onceEach('bulk mails', new Map(Array.from({ length: AUDIENCE }, (_, i) => [memberEmail(i), 'ack' as const])), bulkMails),
      );
      const stray = [...mails.keys()].filter((to) => !chainMails.has(to) && !transactMails.has(to) && !bulkMails.has(to));
      if (stray.length > 0) problems.push(`mails to addresses never asked for: ${stray.slice(0, 5).join(', ')}`);
      problems.push(...(await checkLink(db, shop.id, LINK_EMAIL, link.dids, link.outcomes)));
      problems.push(...(await checkCheckoutRace(db, shop.id, race)));
      const balances = new Map<string, number>();
      for (const phone of shop.phones) {
        balances.set(phone, Number((await admin(cluster.url, ADMIN_TOKEN, 'GET', `/shops/${shop.id}/loyalty/members/${phone}`)).balance));
      }
      problems.push(...(await checkLedgers(db, shop.id, balances)));
      problems.push(...(await checkSchedules(db)));
      if (feed.fetches !== 1) problems.push(`the feed was fetched ${feed.fetches} times for its one tick`);

      const counts = {
        views: records.views.size,
        signups: records.signups.size,
        transacts: records.transacts.size,
        mails: peer.received.length,
        raceApplied: race.applied.length,
        raceConfirmed: race.confirmed.length,
      };
      report.push(`sent: ${JSON.stringify(counts)}`);
      fs.writeSync(1, `\n${report.join('\n')}\n`);
      expect(problems, cluster.outputs().slice(-6000)).toEqual([]);
    }, 600_000);
  },
);

function summary(t: Tally): string {
  return `${t.ack} acknowledged, ${t.refused} refused with 503, ${t.unknown} without an answer (${JSON.stringify(t.statuses)})`;
}

async function waitFor(test: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await test().catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(250);
  }
}
