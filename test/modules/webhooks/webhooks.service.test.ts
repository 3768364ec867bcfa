import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { SecretBox } from '../../../src/modules/messaging/secret-box.js';
import { DELIVERY_RETENTION_MS, WebhookDelivery } from '../../../src/modules/webhooks/webhooks.delivery.js';
import { MAX_ATTEMPTS, RETRY_BACKOFF } from '../../../src/modules/webhooks/domain/retry.js';
import { MAX_ENDPOINTS, ROTATION_GRACE_MS } from '../../../src/modules/webhooks/webhooks.service.js';
import { TOPICS_TTL_MS, WebhookTopics } from '../../../src/modules/webhooks/topics.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../helpers/local-http-server.js';
import { expectOk, messagingStack, TEST_SECRET_KEY, type MessagingStack } from '../messaging/messaging-setup.js';

/**
 * Outbound webhooks on both databases with the injected clock (docs/webhooks.md):
 * message outcomes and tracking events recorded for subscribed endpoints only, signed
 * deliveries to a local receiver, the retry schedule, 410 Gone, secret rotation, the
 * address guard at save and at send time, and the cap on endpoints under concurrency.
 */

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

function signatures(received: Received, secret: string): boolean[] {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const content = `${String(received.headers['webhook-id'])}.${String(received.headers['webhook-timestamp'])}.${received.body}`;
  const expected = `v1,${crypto.createHmac('sha256', key).update(content).digest('base64')}`;
  return String(received.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry === expected);
}

describe.each(TEST_DIALECTS)('webhooks on %s', (dialect) => {
  let s: MessagingStack;
  let server: LocalHttpServer;
  const received: Received[] = [];
  const at = (path: string) => received.filter((r) => r.path === path);

  beforeAll(async () => {
    s = await messagingStack(dialect, { PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' });
    server = await startLocalHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = request.url?.startsWith('/fail') ? 500 : request.url?.startsWith('/gone') ? 410 : 204;
        // A slow receiver: the delivery's duration is at least this.
        if (request.url?.startsWith('/slow')) setTimeout(() => response.writeHead(status).end(), 150);
        else response.writeHead(status).end();
      });
    });
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(
      s.admin('PUT', '/mailings/transactional/order', { email: { subject: 'Order', html: '<html><body><p>Hi</p></body></html>' } }),
    );
  });

  afterEach(async () => {
    for (const endpoint of await s.t.app.services.webhooks.listEndpoints(s.shopId))
      await s.t.app.services.webhooks.deleteEndpoint(s.shopId, endpoint.id);
  });

  afterAll(async () => {
    await server.close();
    await s.t.close();
  });

  async function webhookJobs(): Promise<number> {
    const rows = await s.t.db.db.selectFrom('jobs').select('id').where('name', '=', 'webhooks.deliver').execute();
    return rows.length;
  }

  async function deliveryRows(shopId: string) {
    return s.t.db.db.selectFrom('webhook_deliveries').selectAll().where('shop_id', '=', shopId).orderBy('created_at').execute();
  }

  /** A fresh shop with one endpoint for `tracking.category` at `path`, and a device to push from. */
  async function trackingShop(path: string) {
    const { shopId } = await createShopFixture(s.t.app.services);
    const created = await s.t.app.services.webhooks.createEndpoint(shopId, {
      url: `${server.url}${path}`,
      eventTypes: ['tracking.category'],
    });
    const device = await s.t.app.services.identity.createDevice(shopId);
    const push = (categoryId: string) =>
      s.t.app.services.tracking.recordPush({ shopId, did: device.did, event: 'category', categoryId, items: [], attribution: {} });
    return { shopId, ...created, push };
  }

  it('sends signed message.sent and message.opened webhooks once each, and records nothing for outcomes no endpoint takes', async () => {
    const { endpoint, secret } = await s.t.app.services.webhooks.createEndpoint(s.shopId, {
      url: `${server.url}/messages`,
      eventTypes: ['message.sent', 'message.opened'],
      description: 'CRM',
    });
    const { payload } = await expectOk(s.transact({ code: 'order', email: 'hook@example.org', variables: {} }));
    await s.runner.runDue();
    const [sent] = at('/messages');
    expect(sent).toBeDefined();
    expect(signatures(sent!, secret)).toEqual([true]);
    expect(sent!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
    expect(JSON.parse(sent!.body)).toEqual({
      type: 'message.sent',
      timestamp: new Date(s.t.clock.now()).toISOString(),
      data: {
        code: payload.code,
        seq: 0,
        channel: 'email',
        message_type: 'transactional',
        profile_id: expect.any(Number),
        address: 'hook@example.org',
      },
    });

    const pixel = /<img src="([^"]+)"/.exec(s.email.sent.at(-1)!.message.html)![1]!.replace(/&amp;/g, '&');
    const url = new URL(pixel);
    for (let i = 0; i < 2; i += 1) {
      s.t.clock.advance(1000);
      expect((await s.t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).statusCode).toBe(200);
    }
    await s.runner.runDue();
    expect(at('/messages').map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['message.sent', 'message.opened']);
    const deliveries = await s.t.app.services.webhooks.listDeliveries(s.shopId, endpoint.id, { limit: 10, offset: 0 });
    expect(deliveries.map((d) => [d.eventType, d.status, d.attempts, d.lastStatusCode, d.lastError])).toEqual([
      ['message.opened', 'succeeded', 1, 204, null],
      ['message.sent', 'succeeded', 1, 204, null],
    ]);

    // A click is an outcome this endpoint does not take: no row, no job.
    const jobs = await webhookJobs();
    await s.t.app.services.webhooks.deleteEndpoint(s.shopId, endpoint.id);
    await expectOk(s.transact({ code: 'order', email: 'quiet@example.org', variables: {} }));
    await s.runner.runDue();
    expect(await webhookJobs()).toBe(jobs);
    expect(await deliveryRows(s.shopId)).toHaveLength(0);
  });

  it('sends message.bounced with its bounce type, and message.complained, from the bounce webhook path', async () => {
    await s.t.app.services.webhooks.createEndpoint(s.shopId, {
      url: `${server.url}/bounces`,
      eventTypes: ['message.bounced', 'message.complained'],
    });
    const { payload } = await expectOk(s.transact({ code: 'order', email: 'bounce@example.org', variables: {} }));
    await s.runner.runDue();
    expect(at('/bounces')).toHaveLength(0);
    const outcomes = s.t.app.services.messageOutcomes;
    expect(await outcomes.bounce(s.shopId, { code: payload.code as string, type: 'soft', reason: '4.2.2 Mailbox full' })).toBe(true);
    expect(await outcomes.bounce(s.shopId, { code: payload.code as string, type: 'soft' })).toBe(true);
    expect(await outcomes.bounce(s.shopId, { code: payload.code as string, type: 'complaint' })).toBe(true);
    await s.runner.runDue();
    const bodies = at('/bounces').map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    // One delivery each, sent side by side: compared in the order of their types.
    expect(bodies.map((b) => [b.type, b.data.bounce_type, b.data.address]).sort()).toEqual([
      ['message.bounced', 'soft', 'bounce@example.org'],
      ['message.complained', undefined, 'bounce@example.org'],
    ]);
  });

  it('retries a failing endpoint with doubling delays up to 6 h, 15 attempts in all, then records the failure', async () => {
    const shop = await trackingShop('/fail');
    await shop.push('5');
    await s.runner.runDue();
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      const [row] = await deliveryRows(shop.shopId);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: attempt,
        last_status_code: 500,
        last_error: 'The endpoint answered HTTP 500.',
      });
      const delay = Number(row!.next_attempt_at) - s.t.clock.now();
      const planned = Math.min(RETRY_BACKOFF.baseMs * 2 ** (attempt - 1), RETRY_BACKOFF.maxMs);
      expect(delay).toBeGreaterThanOrEqual(Math.floor(planned * 0.9));
      expect(delay).toBeLessThanOrEqual(Math.min(planned * 1.1, RETRY_BACKOFF.maxMs));
      // Not a moment early: the job waits for its time.
      s.t.clock.set(Number(row!.next_attempt_at) - 1);
      await s.runner.runDue();
      expect((await deliveryRows(shop.shopId))[0]!.attempts).toBe(attempt);
      s.t.clock.advance(1);
      await s.runner.runDue();
    }
    const [last] = await deliveryRows(shop.shopId);
    expect(last).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      next_attempt_at: null,
      last_error: 'The endpoint answered HTTP 500. No attempts are left.',
    });
    const attempts = at('/fail').filter((r) => JSON.parse(r.body).data.event_id !== undefined && r.headers['webhook-id'] === last!.id);
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(attempts.map((r) => r.headers['webhook-timestamp'])).size).toBe(MAX_ATTEMPTS);
    expect(attempts.every((r) => signatures(r, shop.secret)[0])).toBe(true);

    // Sent again by hand: a fresh set of attempts that goes on retrying as the first did.
    await s.t.app.services.webhooks.retryDelivery(shop.shopId, shop.endpoint.id, last!.id);
    await s.runner.runDue();
    const [again] = await deliveryRows(shop.shopId);
    expect(again).toMatchObject({ status: 'pending', attempts: 1 });
    s.t.clock.set(Number(again!.next_attempt_at));
    await s.runner.runDue();
    expect((await deliveryRows(shop.shopId))[0]).toMatchObject({ status: 'pending', attempts: 2 });
    await expect(s.t.app.services.webhooks.retryDelivery(shop.shopId, shop.endpoint.id, last!.id)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(s.t.app.services.webhooks.retryDelivery(shop.shopId, shop.endpoint.id, 'msg_none')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('lists a delivery with its status code and duration, and sends a succeeded one again through the admin API, same webhook-id', async () => {
    const shop = await trackingShop('/slow');
    await shop.push('6');
    await s.runner.runDue();
    const route = `/admin/v1/shops/${shop.shopId}/webhooks/endpoints/${shop.endpoint.id}/deliveries`;
    const list = async () =>
      (await expectOk(s.t.app.inject({ method: 'GET', url: route, headers: s.t.adminHeaders }))).deliveries as Array<
        Record<string, unknown>
      >;
    const [first] = await list();
    expect(first).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 204, last_error: null });
    expect(first!.last_duration_ms).toBeGreaterThanOrEqual(140);
    expect(first!.last_duration_ms).toBeLessThan(15_000);

    const again = await s.t.app.inject({ method: 'POST', url: `${route}/${String(first!.id)}/retry`, headers: s.t.adminHeaders });
    expect(again.statusCode, again.body).toBe(202);
    const [pending] = await list();
    expect(pending).toMatchObject({ id: first!.id, status: 'pending', attempts: 0 });
    // A second "send again" while it is pending is refused in words.
    const twice = await s.t.app.inject({ method: 'POST', url: `${route}/${String(first!.id)}/retry`, headers: s.t.adminHeaders });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('The delivery is pending: it is being sent already.');
    await s.runner.runDue();
    expect((await list())[0]).toMatchObject({ id: first!.id, status: 'succeeded', attempts: 1, last_status_code: 204 });
    expect(at('/slow').filter((r) => r.headers['webhook-id'] === first!.id)).toHaveLength(2);

    // Another shop cannot send this one again, nor see it.
    const other = await createShopFixture(s.t.app.services);
    const foreign = `/admin/v1/shops/${other.shopId}/webhooks/endpoints/${shop.endpoint.id}/deliveries`;
    expect(
      (await s.t.app.inject({ method: 'POST', url: `${foreign}/${String(first!.id)}/retry`, headers: s.t.adminHeaders })).statusCode,
    ).toBe(404);
    expect((await s.t.app.inject({ method: 'GET', url: foreign, headers: s.t.adminHeaders })).statusCode).toBe(404);
  });

  it('disables an endpoint that answers 410 Gone; it receives nothing more until enabled again', async () => {
    const shop = await trackingShop('/gone');
    await shop.push('1');
    await s.runner.runDue();
    const endpoint = await s.t.app.services.webhooks.getEndpoint(shop.shopId, shop.endpoint.id);
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered HTTP 410 Gone; it was disabled.' });
    expect(await deliveryRows(shop.shopId)).toMatchObject([{ status: 'failed', attempts: 1, last_status_code: 410 }]);
    await shop.push('2');
    await s.runner.runDue();
    expect(await deliveryRows(shop.shopId)).toHaveLength(1);
    const [gone] = await deliveryRows(shop.shopId);
    await expect(s.t.app.services.webhooks.retryDelivery(shop.shopId, shop.endpoint.id, gone!.id)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await s.t.app.services.webhooks.updateEndpoint(shop.shopId, shop.endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    await shop.push('3');
    await s.runner.runDue();
    expect(await deliveryRows(shop.shopId)).toHaveLength(2);
  });

  it('signs with the new and the old secret for 24 hours after a rotation, then with the new one alone', async () => {
    const shop = await trackingShop('/rotate');
    const rotated = await s.t.app.services.webhooks.rotateSecret(shop.shopId, shop.endpoint.id);
    expect(rotated.secret).not.toBe(shop.secret);
    expect(rotated.previousSecretUntil).toBe(s.t.clock.now() + ROTATION_GRACE_MS);
    await shop.push('1');
    await s.runner.runDue();
    const first = at('/rotate').at(-1)!;
    expect(signatures(first, rotated.secret)).toEqual([true, false]);
    expect(signatures(first, shop.secret)).toEqual([false, true]);

    // Two rotations at once: one wins, the other is told to try again rather than answer a secret that never signs.
    const racing = await Promise.allSettled([0, 1].map(() => s.t.app.services.webhooks.rotateSecret(shop.shopId, shop.endpoint.id)));
    expect(racing.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    for (const r of racing) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT' });
    await shop.push('r');
    await s.runner.runDue();
    const answered = racing.flatMap((r) => (r.status === 'fulfilled' ? [r.value.secret] : []));
    const winner = answered.find((secret) => signatures(at('/rotate').at(-1)!, secret)[0])!;
    expect(winner).toBeDefined();

    s.t.clock.advance(ROTATION_GRACE_MS);
    expect((await s.t.app.services.webhooks.getEndpoint(shop.shopId, shop.endpoint.id)).previousSecretUntil).toBeNull();
    await shop.push('2');
    await s.runner.runDue();
    const later = at('/rotate').at(-1)!;
    expect(later.headers['webhook-id']).not.toBe(first.headers['webhook-id']);
    expect(signatures(later, winner)).toEqual([true]);
  });

  it('prunes finished deliveries older than 30 days as new ones finish, never pending ones', async () => {
    const shop = await trackingShop('/prune');
    await shop.push('old');
    await s.runner.runDue();
    const [old] = await deliveryRows(shop.shopId);
    expect(old).toMatchObject({ status: 'succeeded' });
    s.t.clock.advance(DELIVERY_RETENTION_MS - 1000);
    await shop.push('recent');
    await s.runner.runDue();
    expect(await deliveryRows(shop.shopId)).toHaveLength(2);
    s.t.clock.advance(2000);
    await shop.push('new');
    await s.runner.runDue();
    const ids = (await deliveryRows(shop.shopId)).map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(old!.id);
  });

  it('records a tracking event once however often it is handed over, checks the address again at send time, and fails a delivery whose secret cannot be opened', async () => {
    const shop = await trackingShop('/rebind');
    const event = await shop.push('9');
    const subscriber = s.t.app.services.webhooks.trackingSubscriber();
    await subscriber.handle(event);
    await subscriber.handle(event);
    const [row] = await deliveryRows(shop.shopId);
    expect(JSON.parse(row!.payload)).toMatchObject({
      type: 'tracking.category',
      data: { event_id: event.id, params: { category_id: '9' } },
    });
    // The same URL, judged by a process that no longer lets 127.0.0.1 through (as if its name now resolved there).
    const strict = new WebhookDelivery({
      db: s.t.db,
      clock: s.t.clock,
      config: { fetchAllowPrivate: false },
      jobs: s.t.app.services.jobs,
      box: new SecretBox({ secretKey: TEST_SECRET_KEY, dataDir: s.t.config.dataDir }),
      topics: s.t.app.services.webhooks.topics,
    });
    await strict.deliver({ shopId: shop.shopId, endpointId: shop.endpoint.id, id: row!.id });
    await s.runner.runDue();
    expect(await deliveryRows(shop.shopId)).toMatchObject([
      {
        status: 'failed',
        attempts: 1,
        last_status_code: null,
        last_error: 'The link points to a local or private network address, which is not allowed.',
      },
    ]);
    expect(at('/rebind')).toHaveLength(0);

    // A server whose secret key changed cannot open the endpoint's secret: the delivery fails saying what to do, nothing is sent.
    const rekeyed = new WebhookDelivery({
      db: s.t.db,
      clock: s.t.clock,
      config: s.t.config,
      jobs: s.t.app.services.jobs,
      box: new SecretBox({ secretKey: 'c'.repeat(64), dataDir: s.t.config.dataDir }),
      topics: s.t.app.services.webhooks.topics,
    });
    const next = await shop.push('10');
    await subscriber.handle(next);
    const pending = (await deliveryRows(shop.shopId)).find((r) => r.status === 'pending')!;
    await rekeyed.deliver({ shopId: shop.shopId, endpointId: shop.endpoint.id, id: pending.id });
    expect((await deliveryRows(shop.shopId)).find((r) => r.id === pending.id)).toMatchObject({
      status: 'failed',
      attempts: 0,
      last_error: "The endpoint's secret cannot be opened with the server's secret key; rotate the secret.",
    });
    await s.runner.runDue();
    expect(at('/rebind')).toHaveLength(0);
  });

  it('reads the endpoints again once its snapshot is 5 s old, as a backstop to the settings version, answering from memory until then', async () => {
    const other = new WebhookTopics({ db: s.t.db, clock: s.t.clock });
    await other.reload();
    const shop = await trackingShop('/other');
    expect(s.t.app.services.webhooks.topics.wants(shop.shopId, 'tracking.category')).toBe(true);
    expect(other.wants(shop.shopId, 'tracking.category')).toBe(false);
    s.t.clock.advance(TOPICS_TTL_MS);
    await vi.waitFor(() => expect(other.wants(shop.shopId, 'tracking.category')).toBe(true));
    expect(other.wants(shop.shopId, 'tracking.view')).toBe(false);
  });

  it('refuses private addresses, other schemes and unknown event types when an endpoint is saved', async () => {
    const hooks = s.t.app.services.webhooks;
    for (const url of [
      'http://10.1.2.3/hook',
      'http://[::1]:8080/hook',
      'http://169.254.169.254/latest',
      'ftp://93.184.216.34/x',
      'not a url',
    ]) {
      await expect(hooks.createEndpoint(s.shopId, { url, eventTypes: ['message.sent'] })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { field: 'url' },
      });
    }
    await expect(hooks.createEndpoint(s.shopId, { url: 'https://93.184.216.34/hook', eventTypes: ['message.nope'] })).rejects.toMatchObject(
      {
        details: { field: 'event_types' },
      },
    );
    const { endpoint } = await hooks.createEndpoint(s.shopId, { url: 'https://93.184.216.34/hook', eventTypes: ['message.sent'] });
    await expect(hooks.updateEndpoint(s.shopId, endpoint.id, { url: 'http://192.168.0.10/' })).rejects.toBeInstanceOf(AppError);
    expect((await hooks.getEndpoint(s.shopId, endpoint.id)).url).toBe('https://93.184.216.34/hook');
  });

  it(`lets exactly ${MAX_ENDPOINTS} of 100 concurrent creations through, and a deletion frees a place`, async () => {
    const { shopId } = await createShopFixture(s.t.app.services);
    const hooks = s.t.app.services.webhooks;
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        hooks.createEndpoint(shopId, { url: `https://93.184.216.34/h${i}`, eventTypes: ['tracking.view'] }),
      ),
    );
    const created = results.filter((r) => r.status === 'fulfilled');
    expect(created).toHaveLength(MAX_ENDPOINTS);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r.reason as AppError).code === 'CONFLICT')).toBe(true);
    expect(await hooks.listEndpoints(shopId)).toHaveLength(MAX_ENDPOINTS);
    const [first] = await hooks.listEndpoints(shopId);
    await hooks.deleteEndpoint(shopId, first!.id);
    await hooks.createEndpoint(shopId, { url: 'https://93.184.216.34/again', eventTypes: ['tracking.view'] });
    await expect(hooks.createEndpoint(shopId, { url: 'https://93.184.216.34/over', eventTypes: ['tracking.view'] })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });
});
