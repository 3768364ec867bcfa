import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { CertificatesService } from '../../../src/modules/promotions/certificates.service.js';
import { PromoCodesService } from '../../../src/modules/promotions/promo-codes.service.js';
import { PromotionsService } from '../../../src/modules/promotions/promotions.service.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';
import { runWorker } from '../../helpers/race-worker.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { PROMOTION } from './fixtures.js';

const PER_PROCESS = 50;

/** Runs the race worker in a child process (tsx, no build) and answers its counts. */
function race(env: Record<string, string>): Promise<{ ok: number; refused: number }> {
  return runWorker<{ ok: number; refused: number }>('test/modules/promotions/race-worker.ts', env, 40_000);
}

describe.each(TEST_DIALECTS)('promo code and certificate limits across two processes on %s', (dialect) => {
  let db: TestDb;
  let shopId: string;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    const shops = new ShopsService({ db, clock: systemClock });
    shopId = (await createShopFixture({ shops })).shopId;
    const promotion = await new PromotionsService({ db, clock: systemClock, shops }).createPromotion(shopId, PROMOTION);
    await new PromoCodesService({ db, clock: systemClock, shops }).createCode(shopId, 'LAST', promotion.id, { usageLimit: 1 });
    await new CertificatesService({ db, clock: systemClock, shops }).createCertificate(shopId, { code: 'TEN', amount: 1_000 });
  });
  afterAll(async () => {
    await db.cleanup();
  });

  const both = (mode: string, code: string) => {
    const startAt = String(Date.now() + 3_000);
    const env = {
      RACE_DB: JSON.stringify(db.options),
      RACE_SHOP: shopId,
      RACE_CODE: code,
      RACE_COUNT: String(PER_PROCESS),
      RACE_MODE: mode,
      RACE_START_AT: startAt,
    };
    return Promise.all([race({ ...env, RACE_PREFIX: 'a' }), race({ ...env, RACE_PREFIX: 'b' })]);
  };

  it('lets exactly one of 100 orders from two processes block a code with one use left', async () => {
    const [a, b] = await both('blocks', 'LAST');
    expect({ ok: a.ok + b.ok, refused: a.refused + b.refused }).toEqual({ ok: 1, refused: 99 });
    const row = await db.db.selectFrom('promo_codes').select(['used', 'blocked']).where('shop_id', '=', shopId).executeTakeFirstOrThrow();
    expect({ used: Number(row.used), blocked: Number(row.blocked) }).toEqual({ used: 0, blocked: 1 });
  }, 60_000);

  it('lets exactly 10 of 100 holds from two processes through against a certificate covering 10', async () => {
    const [a, b] = await both('holds', 'TEN');
    expect({ ok: a.ok + b.ok, refused: a.refused + b.refused }).toEqual({ ok: 10, refused: 90 });
    const row = await db.db.selectFrom('certificates').select(['balance', 'held']).where('shop_id', '=', shopId).executeTakeFirstOrThrow();
    expect({ balance: Number(row.balance), held: Number(row.held) }).toEqual({ balance: 1_000, held: 1_000 });
  }, 60_000);
});
