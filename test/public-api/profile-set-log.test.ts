import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PatronApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { setProfileRequest } from '../contract/rn-sdk-requests.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { createShopFixture } from '../helpers/factories.js';

/** POST /profile/set names the keys it ignored in the log as well as in the answer (docs/profiles.md). */
describe('POST /profile/set log', () => {
  let db: TestDb;
  let app: PatronApp;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        callback();
      },
    });
    const config = loadConfig({ PATRON_ADMIN_TOKEN: 'test-admin-token-0123456789', PATRON_RATE_LIMIT: 'off' });
    app = await buildApp({ config, db, clock: new ManualClock(), logger: { level: 'info', stream } });
  });
  afterAll(async () => {
    await app.close();
    await db.cleanup();
  });

  it('logs the shop and the ignored keys of an update that had some, and nothing of one that had none', async () => {
    const { shopId } = await createShopFixture(app.services);
    const init = await app.inject({ method: 'GET', url: `/init?shop_id=${shopId}` });
    const { did, sid } = init.json<{ did: string; sid: string }>();

    lines.length = 0;
    const response = await app.inject(setProfileRequest({ shopId, did, sid }, { first_name: 'Kate', shoe_size: 42 }));
    expect(response.statusCode, response.body).toBe(200);
    const logged = lines.filter((line) => line.ignored_keys !== undefined);
    expect(logged).toEqual([expect.objectContaining({ level: 30, shop_id: shopId, ignored_keys: ['shoe_size'] })]);
    expect(String(logged[0]!.msg)).toMatch(/ignored/);

    lines.length = 0;
    await app.inject(setProfileRequest({ shopId, did, sid }, { first_name: 'Kate' }));
    expect(lines.filter((line) => line.ignored_keys !== undefined)).toEqual([]);
  });
});
