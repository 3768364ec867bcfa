import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PatronApp } from '../../../src/app.js';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import type { JobRunner } from '../../../src/jobs/runner.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { startLocalHttpServer, type LocalHttpServer } from '../../helpers/local-http-server.js';
import { RecordingProvider, SMTP_LIKE_SCHEMA } from '../../helpers/recording-provider.js';
import { expectOk, messagingStack, type MessagingStack } from '../messaging/messaging-setup.js';

/**
 * An admin change applies at once (docs/webhooks.md): in the process that made it, and in
 * another one on the same database (`patron serve`'s job thread, or another process),
 * which has read its settings before the change and whose clock has not moved since.
 */
describe.each(TEST_DIALECTS)('settings changed by an admin, seen at once on %s', (dialect) => {
  let s: MessagingStack;
  let otherDb: DbHandle;
  let other: PatronApp;
  let otherRunner: JobRunner;
  let otherEmail: RecordingProvider<'email'>;
  let server: LocalHttpServer;
  const received: { path: string; type: string }[] = [];

  beforeAll(async () => {
    s = await messagingStack(dialect, { PATRON_FETCH_ALLOW_PRIVATE: '127.0.0.1' });
    server = await startLocalHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', type: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type });
        response.writeHead(204).end();
      });
    });
    otherDb = createDb(s.t.db.options);
    other = await buildApp({ config: s.t.config, db: otherDb, clock: s.t.clock, logger: false });
    otherEmail = new RecordingProvider('email', 'smtp', SMTP_LIKE_SCHEMA, []);
    other.services.messagingProviders.replace(otherEmail);
    await other.ready();
    otherRunner = createJobRunner({ config: s.t.config, services: other.services, clock: s.t.clock, log: createLogger('silent') });
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    await expectOk(s.admin('PUT', '/mailings/transactional/order', { email: { subject: 'Order', html: '<p>Hi</p>' } }));
  });
  afterAll(async () => {
    await other.close();
    await otherDb.destroy();
    await server.close();
    await s.t.close();
  });

  async function createEndpoint(shopId: string, path: string, eventTypes: string[]): Promise<void> {
    const created = await s.t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopId}/webhooks/endpoints`,
      headers: s.t.adminHeaders,
      payload: { url: `${server.url}${path}`, event_types: eventTypes },
    });
    expect(created.statusCode, created.body).toBe(201);
  }

  it('delivers message.sent for a message sent by another process right after the endpoint was created', async () => {
    // The other process has answered for this shop before: its snapshot says "no endpoint".
    expect(other.services.webhooks.topics.wants(s.shopId, 'message.sent')).toBe(false);
    await createEndpoint(s.shopId, '/sent', ['message.sent']);
    await expectOk(s.transact({ code: 'order', email: 'first@example.org', variables: {} }));
    await otherRunner.runDue();
    await otherRunner.runDue();
    expect(received.filter((r) => r.path === '/sent').map((r) => r.type)).toEqual(['message.sent']);
  });

  it('delivers a tracking event another process records right after the endpoint was created', async () => {
    const { shopId } = await createShopFixture(s.t.app.services);
    const device = await other.services.identity.createDevice(shopId);
    const push = (categoryId: string) =>
      other.inject({
        method: 'POST',
        url: '/push',
        payload: { shop_id: shopId, did: device.did, event: 'category', category_id: categoryId },
      });
    expect((await push('before')).statusCode).toBe(200);
    await createEndpoint(shopId, '/tracked', ['tracking.category']);
    expect((await push('after')).statusCode).toBe(200);
    await otherRunner.runDue();
    await otherRunner.runDue();
    expect(received.filter((r) => r.path === '/tracked').map((r) => r.type)).toEqual(['tracking.category']);
  });

  it('delivers an event of the process that created the endpoint, at once', async () => {
    const { shopId } = await createShopFixture(s.t.app.services);
    const device = await s.t.app.services.identity.createDevice(shopId);
    await createEndpoint(shopId, '/here', ['tracking.category']);
    const pushed = await s.t.app.inject({
      method: 'POST',
      url: '/push',
      payload: { shop_id: shopId, did: device.did, event: 'category', category_id: 'c1' },
    });
    expect(pushed.statusCode).toBe(200);
    await s.runner.runDue();
    await s.runner.runDue();
    expect(received.filter((r) => r.path === '/here').map((r) => r.type)).toEqual(['tracking.category']);
  });

  it('sends with the channel settings an admin has just changed, from another process that used the old ones', async () => {
    await expectOk(s.transact({ code: 'order', email: 'warm@example.org', variables: {} }));
    await otherRunner.runDue();
    expect(otherEmail.sent.at(-1)?.settings.from).toBe('Shop <shop@example.org>');
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Renamed <news@example.org>' }));
    await expectOk(s.transact({ code: 'order', email: 'after@example.org', variables: {} }));
    await otherRunner.runDue();
    expect(otherEmail.sent.at(-1)?.settings.from).toBe('Renamed <news@example.org>');
  });
});
