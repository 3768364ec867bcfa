import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createShopFixture } from '../../helpers/factories.js';
import { makePassCertificates, type PassCertificates } from '../../helpers/pass-certificates.js';
import { readZip } from '../../helpers/zip-reader.js';

const PASS_TYPE = 'pass.org.patron.test';
const PUSH_TOKEN = 'ab'.repeat(32);
const DEVICE = 'b33e3a3dccb3030333e3333da33333a3';

interface PassJson {
  readonly serialNumber: string;
  readonly authenticationToken: string;
  readonly webServiceURL: string;
  readonly storeCard: { readonly backFields: readonly { readonly value: string }[] };
}

/** The PassKit web service as Wallet calls it, and the admin's issue of a pass, through the whole app. */
describe('the PassKit web service and the pass issue, through the app', () => {
  let t: TestApp;
  let certs: PassCertificates;
  let shopId: string;
  let profileId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { PATRON_PUBLIC_URL: 'https://patron.example.org' } });
    certs = makePassCertificates(PASS_TYPE, 'ABCDE12345');
    shopId = (await createShopFixture(t.app.services)).shopId;
    profileId = (await t.app.services.loyalty.joinMember(shopId, { phone: '79001112233' })).profileId;
  });
  afterAll(async () => {
    certs.cleanup();
    await t.close();
  });

  /** The shop's wallet channel, as an admin's PUT stores it. */
  async function configure(): Promise<void> {
    await t.app.services.messagingChannels.putChannel(shopId, 'wallet', {
      provider: 'apple_wallet',
      pass_type_identifier: PASS_TYPE,
      team_identifier: 'ABCDE12345',
      organization_name: 'Corner Shop',
      signer_certificate: certs.signerCertificate,
      signer_key: certs.signerKey,
      wwdr_certificate: certs.wwdrCertificate,
    });
  }

  async function issue(): Promise<PassJson> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shopId}/wallet/passes`,
      headers: t.adminHeaders,
      payload: { profile_id: profileId },
    });
    expect(res.statusCode).toBe(200);
    return JSON.parse(readZip(res.rawPayload).get('pass.json')!.toString('utf8')) as PassJson;
  }

  const base = () => `/wallet/${shopId}/v1`;
  const registration = (pass: PassJson, device = DEVICE) => `${base()}/devices/${device}/registrations/${PASS_TYPE}/${pass.serialNumber}`;
  const auth = (token: string) => ({ authorization: `ApplePass ${token}` });

  it('issues a pass only with the admin token and a configured channel', async () => {
    const url = `/admin/v1/shops/${shopId}/wallet/passes`;
    expect((await t.app.inject({ method: 'POST', url, payload: { profile_id: profileId } })).statusCode).toBe(401);
    const unconfigured = await t.app.inject({ method: 'POST', url, headers: t.adminHeaders, payload: { profile_id: profileId } });
    expect(unconfigured.statusCode).toBe(409);
    expect(unconfigured.json()).toEqual({ error: { code: 'CONFLICT', message: 'The wallet channel of the shop is not configured.' } });
    await configure();
    const missing = await t.app.inject({ method: 'POST', url, headers: t.adminHeaders, payload: { profile_id: 424_242_424 } });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url, headers: t.adminHeaders, payload: { profile_id: 'x' } });
    expect(bad.statusCode).toBe(422);

    const res = await t.app.inject({ method: 'POST', url, headers: t.adminHeaders, payload: { profile_id: profileId } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.headers['content-disposition']).toBe('attachment; filename="pass.pkpass"');
    const pass = JSON.parse(readZip(res.rawPayload).get('pass.json')!.toString('utf8')) as PassJson;
    expect(res.headers['x-pass-serial-number']).toBe(pass.serialNumber);
    expect(pass.webServiceURL).toBe(`https://patron.example.org/wallet/${shopId}`);
  });

  it('registers a device: 201 new, 200 again, 401 with a wrong or missing token, 422 without a push token', async () => {
    await configure();
    const pass = await issue();
    const payload = { pushToken: PUSH_TOKEN };
    const wrong = await t.app.inject({ method: 'POST', url: registration(pass), headers: auth('x'.repeat(43)), payload });
    expect(wrong.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: registration(pass), payload })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: registration(pass),
          headers: { authorization: `Bearer ${pass.authenticationToken}` },
          payload,
        })
      ).statusCode,
    ).toBe(401);
    const unknownSerial = `${base()}/devices/${DEVICE}/registrations/${PASS_TYPE}/NoSuchSerial`;
    expect((await t.app.inject({ method: 'POST', url: unknownSerial, headers: auth(pass.authenticationToken), payload })).statusCode).toBe(
      401,
    );
    const noToken = await t.app.inject({ method: 'POST', url: registration(pass), headers: auth(pass.authenticationToken), payload: {} });
    expect(noToken.statusCode).toBe(422);

    const created = await t.app.inject({ method: 'POST', url: registration(pass), headers: auth(pass.authenticationToken), payload });
    expect(created.statusCode).toBe(201);
    const again = await t.app.inject({ method: 'POST', url: registration(pass), headers: auth(pass.authenticationToken), payload });
    expect(again.statusCode).toBe(200);
  });

  it('lists updated serials (200, then 204 with the tag), serves the pass (200, 304) and shows a delivered message', async () => {
    await configure();
    const pass = await issue();
    await t.app.inject({
      method: 'POST',
      url: registration(pass),
      headers: auth(pass.authenticationToken),
      payload: { pushToken: PUSH_TOKEN },
    });
    const listUrl = `${base()}/devices/${DEVICE}/registrations/${PASS_TYPE}`;
    const listed = await t.app.inject({ method: 'GET', url: listUrl });
    expect(listed.statusCode).toBe(200);
    const { serialNumbers, lastUpdated } = listed.json<{ serialNumbers: string[]; lastUpdated: string }>();
    expect(serialNumbers).toContain(pass.serialNumber);
    const none = await t.app.inject({ method: 'GET', url: `${listUrl}?passesUpdatedSince=${lastUpdated}` });
    expect(none.statusCode).toBe(204);
    expect(none.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url: `${base()}/devices/unknown-device/registrations/${PASS_TYPE}` })).statusCode).toBe(
      204,
    );

    const passUrl = `${base()}/passes/${PASS_TYPE}/${pass.serialNumber}`;
    expect((await t.app.inject({ method: 'GET', url: passUrl })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: passUrl, headers: auth('y'.repeat(43)) })).statusCode).toBe(401);
    const fetched = await t.app.inject({ method: 'GET', url: passUrl, headers: auth(pass.authenticationToken) });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const lastModified = fetched.headers['last-modified'] as string;
    expect(lastModified).toMatch(/ GMT$/);
    const notModified = await t.app.inject({
      method: 'GET',
      url: passUrl,
      headers: { ...auth(pass.authenticationToken), 'if-modified-since': lastModified },
    });
    expect(notModified.statusCode).toBe(304);

    // The engine delivers a message: the text is on the pass before the push goes out.
    t.clock.advance(2_000);
    const messages = await t.app.services.wallet.deliverWalletMessage(shopId, profileId, 'Your order has shipped');
    expect(messages).toContainEqual({ serialNumber: pass.serialNumber, pushToken: PUSH_TOKEN, text: 'Your order has shipped' });
    const changed = await t.app.inject({ method: 'GET', url: `${listUrl}?passesUpdatedSince=${lastUpdated}` });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ serialNumbers: string[] }>().serialNumbers).toContain(pass.serialNumber);
    const updated = await t.app.inject({
      method: 'GET',
      url: passUrl,
      headers: { ...auth(pass.authenticationToken), 'if-modified-since': lastModified },
    });
    expect(updated.statusCode).toBe(200);
    const json = JSON.parse(readZip(updated.rawPayload).get('pass.json')!.toString('utf8')) as PassJson;
    expect(json.storeCard.backFields[0]!.value).toBe('Your order has shipped');
    expect(json.authenticationToken).toBe(pass.authenticationToken);
  });

  it('unregisters: 200 with the token, 401 without it; the device then lists nothing', async () => {
    await configure();
    const pass = await issue();
    const url = registration(pass, 'leaving-device');
    await t.app.inject({ method: 'POST', url, headers: auth(pass.authenticationToken), payload: { pushToken: PUSH_TOKEN } });
    const listUrl = `${base()}/devices/leaving-device/registrations/${PASS_TYPE}`;
    expect((await t.app.inject({ method: 'GET', url: listUrl })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url, headers: auth('z'.repeat(43)) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url, headers: auth(pass.authenticationToken) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: listUrl })).statusCode).toBe(204);
  });

  it('takes device logs (200) and bounds them', async () => {
    const ok = await t.app.inject({ method: 'POST', url: `${base()}/log`, payload: { logs: ['Could not fetch pass'] } });
    expect(ok.statusCode).toBe(200);
    const tooMany = await t.app.inject({ method: 'POST', url: `${base()}/log`, payload: { logs: Array.from({ length: 101 }, () => 'x') } });
    expect(tooMany.statusCode).toBe(422);
  });

  it('refuses malformed path segments with 422 (validation, as everywhere in Patron) and unknown paths with 404', async () => {
    const bad = await t.app.inject({ method: 'GET', url: `${base()}/passes/not-a-pass-type/serial`, headers: auth('t'.repeat(43)) });
    expect(bad.statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/nothing-here` })).statusCode).toBe(404);
  });
});
