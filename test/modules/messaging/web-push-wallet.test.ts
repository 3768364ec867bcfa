import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSubscription } from '../../../src/modules/messaging/domain/web-push-subscription.js';
import { VapidSettingsSchema } from '../../../src/modules/messaging/providers/vapid.provider.js';
import { generateVapidKeys } from '../../../src/modules/messaging/providers/vapid.provider.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { RecordingProvider } from '../../helpers/recording-provider.js';
import { expectOk, messagingStack, type MessagingStack } from './messaging-setup.js';

/**
 * The channels whose addresses the engine does not store (issue 16 part 1): browser push
 * subscriptions through the public endpoints, and wallet pass registrations; each read by
 * the engine through its address source, the pass text stored before the update push,
 * and a dead address dropped from its store.
 */

function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe('web push subscription check', () => {
  const keys = browserKeys();
  it('takes a browser subscription and refuses bad endpoints and key sizes, naming the field', () => {
    expect(checkSubscription('https://push.example/abc', keys.p256dh, keys.auth)).toEqual({
      ok: true,
      value: { endpoint: 'https://push.example/abc', ...keys },
    });
    expect(checkSubscription('http://push.example/abc', keys.p256dh, keys.auth)).toMatchObject({ ok: false, field: 'endpoint' });
    expect(checkSubscription('not a url', keys.p256dh, keys.auth)).toMatchObject({ ok: false, field: 'endpoint' });
    expect(checkSubscription(undefined, keys.p256dh, keys.auth)).toMatchObject({ ok: false, field: 'endpoint' });
    expect(checkSubscription(`https://push.example/${'a'.repeat(2100)}`, keys.p256dh, keys.auth)).toMatchObject({
      ok: false,
      field: 'endpoint',
    });
    const compressed = Buffer.from(keys.p256dh, 'base64url').subarray(0, 33).toString('base64url');
    expect(checkSubscription('https://push.example/abc', compressed, keys.auth)).toMatchObject({ ok: false, field: 'keys.p256dh' });
    expect(checkSubscription('https://push.example/abc', keys.p256dh, randomBytes(12).toString('base64url'))).toMatchObject({
      ok: false,
      field: 'keys.auth',
    });
    expect(checkSubscription('https://push.example/abc', 'not*base64', keys.auth)).toMatchObject({ ok: false, field: 'keys.p256dh' });
  });
});

describe.each(TEST_DIALECTS)('web push and wallet addresses on %s', (dialect) => {
  let s: MessagingStack;
  let vapid: RecordingProvider<'web_push'>;
  let wallet: RecordingProvider<'wallet'>;
  const vapidKeys = generateVapidKeys();
  const order: string[] = [];
  let live = '';

  beforeAll(async () => {
    s = await messagingStack(dialect);
    vapid = new RecordingProvider('web_push', 'vapid', VapidSettingsSchema, ['vapid_private_key']);
    wallet = new RecordingProvider('wallet', 'apple_wallet');
    s.t.app.services.messagingProviders.replace(vapid).replace(wallet);
    // The pass text must be on the pass when the update push goes: the recording vendor reads it at send time.
    const send = wallet.send.bind(wallet);
    wallet.send = async (settings, message, context) => {
      const row = await s.t.db.db
        .selectFrom('wallet_passes')
        .select('message')
        .where('shop_id', '=', s.shopId)
        .where('serial_number', '=', message.serialNumber)
        .executeTakeFirst();
      order.push(`push ${message.serialNumber} seeing ${row?.message ?? 'null'}`);
      return send(settings, message, context);
    };
    await expectOk(
      s.admin('PUT', '/mailings/transactional/bonus', {
        web_push: { title: 'Bonus {{ amount }}', body: 'Added to your card' },
        wallet: { text: 'You got {{ amount }} points' },
      }),
    );
  });
  afterAll(async () => {
    await s.t.close();
  });

  const subscribe = (payload: Record<string, unknown>) =>
    s.t.app.inject({ method: 'POST', url: '/web_push/subscriptions', payload: { shop_id: s.shopId, ...payload } });

  it('answers the VAPID public key only once the channel is configured, never the private key', async () => {
    const before = await s.t.app.inject({ method: 'GET', url: '/web_push/vapid_public_key', query: { shop_id: s.shopId } });
    expect(before.statusCode).toBe(404);
    expect(before.json()).toMatchObject({ status: 'error' });
    await expectOk(s.admin('PUT', '/channels/web_push', { provider: 'vapid', ...vapidKeys, subject: 'mailto:shop@example.org' }));
    const after = await s.t.app.inject({ method: 'GET', url: '/web_push/vapid_public_key', query: { shop_id: s.shopId } });
    expect(after.json()).toEqual({ status: 'success', public_key: vapidKeys.vapid_public_key });
    expect(after.body).not.toContain(vapidKeys.vapid_private_key);
  });

  it('generates a VAPID key pair for a shop without one, sealed, and refuses to replace a pair', async () => {
    const refused = await s.admin('POST', '/channels/web_push/vapid_keys', { subject: 'mailto:shop@example.org' });
    expect(refused.statusCode).toBe(409);
    const other = (await createShopFixture(s.t.app.services)).shopId;
    const url = `/admin/v1/shops/${other}/channels/web_push/vapid_keys`;
    const bad = await s.t.app.inject({ method: 'POST', url, headers: s.t.adminHeaders, payload: { subject: 'shop' } });
    expect(bad.statusCode).toBe(422);
    const made = await expectOk(
      s.t.app.inject({ method: 'POST', url, headers: s.t.adminHeaders, payload: { subject: 'mailto:shop@example.org' } }),
    );
    expect(made).toMatchObject({
      provider: 'vapid',
      subject: 'mailto:shop@example.org',
      vapid_private_key: expect.stringMatching(/^\*{4}/),
    });
    const open = (await s.t.app.services.messagingChannels.settingsFor(other, 'web_push'))?.vendors.vapid;
    expect(open?.vapid_public_key).toBe(made.vapid_public_key);
    expect(open?.vapid_private_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const key = await s.t.app.inject({ method: 'GET', url: '/web_push/vapid_public_key', query: { shop_id: other } });
    expect(key.json()).toEqual({ status: 'success', public_key: made.vapid_public_key });
  });

  it('stores a subscription of a device, refuses bad ones clearly, and identifiers alone need the secret', async () => {
    const { did, profileId } = await s.t.app.services.identity.createDevice(s.shopId);
    const keys = browserKeys();
    const ok = await subscribe({ did, subscription: { endpoint: 'https://push.example/device-1', expirationTime: null, keys } });
    expect(ok.json()).toEqual({ status: 'success' });
    const bad = await subscribe({ did, endpoint: 'https://push.example/device-2', keys: { p256dh: keys.p256dh, auth: 'c2hvcnQ' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload.message).toContain('keys.auth');
    const http = await subscribe({ did, endpoint: 'http://push.example/device-2', keys });
    expect(http.json().payload.message).toContain('`endpoint` must be an https URL');
    const stranger = await subscribe({ email: 'x@example.org', endpoint: 'https://push.example/device-3', keys });
    expect(stranger.statusCode).toBe(401);
    expect(await s.t.app.services.webPush.addresses(s.shopId, profileId)).toEqual([
      JSON.stringify({ endpoint: 'https://push.example/device-1', keys }),
    ]);
  });

  it('sends a message to every browser of the recipient; a dead one is dropped and not tried again', async () => {
    const keys = browserKeys();
    for (const name of ['a', 'b']) {
      expect(
        (await subscribe({ shop_secret: s.secret, email: 'web@example.org', endpoint: `https://push.example/${name}`, keys })).json(),
      ).toEqual({ status: 'success' });
    }
    vapid.answer({ ok: true }, { ok: false, kind: 'dead_address', message: '410 Gone' });
    const first = await expectOk(s.transact({ code: 'bonus', email: 'web@example.org', variables: { amount: 50 } }));
    await s.runner.runDue();
    // Deliveries may run in either order (PostgreSQL claims jobs concurrently): the second send is the dead one.
    const endpoints = vapid.sent.map((x) => x.message.subscription.endpoint);
    expect([...endpoints].sort()).toEqual(['https://push.example/a', 'https://push.example/b']);
    expect(vapid.sent[0]?.message).toMatchObject({ title: 'Bonus 50', subscription: { keys }, data: { code: first.payload.code } });
    const rows = await s.t.db.db.selectFrom('web_push_subscriptions').select('endpoint').where('shop_id', '=', s.shopId).execute();
    expect(rows.map((r) => r.endpoint).sort()).toEqual([endpoints[0], 'https://push.example/device-1']);
    vapid.sent.length = 0;
    await expectOk(s.transact({ code: 'bonus', email: 'web@example.org', variables: { amount: 5 } }));
    await s.runner.runDue();
    expect(vapid.sent.map((x) => x.message.subscription.endpoint)).toEqual([endpoints[0]]);
    live = endpoints[0] ?? '';
  });

  it('unsubscribes an endpoint', async () => {
    const r = await s.t.app.inject({ method: 'DELETE', url: '/web_push/subscriptions', query: { shop_id: s.shopId, endpoint: live } });
    expect(r.json()).toEqual({ status: 'success' });
    const missing = await s.t.app.inject({ method: 'DELETE', url: '/web_push/subscriptions', query: { shop_id: s.shopId } });
    expect(missing.statusCode).toBe(422);
    vapid.sent.length = 0;
    await expectOk(s.transact({ code: 'bonus', email: 'web@example.org', variables: { amount: 7 } }));
    await s.runner.runDue();
    expect(vapid.sent).toEqual([]);
  });

  it('puts the text on the pass before its update push, and forgets a dead push token', async () => {
    await expectOk(s.admin('PUT', '/channels/wallet', { provider: 'apple_wallet', api_key: 'wallet-key-0123456789' }));
    const { profileId } = await s.t.app.services.identity.resolveProfile(s.shopId, { email: 'pass@example.org' });
    const now = s.t.clock.now();
    await s.t.db.db
      .insertInto('wallet_passes')
      .values({
        shop_id: s.shopId,
        serial_number: 'serial-1',
        pass_type_id: 'pass.t',
        profile_id: profileId,
        token_hash: 'h',
        message: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await s.t.db.db
      .insertInto('wallet_registrations')
      .values(
        ['device-1', 'device-2'].map((device) => ({
          shop_id: s.shopId,
          device_library_id: device,
          pass_type_id: 'pass.t',
          serial_number: 'serial-1',
          push_token: `token-${device}`,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    wallet.answer({ ok: true }, { ok: false, kind: 'dead_address', message: '410 Unregistered' });
    await expectOk(s.transact({ code: 'bonus', email: 'pass@example.org', variables: { amount: 30 } }));
    await s.runner.runDue();
    expect(order).toEqual(['push serial-1 seeing You got 30 points', 'push serial-1 seeing You got 30 points']);
    const tokens = wallet.sent.map((x) => x.message.pushToken);
    expect([...tokens].sort()).toEqual(['token-device-1', 'token-device-2']);
    expect(wallet.sent[0]?.message.text).toBe('You got 30 points');
    const left = await s.t.db.db.selectFrom('wallet_registrations').select('push_token').where('shop_id', '=', s.shopId).execute();
    expect(left.map((r) => r.push_token)).toEqual([tokens[0]]);
  });
});
