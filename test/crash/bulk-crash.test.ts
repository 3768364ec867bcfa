import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../helpers/db.js';
import { adminCaller, CRASH_DELIVERY_CONCURRENCY, resentCount, useCrashBed } from './crash-harness.js';

/**
 * Issue 17, "Done when": a server killed with SIGKILL in the middle of a bulk send, and
 * started again, mails every member of the segment exactly one message (one Message-ID
 * each), none lost. Delivery is at least once: a send the peer took in the last instant
 * before the kill, whose `sent` the dead process never committed, goes again with the
 * same Message-ID (a mail store drops it by that id), bounded by the sends in flight.
 */

const ADMIN_TOKEN = 'bulk-crash-admin-token-0123456789';
const MEMBERS = 600;
const KILL_AT_RECEIVED = 100;

// A slow peer keeps the send going long enough to be cut in the middle.
describe.each(TEST_DIALECTS)('a bulk mailing when the server is killed mid-send, on %s', (dialect) => {
  const bed = useCrashBed(dialect, { answerAfterMs: 2 });

  it('mails every member once after a SIGKILL and a restart', async () => {
    const env = bed.env(ADMIN_TOKEN, 'e'.repeat(64));
    const first = bed.start(env);
    let base = await first.url;
    const call = adminCaller(() => base, ADMIN_TOKEN);
    const shop = await call('POST', '/admin/v1/shops', { name: 'Bulk crash shop' });
    const shopId = String(shop.shop_id);
    const admin = `/admin/v1/shops/${shopId}`;
    await call('PUT', `${admin}/channels/email`, { smtp_url: 'smtp://127.0.0.1:1', from: 'shop@example.org' });
    const segment = await call('POST', `${admin}/segments`, { name: 'Everyone' });
    const audience = Array.from({ length: MEMBERS }, (_, i) => ({ email: `m${i}@example.org` }));
    await call('POST', '/import/audience', { shop_id: shopId, shop_secret: shop.shop_secret, segment_id: segment.id, audience });
    for (let size = 0; size < MEMBERS; ) {
      size = Number((await call('GET', `${admin}/segments/${String(segment.id)}`)).size);
      if (size < MEMBERS) await new Promise((r) => setTimeout(r, 50));
    }
    const mailing = await call('POST', `${admin}/mailings/bulk`, {
      name: 'Crash',
      segment_ids: [segment.id],
      email: { subject: 'Hi', html: '<p>hi</p>' },
    });

    while (bed.peer.received.size < KILL_AT_RECEIVED) await new Promise((r) => setTimeout(r, 5));
    await first.kill();
    const beforeRestart = bed.peer.received.size;
    expect(beforeRestart).toBeLessThan(MEMBERS);

    const second = bed.start(env);
    base = await second.url;
    const deadline = Date.now() + 60_000;
    let view = await call('GET', `${admin}/mailings/bulk/${String(mailing.id)}`);
    while (view.status !== 'done' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      view = await call('GET', `${admin}/mailings/bulk/${String(mailing.id)}`);
    }
    await second.kill();
    expect(view).toMatchObject({ status: 'done', recipients: MEMBERS, sent: MEMBERS, skipped: 0, failed: 0 });
    expect(bed.peer.byAddress.size).toBe(MEMBERS);
    const twoMessages = [...bed.peer.byAddress.entries()].filter(([, ids]) => ids.size !== 1);
    expect(twoMessages).toEqual([]);
    const resent = resentCount(bed.peer);
    expect(resent).toBeLessThanOrEqual(CRASH_DELIVERY_CONCURRENCY);
    console.log(
      `[bulk crash, ${dialect}] ${MEMBERS} members, ${beforeRestart} mailed before the kill, all ${MEMBERS} after the restart, ` +
        `one message each; ${resent} resent with the same Message-ID (in flight at the kill)`,
    );
  }, 120_000);
});
