import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/clock.js';
import { AppError } from '../../../../src/errors.js';
import { Late } from '../../../../src/late.js';
import { IdentityService, type MergeParticipant } from '../../../../src/modules/identity/identity.service.js';
import { LoyaltyLedger } from '../../../../src/modules/loyalty/loyalty-ledger.js';
import { LoyaltyService } from '../../../../src/modules/loyalty/loyalty.service.js';
import type { AppleWalletSettings } from '../../../../src/modules/messaging/providers/apple-wallet.settings.js';
import { WalletService } from '../../../../src/modules/messaging/wallet/wallet.service.js';
import { ShopsService } from '../../../../src/modules/shops/shops.service.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../../helpers/db.js';
import { createShopFixture } from '../../../helpers/factories.js';
import { makePassCertificates, type PassCertificates } from '../../../helpers/pass-certificates.js';
import { readZip } from '../../../helpers/zip-reader.js';

const PASS_TYPE = 'pass.org.patron.test';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0, 250);
const PUSH_A = 'aa'.repeat(32);
const PUSH_B = 'bb'.repeat(32);

describe.each(TEST_DIALECTS)('wallet service on %s', (dialect) => {
  let db: TestDb;
  let certs: PassCertificates;
  let clock: ManualClock;
  let identity: IdentityService;
  let loyalty: LoyaltyService;
  let wallet: WalletService;
  let shopId: string;
  let settings: AppleWalletSettings;
  const configured = new Map<string, AppleWalletSettings>();
  let phoneSeq = 0;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    certs = makePassCertificates(PASS_TYPE, 'ABCDE12345');
    settings = {
      pass_type_identifier: PASS_TYPE,
      team_identifier: 'ABCDE12345',
      organization_name: 'Corner Shop',
      signer_certificate: certs.signerCertificate,
      signer_key: certs.signerKey,
      wwdr_certificate: certs.wwdrCertificate,
    };
    clock = new ManualClock();
    const shops = new ShopsService({ db, clock });
    const mergeParticipants = Late.namedList<MergeParticipant>('merge participant');
    identity = new IdentityService({ db, clock, mergeParticipants });
    const ledger = new LoyaltyLedger({ db, clock });
    loyalty = new LoyaltyService({ db, clock, shops, identity, ledger });
    // The engine's channel settings stand-in: the engine is built elsewhere (docs/messaging-wallet.md).
    const channelSettings = (id: string) => Promise.resolve(configured.get(id));
    wallet = new WalletService({
      db,
      clock,
      publicUrl: 'https://patron.example.org/base',
      shops,
      identity,
      loyalty,
      settings: channelSettings,
    });
    mergeParticipants.bind([loyalty.mergeParticipant(), wallet.mergeParticipant()]);
    shopId = (await createShopFixture({ shops })).shopId;
    configured.set(shopId, settings);
  });
  afterAll(async () => {
    certs.cleanup();
    await db.cleanup();
  });
  beforeEach(() => clock.set(NOW));

  async function newMember(balance: number): Promise<number> {
    phoneSeq += 1;
    const phone = `7900${String(phoneSeq).padStart(7, '0')}`;
    const member = await loyalty.joinMember(shopId, { phone });
    if (balance > 0) await loyalty.creditManual(shopId, phone, { amount: balance });
    return member.profileId;
  }

  interface PassJson {
    readonly authenticationToken: string;
    readonly serialNumber: string;
    readonly barcodes?: unknown;
    readonly storeCard: { readonly primaryFields: { readonly value: unknown }[]; readonly backFields: unknown[] };
  }

  function passJson(pkpass: Buffer): PassJson {
    return JSON.parse(readZip(pkpass).get('pass.json')!.toString('utf8')) as PassJson;
  }

  function key(serialNumber: string, token: string | undefined) {
    return { shopId, passTypeId: PASS_TYPE, serialNumber, token };
  }

  async function issue(profileId: number) {
    const issued = await wallet.issuePass(shopId, profileId);
    const json = passJson(issued.pkpass);
    return { ...issued, token: json.authenticationToken, json };
  }

  it("issues a pass with the member's identifier and balance, a random serial and a token kept only as its hash", async () => {
    const profileId = await newMember(1_050);
    const a = await issue(profileId);
    expect(a.serialNumber).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.json).toMatchObject({
      serialNumber: a.serialNumber,
      passTypeIdentifier: PASS_TYPE,
      webServiceURL: `https://patron.example.org/base/wallet/${shopId}`,
      barcodes: [{ message: `7900${String(phoneSeq).padStart(7, '0')}` }],
    });
    expect(a.json.storeCard.primaryFields[0]!.value).toBe(10.5);
    const row = await db.db
      .selectFrom('wallet_passes')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('serial_number', '=', a.serialNumber)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(crypto.createHash('sha256').update(a.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(a.token);
    expect(Number(row.profile_id)).toBe(profileId);
    // Another issue is another pass: Apple never lets a pass's token change.
    const b = await issue(profileId);
    expect(b.serialNumber).not.toBe(a.serialNumber);
    expect(b.token).not.toBe(a.token);
  });

  it('issues a plain pass to a profile that is not a member', async () => {
    const device = await identity.createDevice(shopId);
    const { json } = await issue(device.profileId);
    expect(json.barcodes).toBeUndefined();
    expect(json.storeCard.primaryFields).toEqual([]);
  });

  it('refuses an unknown profile (404) and an unconfigured shop (409)', async () => {
    await expect(wallet.issuePass(shopId, 987_654_321)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    configured.delete(shopId);
    try {
      const profileId = await newMember(0);
      await expect(wallet.issuePass(shopId, profileId)).rejects.toEqual(
        new AppError('CONFLICT', 'The wallet channel of the shop is not configured.'),
      );
    } finally {
      configured.set(shopId, settings);
    }
  });

  it("registers a device once (created, then exists with the new push token) and only with the pass's token", async () => {
    const pass = await issue(await newMember(0));
    await expect(wallet.registerDevice(key(pass.serialNumber, 'wrong-token-000000'), 'device-1', PUSH_A)).resolves.toBe('unauthorized');
    await expect(wallet.registerDevice(key(pass.serialNumber, undefined), 'device-1', PUSH_A)).resolves.toBe('unauthorized');
    await expect(wallet.registerDevice(key('unknown-serial', pass.token), 'device-1', PUSH_A)).resolves.toBe('unauthorized');
    await expect(
      wallet.registerDevice({ ...key(pass.serialNumber, pass.token), passTypeId: 'pass.org.other' }, 'device-1', PUSH_A),
    ).resolves.toBe('unauthorized');
    await expect(wallet.registerDevice(key(pass.serialNumber, pass.token), 'device-1', PUSH_A)).resolves.toBe('created');
    await expect(wallet.registerDevice(key(pass.serialNumber, pass.token), 'device-1', PUSH_B)).resolves.toBe('exists');
    const rows = await db.db
      .selectFrom('wallet_registrations')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('serial_number', '=', pass.serialNumber)
      .execute();
    expect(rows.map((r) => [r.device_library_id, r.push_token])).toEqual([['device-1', PUSH_B]]);
    await expect(wallet.unregisterDevice(key(pass.serialNumber, 'wrong-token-000000'), 'device-1')).resolves.toBe('unauthorized');
    await expect(wallet.unregisterDevice(key(pass.serialNumber, pass.token), 'device-1')).resolves.toBe('removed');
    await expect(wallet.unregisterDevice(key(pass.serialNumber, pass.token), 'device-1')).resolves.toBe('removed');
  });

  it('delivers a message: stores the text on every pass of the profile, then lists one push per registration', async () => {
    const profileId = await newMember(200);
    const first = await issue(profileId);
    const second = await issue(profileId);
    const unregistered = await issue(profileId);
    await wallet.registerDevice(key(first.serialNumber, first.token), 'phone', PUSH_A);
    await wallet.registerDevice(key(first.serialNumber, first.token), 'watch', PUSH_B);
    await wallet.registerDevice(key(second.serialNumber, second.token), 'phone', PUSH_A);

    clock.advance(5_000);
    const messages = await wallet.deliverWalletMessage(shopId, profileId, 'Your order has shipped');
    const text = 'Your order has shipped';
    expect(messages).toHaveLength(3);
    expect(messages).toEqual(
      expect.arrayContaining([
        { serialNumber: first.serialNumber, pushToken: PUSH_A, text },
        { serialNumber: first.serialNumber, pushToken: PUSH_B, text },
        { serialNumber: second.serialNumber, pushToken: PUSH_A, text },
      ]),
    );
    // The device's fetch after the push shows the text on the back, with a change message.
    const latest = await wallet.latestPass(key(unregistered.serialNumber, unregistered.token), undefined);
    expect(latest.kind).toBe('pass');
    const json = passJson((latest as { pkpass: Buffer }).pkpass);
    expect(json.storeCard.backFields).toEqual([{ key: 'message', label: 'Message', value: text, changeMessage: '%@' }]);
    expect(json.authenticationToken).toBe(unregistered.token);
    expect(json.serialNumber).toBe(unregistered.serialNumber);
    // A profile with no pass has nothing to push.
    await expect(wallet.deliverWalletMessage(shopId, await newMember(0), 'x')).resolves.toEqual([]);
  });

  it("lists a device's passes changed since its tag, and 304s a pass not changed since If-Modified-Since", async () => {
    const profileId = await newMember(0);
    const pass = await issue(profileId);
    await wallet.registerDevice(key(pass.serialNumber, pass.token), 'tagged-device', PUSH_A);
    const all = await wallet.updatedSerials(shopId, 'tagged-device', PASS_TYPE, undefined);
    // Pass times are whole seconds, rounded up.
    expect(all).toEqual({ serialNumbers: [pass.serialNumber], lastUpdated: String(Date.UTC(2026, 0, 15, 12, 0, 1)) });
    await expect(wallet.updatedSerials(shopId, 'tagged-device', PASS_TYPE, all!.lastUpdated)).resolves.toBeUndefined();
    await expect(wallet.updatedSerials(shopId, 'tagged-device', 'pass.org.other', undefined)).resolves.toBeUndefined();
    await expect(wallet.updatedSerials(shopId, 'unknown-device', PASS_TYPE, undefined)).resolves.toBeUndefined();

    const fetched = await wallet.latestPass(key(pass.serialNumber, pass.token), undefined);
    expect(fetched).toMatchObject({ kind: 'pass', updatedAt: Date.UTC(2026, 0, 15, 12, 0, 1) });
    const since = new Date(Date.UTC(2026, 0, 15, 12, 0, 1)).toUTCString();
    await expect(wallet.latestPass(key(pass.serialNumber, pass.token), since)).resolves.toMatchObject({ kind: 'not_modified' });
    await expect(wallet.latestPass(key(pass.serialNumber, 'wrong-token-000000'), since)).resolves.toEqual({ kind: 'unauthorized' });

    // Messages in the second the pass changed last get the following seconds, so no change shares a Last-Modified.
    await wallet.deliverWalletMessage(shopId, profileId, 'one');
    await wallet.deliverWalletMessage(shopId, profileId, 'two');
    const changed = await wallet.updatedSerials(shopId, 'tagged-device', PASS_TYPE, all!.lastUpdated);
    expect(changed).toEqual({ serialNumbers: [pass.serialNumber], lastUpdated: String(Date.UTC(2026, 0, 15, 12, 0, 3)) });
    await expect(wallet.latestPass(key(pass.serialNumber, pass.token), since)).resolves.toMatchObject({ kind: 'pass' });
    clock.advance(100);
    await wallet.deliverWalletMessage(shopId, profileId, 'three');
    const third = await wallet.latestPass(key(pass.serialNumber, pass.token), new Date(Date.UTC(2026, 0, 15, 12, 0, 3)).toUTCString());
    expect(third).toMatchObject({ kind: 'pass', updatedAt: Date.UTC(2026, 0, 15, 12, 0, 4) });
  });

  it('forgets the registrations of a dead push token (APNs 410)', async () => {
    const profileId = await newMember(0);
    const pass = await issue(profileId);
    await wallet.registerDevice(key(pass.serialNumber, pass.token), 'gone', 'cc'.repeat(32));
    await wallet.registerDevice(key(pass.serialNumber, pass.token), 'alive', 'dd'.repeat(32));
    await expect(wallet.forgetPushToken(shopId, 'cc'.repeat(32))).resolves.toBe(1);
    const messages = await wallet.deliverWalletMessage(shopId, profileId, 'hello');
    expect(messages.map((m) => m.pushToken)).toEqual(['dd'.repeat(32)]);
  });

  it('moves passes to the surviving profile when profiles merge', async () => {
    const phoneProfile = await newMember(0);
    const device = await identity.createDevice(shopId);
    const pass = await issue(device.profileId);
    await wallet.registerDevice(key(pass.serialNumber, pass.token), 'merged-device', PUSH_A);
    const profile = await identity.getProfile(shopId, phoneProfile);
    const resolved = await identity.resolveProfile(shopId, { did: device.did, phone: profile!.phone });
    expect(resolved.merges).toHaveLength(1);
    const survivor = resolved.profileId;
    const merged = survivor === phoneProfile ? device.profileId : phoneProfile;
    await expect(wallet.deliverWalletMessage(shopId, survivor, 'merged')).resolves.toEqual([
      { serialNumber: pass.serialNumber, pushToken: PUSH_A, text: 'merged' },
    ]);
    const row = await db.db
      .selectFrom('wallet_passes')
      .select('profile_id')
      .where('shop_id', '=', shopId)
      .where('serial_number', '=', pass.serialNumber)
      .executeTakeFirstOrThrow();
    expect(Number(row.profile_id)).toBe(survivor);
    // The merged id still leads to the passes (the engine may hold an old id).
    await expect(wallet.deliverWalletMessage(shopId, merged, 'again')).resolves.toHaveLength(1);
  });

  it("keeps shops apart: another shop's serial and device are unknown", async () => {
    const pass = await issue(await newMember(0));
    await wallet.registerDevice(key(pass.serialNumber, pass.token), 'shop-device', PUSH_A);
    const other = 'another-shop-id';
    await expect(wallet.registerDevice({ ...key(pass.serialNumber, pass.token), shopId: other }, 'shop-device', PUSH_A)).resolves.toBe(
      'unauthorized',
    );
    await expect(wallet.updatedSerials(other, 'shop-device', PASS_TYPE, undefined)).resolves.toBeUndefined();
  });
});
