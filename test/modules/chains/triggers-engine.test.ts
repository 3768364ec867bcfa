import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { importTestFeed } from '../../helpers/feed-builder.js';
import { expectOk, messagingStack, type MessagingStack } from '../messaging/messaging-setup.js';

const HOUR = 3_600_000;

/**
 * The trigger detectors wired to the real chain engine, as the process runs them: an
 * abandoned cart saved through the admin API mails its products after an hour; a purchase
 * ends a waiting abandoned-cart run (admin-api.md "Chains and bulk mailings").
 */
describe.each(TEST_DIALECTS)('chain triggers with the engine on %s', (dialect) => {
  let s: MessagingStack;

  beforeAll(async () => {
    s = await messagingStack(dialect);
    await expectOk(s.admin('PUT', '/channels/email', { smtp_url: 'smtp://127.0.0.1:2525', from: 'Shop <shop@example.org>' }));
    // No pictures: an import would download them.
    await importTestFeed(s.t.app.services, s.shopId, {
      categories: [{ id: '1', name: 'Shoes' }],
      offers: [
        { id: 'sku-1', available: true, url: 'https://shop.example/p/sku-1', price: '1990.50', categoryIds: ['1'], name: 'Runner red' },
      ],
    });
  });
  afterAll(async () => {
    await s.t.close();
  });

  /* eslint-disable @typescript-eslint/no-explicit-any */
  const runs = async (code: string, email: string): Promise<any[]> =>
    (await expectOk(s.admin('GET', `/chains/${code}/runs?email=${encodeURIComponent(email)}`))).runs as any[];
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const cart = async (email: string, event: 'cart' | 'purchase') => {
    const did = (await s.t.app.services.tracking.initSession({ shopId: s.shopId })).did;
    const items = [{ id: 'sku-1', amount: 1 }];
    await s.t.app.services.tracking.recordPush({ shopId: s.shopId, did, event, items, attribution: {}, identifiers: { email } });
    await s.runner.runDue();
    return did;
  };

  it('mails the products of a cart left for after_seconds, once', async () => {
    await expectOk(
      s.admin('PUT', '/chains/cart-left', {
        status: 'active',
        trigger: { abandoned_cart: { after_seconds: 3600 } },
        reentry: 'always',
        steps: [
          {
            send: {
              email: { subject: 'Still want {{ products[0].name }} for {{ products[0].price }}?', html: '<p>{{ products[0].url }}</p>' },
            },
          },
        ],
      }),
    );
    const before = s.email.sent.length;
    await cart('ann@example.org', 'cart');
    s.t.clock.advance(HOUR);
    await s.runner.runDue();
    expect(s.email.sent.length).toBe(before + 1);
    expect(s.email.sent.at(-1)!.message).toMatchObject({ to: 'ann@example.org', subject: 'Still want Runner red for 1990.5?' });
    expect(await runs('cart-left', 'ann@example.org')).toMatchObject([{ status: 'done' }]);

    s.t.clock.advance(10 * HOUR);
    await s.runner.runDue();
    expect(s.email.sent.length).toBe(before + 1);
    await expectOk(
      s.admin('PUT', '/chains/cart-left', {
        status: 'paused',
        trigger: { abandoned_cart: { after_seconds: 3600 } },
        reentry: 'always',
        steps: [{ exit: {} }],
      }),
    );
  });

  it('a purchase ends the waiting abandoned-cart run', async () => {
    await expectOk(
      s.admin('PUT', '/chains/cart-wait', {
        status: 'active',
        trigger: { abandoned_cart: { after_seconds: 60 } },
        reentry: 'always',
        steps: [{ wait: { seconds: 86_400 } }, { send: { email: { subject: 'Come back', html: '<p>x</p>' } } }],
      }),
    );
    const before = s.email.sent.length;
    await cart('bob@example.org', 'cart');
    s.t.clock.advance(60_000);
    await s.runner.runDue();
    expect(await runs('cart-wait', 'bob@example.org')).toMatchObject([{ status: 'waiting', step: 0 }]);

    await cart('bob@example.org', 'purchase');
    expect(await runs('cart-wait', 'bob@example.org')).toMatchObject([{ status: 'exited' }]);
    s.t.clock.advance(2 * 86_400_000);
    await s.runner.runDue();
    expect(s.email.sent.length).toBe(before);
  });
});
