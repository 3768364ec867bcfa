import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * Transactional messages are never delayed behind bulk ones (issue 16 part 6): with a
 * backlog of due jobs queued earlier, the queue's next claim is the transactional
 * delivery. The backlog stands for a bulk mailing's jobs (any job queued at its due time).
 */
describe.each(TEST_DIALECTS)('transactional priority on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'shop@example.org' }));
    await expectOk(s.admin('PUT', '/mailings/transactional/reset', { email: { subject: 'Reset', html: '<p>Reset</p>' } }));
  });

  afterAll(async () => {
    await s.t.close();
  });

  it('claims the transactional delivery ahead of a backlog queued before it', async () => {
    for (let i = 0; i < 20; i += 1) {
      await s.t.app.services.jobs.enqueue('images.download', { shopId: s.shopId, generation: i });
      s.t.clock.advance(1000);
    }
    const { payload } = await expectOk(s.transact({ code: 'reset', email: 'hurry@example.org' }));
    const [first] = await s.t.app.services.jobs.claim({
      workerId: 'w',
      names: ['images.download', 'messaging.deliver'],
      limit: 1,
      leaseMs: 1000,
    });
    expect(first?.name).toBe('messaging.deliver');
    expect(JSON.parse(first?.payloadJson ?? '{}')).toEqual({ shopId: s.shopId, code: payload.code, seq: 0 });
  });
});
