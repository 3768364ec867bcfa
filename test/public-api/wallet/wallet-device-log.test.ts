import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PatronApp } from '../../../src/app.js';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { insertPass } from '../../../src/modules/messaging/wallet/wallet.repo.js';
import { TEST_ADMIN_TOKEN } from '../../helpers/app.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

/**
 * POST /wallet/{shopId}/v1/log takes no credential (PassKit's protocol), so what it may
 * write to the server log is bounded: nothing for a shop that has issued no pass, a few
 * short messages a request, and a budget of requests per shop.
 */
describe.each(TEST_DIALECTS)('the wallet device log on %s', (dialect) => {
  let db: TestDb;
  let app: PatronApp;
  let clock: ManualClock;
  let lines: string[] = [];
  let withPass: string;
  let withoutPass: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    const config = loadConfig({
      PATRON_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      PATRON_RATE_LIMIT: 'on',
      PATRON_TRUST_PROXY: '127.0.0.1',
    });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    app = await buildApp({ config, db, clock, logger: { level: 'warn', stream } });
    withPass = (await createShopFixture(app.services)).shopId;
    withoutPass = (await createShopFixture(app.services)).shopId;
    const { profileId } = await app.services.loyalty.joinMember(withPass, { phone: '79001112233' });
    await insertPass(db.db, {
      shop_id: withPass,
      serial_number: 'serial-1',
      pass_type_id: 'pass.org.patron.test',
      profile_id: profileId,
      token_hash: 'f'.repeat(64),
      message: null,
      created_at: clock.now(),
      updated_at: clock.now(),
    });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  const post = (shopId: string, logs: string[], address = '198.51.100.1') =>
    app.inject({ method: 'POST', url: `/wallet/${shopId}/v1/log`, payload: { logs }, remoteAddress: address });
  const deviceLogLines = () => lines.filter((line) => line.includes('wallet device log'));

  it('logs the messages of a shop that has issued passes', async () => {
    lines = [];
    expect((await post(withPass, ['Could not fetch pass'])).statusCode).toBe(200);
    expect(deviceLogLines()).toHaveLength(1);
    expect(JSON.parse(deviceLogLines()[0]!)).toMatchObject({ shopId: withPass, logs: ['Could not fetch pass'] });
  });

  it('answers 200 and logs nothing for a shop that does not exist or has issued no pass', async () => {
    lines = [];
    expect((await post('0'.repeat(30), ['x'.repeat(2_000)])).statusCode).toBe(200);
    expect((await post(withoutPass, ['x'.repeat(2_000)])).statusCode).toBe(200);
    expect(lines.join('')).toBe('');
  });

  it('logs at most 10 messages of at most 500 characters from one request, and says how many it left out', async () => {
    lines = [];
    const logs = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, '0')}${'y'.repeat(1_997)}`);
    expect((await post(withPass, logs, '198.51.100.2')).statusCode).toBe(200);
    const [line] = deviceLogLines();
    const logged = JSON.parse(line!) as { logs: string[]; omitted: number };
    expect(logged.logs).toHaveLength(10);
    expect(logged.logs.every((message) => message.length <= 500)).toBe(true);
    expect(logged.logs[0]!.startsWith('000')).toBe(true);
    expect(logged.omitted).toBe(90);
    expect(line!.length).toBeLessThan(8_000);
  });

  it('takes 60 log requests a minute per shop, then answers 429 and logs nothing more', async () => {
    clock.advance(120_000);
    lines = [];
    for (let i = 0; i < 60; i += 1) expect((await post(withPass, ['m'], `203.0.113.${i}`)).statusCode).toBe(200);
    const refused = await post(withPass, ['m'], '203.0.113.200');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ message: 'Too many device logs for this shop; retry after 1 second.' });
    expect(deviceLogLines()).toHaveLength(60);
    clock.advance(1_000);
    expect((await post(withPass, ['m'], '203.0.113.201')).statusCode).toBe(200);
  });
});
