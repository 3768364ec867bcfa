import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * Rendering does not block the server (issue 33, part 3): a heavy template renders off the
 * thread that asked for it (the preview's, the deliveries'), is cut off at the render
 * limit with its reason, and a shop's burst of messages with it spends the shop's render
 * budget, not the limit once per message. The clock stands still, so no budget refills
 * unless a test moves it.
 */

const LIMIT_MS = 400;
/** Ten billion turns of an empty loop: only the limit ends it. */
const HEAVY = '{% for a in (1..100000) %}{% for b in (1..100000) %}{% endfor %}{% endfor %}';
const CUT_OFF = `sms.body takes more than ${LIMIT_MS} ms to render`;

describe.each(TEST_DIALECTS)('template rendering under limits on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect, { PATRON_RENDER_LIMIT_MS: String(LIMIT_MS), PATRON_RENDER_BUDGET_MS: String(LIMIT_MS) });
  });

  afterAll(async () => {
    await s.t.close();
  });

  /** A shop of its own (each has its own render budget) with an SMS channel and the mailing `notice` of `body`. */
  async function shopWith(body: string) {
    const { shopId, secret } = await createShopFixture(s.t.app.services);
    const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
      s.t.app.inject({ method, url: `/admin/v1/shops/${shopId}${path}`, headers: s.t.adminHeaders, payload });
    await expectOk(admin('PUT', '/channels/sms', { provider: 'test_sms', api_key: 'sms-key-0123456789abcdef', sender: 'SHOP' }));
    await expectOk(admin('PUT', '/mailings/transactional/notice', { sms: { body } }));
    let phones = 0;
    return {
      shopId,
      preview: () => admin('POST', '/mailings/transactional/notice/preview', {}),
      /** One message to a new phone; its code. */
      send: async (): Promise<string> => {
        phones += 1;
        const phone = `7900${shopId.slice(0, 3).replace(/\D/g, '1')}${String(phones).padStart(4, '0')}`;
        const r = await expectOk(
          s.t.app.inject({ method: 'POST', url: '/transact', payload: { shop_id: shopId, shop_secret: secret, code: 'notice', phone } }),
        );
        return r.payload.code as string;
      },
      deliveries: () =>
        s.t.db.db
          .selectFrom('messaging_deliveries')
          .select(['code', 'status', 'error'])
          .where('shop_id', '=', shopId)
          .orderBy('code')
          .execute(),
    };
  }

  it('answers /health while a heavy template previews, then cuts the preview off at the limit with a 422 naming it', async () => {
    const shop = await shopWith(HEAVY);
    const finished: string[] = [];
    const preview = shop.preview().then((r) => {
      finished.push('preview');
      return r;
    });
    // A timer: it fires only once the thread is free of whatever the preview holds it with.
    await sleep(20);
    const health = await s.t.app.inject({ method: 'GET', url: '/health' });
    finished.push('health');
    expect(health.statusCode).toBe(200);
    const r = await preview;
    expect(finished).toEqual(['health', 'preview']);
    expect(r.statusCode, r.body).toBe(422);
    expect(r.json().error.message).toBe(`The mailing does not render: ${CUT_OFF}`);
  });

  it("delivers another shop's message while a heavy template renders for a delivery", async () => {
    const heavy = await shopWith(HEAVY);
    const light = await shopWith('Your code is 1234');
    const [heavyCode] = [await heavy.send()];
    const heavyRun = s.runner.runDue();
    await sleep(20);
    const lightCode = await light.send();
    await s.runner.runDue();
    expect(s.sms.sent.some((m) => m.message.body === 'Your code is 1234')).toBe(true);
    expect(await light.deliveries()).toMatchObject([{ code: lightCode, status: 'sent' }]);
    // The heavy one was still rendering when the light one went out.
    expect(await heavy.deliveries()).toMatchObject([{ code: heavyCode, status: 'queued' }]);
    await heavyRun;
    expect(await heavy.deliveries()).toEqual([{ code: heavyCode, status: 'failed', error: `The template does not render: ${CUT_OFF}` }]);
  });

  it('spends one limit of render time on a burst of messages with a heavy template, not one per message: the others wait their turn', async () => {
    const shop = await shopWith(HEAVY);
    for (let i = 0; i < 6; i += 1) await shop.send();
    await s.runner.runDue();
    const statuses = async () => (await shop.deliveries()).map((d) => d.status).sort();
    expect(await statuses()).toEqual(['failed', 'queued', 'queued', 'queued', 'queued', 'queued']);
    const failed = (await shop.deliveries()).filter((d) => d.status === 'failed');
    expect(failed.map((d) => d.error)).toEqual([`The template does not render: ${CUT_OFF}`]);
    // The waiting ones are not failed attempts: each has its job at a later time.
    const waiting = await s.t.db.db
      .selectFrom('jobs')
      .select(['run_at'])
      .where('name', '=', 'messaging.deliver')
      .where('status', '=', 'queued')
      .where('payload', 'like', `%${shop.shopId}%`)
      .execute();
    expect(waiting).toHaveLength(5);
    for (const job of waiting) expect(Number(job.run_at)).toBeGreaterThan(s.t.clock.now());

    // A second and a half later the budget holds one more render: one more message is tried, the rest wait on.
    s.t.clock.advance(1_500);
    await s.runner.runDue();
    expect(await statuses()).toEqual(['failed', 'failed', 'queued', 'queued', 'queued', 'queued']);
  });

  it("answers a preview 429 with Retry-After while the shop's render time is spent", async () => {
    const shop = await shopWith(HEAVY);
    const first: LightMyRequestResponse = await shop.preview();
    expect(first.statusCode, first.body).toBe(422);
    const second = await shop.preview();
    expect(second.statusCode, second.body).toBe(429);
    expect(second.json().error.message).toMatch(/^The shop's templates have used their render time for now; try again in \d+ s\.$/);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
  });
});
