import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { AppError } from '../../../src/errors.js';
import { ProfileViewService, type ProfileSegmentSource } from '../../../src/modules/profile-view/profile-view.service.js';
import { createServices, type Services } from '../../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

describe.each(TEST_DIALECTS)('profile view service on %s', (dialect) => {
  let db: TestDb;
  let services: Services;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock: new ManualClock() });
  });
  afterAll(async () => {
    await services.tracking.drain();
    await db.cleanup();
  });

  it('takes segment ids from the segment source it is built with, asking once for all found profiles', async () => {
    const { shopId } = await createShopFixture(services);
    const { did, profileId } = await services.identity.createDevice(shopId);
    const asked: { shopId: string; profileIds: readonly number[] }[] = [];
    // Stands in for the segments module (issue 5), which implements this port.
    const segments: ProfileSegmentSource = {
      segmentIdsOf: (shop, profileIds) => {
        asked.push({ shopId: shop, profileIds });
        return Promise.resolve(new Map([[profileId, [3, 8]]]));
      },
    };
    const view = new ProfileViewService({ ...services, segments });

    const [profile] = await view.findProfiles(shopId, { did });
    expect(profile).toMatchObject({ id: profileId, devices: [did], segments: [3, 8], cart: [], wish: [] });
    expect(asked).toEqual([{ shopId, profileIds: [profileId] }]);
  });

  it('answers no segments without a segment source, and does not ask one when nothing is found', async () => {
    const { shopId } = await createShopFixture(services);
    const { did } = await services.identity.createDevice(shopId);
    expect((await services.profileView.findProfiles(shopId, { did }))[0]?.segments).toEqual([]);

    let asked = false;
    const view = new ProfileViewService({
      ...services,
      segments: {
        segmentIdsOf: () => {
          asked = true;
          return Promise.resolve(new Map());
        },
      },
    });
    expect(await view.findProfiles(shopId, { email: 'nobody@example.com' })).toEqual([]);
    expect(asked).toBe(false);
  });

  it('refuses a limit outside 1..1000 and a malformed did for callers other than the admin route', async () => {
    const { shopId } = await createShopFixture(services);
    for (const [did, limit, field] of [
      ['ZZZZZZZZZZ', 0, 'limit'],
      ['ZZZZZZZZZZ', 1001, 'limit'],
      ['ZZZZZZZZZZ', 2.5, 'limit'],
      ['short', 10, 'did'],
    ] as const) {
      const error = await services.profileView.listDeviceEvents(shopId, did, limit).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    }
  });
});
