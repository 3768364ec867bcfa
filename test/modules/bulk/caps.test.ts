import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';

/**
 * Frequency caps under concurrency (issue 17 part 4; STYLE.md "limits by conditional
 * UPDATE"): 100 writers counting a bulk message to one profile at once pass a cap of 2
 * exactly twice, and a day counted whose week is full is taken back.
 */
describe.each(TEST_DIALECTS)('bulk frequency caps on %s', (dialect) => {
  let t: TestApp;
  let shopId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    shopId = (await createShopFixture(t.app.services, { timezone: 'UTC' })).shopId;
  });

  afterAll(async () => {
    await t.close();
  });

  const take = async (profileId: number, at: number) => {
    const limits = t.app.services.messagingLimits;
    const loaded = await limits.limitsOf(shopId);
    return t.db.db.transaction().execute((trx) => limits.takeCaps(trx, loaded, { shopId, profileId }, ['email', 'sms'], at));
  };

  it('lets 2 of 100 concurrent counts through a daily cap of 2, on the capped channel only', async () => {
    await t.app.services.messagingLimits.putLimits(shopId, { email: { bulk_per_day: 2 } });
    const at = Date.UTC(2026, 2, 2, 12);
    const results = await Promise.all(Array.from({ length: 100 }, () => take(1, at)));
    expect(results.filter((r) => r.has('email'))).toHaveLength(2);
    expect(results.filter((r) => r.has('sms'))).toHaveLength(100);
    const rows = await t.db.db
      .selectFrom('bulk_cap_counters')
      .select(['period', 'count'])
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', 1)
      .execute();
    expect(rows).toEqual([{ period: 'd:2026-03-02', count: 2 }]);
  });

  it('counts per calendar day and ISO week, giving back a day whose week is full', async () => {
    await t.app.services.messagingLimits.putLimits(shopId, { email: { bulk_per_day: 2, bulk_per_week: 3 } });
    const monday = Date.UTC(2026, 2, 9, 10);
    const day = 86_400_000;
    const allowed = [];
    for (const at of [monday, monday + 1000, monday + 2000, monday + day, monday + 2 * day, monday + 7 * day]) {
      allowed.push((await take(2, at)).has('email'));
    }
    expect(allowed).toEqual([true, true, false, true, false, true]);
    const rows = await t.db.db
      .selectFrom('bulk_cap_counters')
      .select(['period', 'count'])
      .where('shop_id', '=', shopId)
      .where('profile_id', '=', 2)
      .orderBy('period')
      .execute();
    expect(rows).toEqual([
      { period: 'd:2026-03-09', count: 2 },
      { period: 'd:2026-03-10', count: 1 },
      { period: 'd:2026-03-11', count: 0 },
      { period: 'd:2026-03-16', count: 1 },
      { period: 'w:2026-W11', count: 3 },
      { period: 'w:2026-W12', count: 1 },
    ]);
  });

  it('never caps or delays transactional messages', async () => {
    await t.app.services.messagingLimits.putLimits(shopId, { email: { bulk_per_day: 0, quiet_hours: { from: '00:00', to: '23:59' } } });
    const now = Date.UTC(2026, 2, 9, 10);
    expect(await t.app.services.messagingLimits.sendAt(shopId, 'email', 'transactional', now)).toBe(now);
    expect(await t.app.services.messagingLimits.sendAt(shopId, 'email', 'chain', now)).toBe(Date.UTC(2026, 2, 9, 23, 59));
    expect((await take(3, now)).has('email')).toBe(false);
  });
});
