import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { generateShop } from '../../bench/recommend/generate-shop.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_DIALECTS } from '../helpers/db.js';
import { sdkGet } from './sdk-request.js';

const END = Date.UTC(2026, 2, 1);
const PATH = '/predict/probability-to-purchase';

/**
 * GET /predict/probability-to-purchase (contract-notes, "Beyond interface.md") as each SDK
 * sends it, on a generated shop whose model the rebuild trained:
 *  - React Native (`getProbabilityToPurchase`): `shop_id`, `stream`, `did`, the optional
 *    `email`/`phone`/`telegram_id`/`loyalty_id`, with the session ids, encoded its way
 *    (sdk-wire.ts), a form Content-Type; it reads `probability` and treats `message` as failure.
 *  - Android (`PredictManager`): the identifiers, then the SDK's own `shop_id`, `did`,
 *    `sid`, `seance`, `segment`, `stream`, each escaped once by Uri.Builder, no Content-Type;
 *    Gson reads `probability` (a double) and `client_id` (a string).
 *  - iOS (`getProbabilityToPurchase(params:)`): query items escaped by URLComponents, which
 *    leaves `@` and `+` as they are, `stream` last; it reads `probability` as a number and
 *    `client_id` as a string (or a number). The native SDK's method source was not in the
 *    copy read, so the parameters are those of its other GET calls.
 * The three answer with the same bare body; errors wear the status envelope.
 */
describe.each(TEST_DIALECTS)('GET /predict/probability-to-purchase on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;
  let secret: string;
  const did = 'gen000000007';
  const clientId = String(1_000_000_000 + 7);
  let expected: number;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    t.clock.set(END);
    const shop = await generateShop(t.app.services, t.db.db, {
      seed: 5,
      products: 60,
      customers: 150,
      days: 90,
      sessionRate: 0.15,
      end: END,
    });
    shopId = shop.shopId;
    secret = shop.secret;
    await t.app.services.recommendationModels.rebuild(shopId);
    const linked = await t.app.inject({
      method: 'POST',
      url: '/profile/set',
      payload: { shop_id: shopId, did, email: 'ann+shop@example.com' },
    });
    expect(linked.statusCode).toBe(200);
    expected = (await t.app.services.purchasePredictor.probabilityToPurchase(shopId, { did, identifiers: {} })).probability;
  }, 60_000);
  afterAll(async () => t?.close());

  const expectAnswer = async (request: InjectOptions) => {
    const response = await t.app.inject(request);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ probability: expected, client_id: clientId });
  };

  it('has a trained model, whose answer for the customer lies strictly between 0 and 1', async () => {
    expect((await t.app.services.purchasePredictor.status(shopId))?.hasModel).toBe(true);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(1);
  });

  it('answers the React Native SDK, with and without an email beside the device', async () => {
    await expectAnswer(sdkGet(PATH, { shop_id: shopId, stream: 'android' }, { did, sid: 'abcdefghij' }));
    await expectAnswer(sdkGet(PATH, { shop_id: shopId, stream: 'android', email: 'ann+shop@example.com' }, { did, sid: 'abcdefghij' }));
  });

  it('answers the Android SDK', async () => {
    const query = new URLSearchParams([
      ['email', 'ann+shop@example.com'],
      ['shop_id', shopId],
      ['did', did],
      ['sid', 'abcdefghij'],
      ['seance', 'abcdefghij'],
      ['segment', 'A'],
      ['stream', 'android'],
    ]);
    // Uri.Builder writes a space as %20 and escapes `+` and `@`, as encodeURIComponent does.
    const text = [...query].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    await expectAnswer({ method: 'GET', url: `${PATH}?${text}`, headers: { 'user-agent': 'Personalization SDK Android' } });
  });

  it('answers the iOS SDK, whose query leaves `@` unescaped', async () => {
    const url = `${PATH}?shop_id=${shopId}&did=${did}&seance=abcdefghij&sid=abcdefghij&segment=A&email=ann@example.com&stream=ios`;
    await expectAnswer({ method: 'GET', url, headers: { 'user-agent': 'REES46 iOS SDK' } });
  });

  it('names the customer by an identifier alone for a server holding the secret', async () => {
    await expectAnswer({
      method: 'GET',
      url: `${PATH}?shop_id=${shopId}&shop_secret=${secret}&email=${encodeURIComponent('ANN+shop@example.com')}`,
    });
  });

  const cases: ReadonlyArray<readonly [string, () => string, number, string]> = [
    ['no shop_id', () => `did=${did}`, 401, 'Parameter `shop_id` is required.'],
    ['an email without the secret', () => `shop_id=${shopId}&email=ann%2Bshop%40example.com`, 401, 'Invalid secret key'],
    ['a wrong secret with an email', () => `shop_id=${shopId}&shop_secret=nope&email=ann%2Bshop%40example.com`, 401, 'Invalid secret key'],
    ['neither a device nor an identifier', () => `shop_id=${shopId}`, 422, 'Identifier is not valid'],
    ['a malformed did', () => `shop_id=${shopId}&did=INVALID_ID`, 422, 'Device ID is not valid'],
    ['a malformed email', () => `shop_id=${shopId}&did=${did}&email=not-an-email`, 422, 'Parameter `email` is not valid.'],
    ['an unknown device', () => `shop_id=${shopId}&did=unknown0001`, 404, 'Device not found'],
    ['nobody holding the email', () => `shop_id=${shopId}&shop_secret=${secret}&email=nobody%40example.com`, 404, 'Profile not found'],
  ];
  it.each(cases)('refuses %s in the status envelope', async (_name, query, status, message) => {
    const response = await t.app.inject({ method: 'GET', url: `${PATH}?${query()}` });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status, body: { status: 'error', payload: { message } } });
  });
});
