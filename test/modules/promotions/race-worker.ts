import { systemClock } from '../../../src/clock.js';
import { createDb, type DbOptions } from '../../../src/db/create-db.js';
import { CertificatesService } from '../../../src/modules/promotions/certificates.service.js';
import { PromoCodesService } from '../../../src/modules/promotions/promo-codes.service.js';
import { ShopsService } from '../../../src/modules/shops/shops.service.js';

/**
 * One process of the two-process race (promotions-processes.test.ts): waits for the
 * agreed start instant, then fires RACE_COUNT blocks of RACE_CODE (or holds of 1.00 on
 * it, RACE_MODE=holds) for orders of its own RACE_PREFIX at once, and prints how many
 * succeeded as JSON.
 */
const env = process.env;
const options = JSON.parse(env.RACE_DB ?? '{}') as DbOptions;
const db = createDb(options.kind === 'postgres' ? { ...options, poolSize: 10 } : options);
const shops = new ShopsService({ db, clock: systemClock });
const codes = new PromoCodesService({ db, clock: systemClock, shops });
const certificates = new CertificatesService({ db, clock: systemClock, shops });
const shopId = env.RACE_SHOP ?? '';
const code = env.RACE_CODE ?? '';
const count = Number(env.RACE_COUNT);

await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(env.RACE_START_AT) - Date.now())));
const outcomes = await Promise.all(
  Array.from({ length: count }, (_, i) => {
    const orderId = `${env.RACE_PREFIX}-${i}`;
    return env.RACE_MODE === 'holds'
      ? certificates.holdAmount(shopId, { orderId, code, amount: 100 })
      : codes.blockUse(shopId, { orderId, code, profileId: null });
  }),
);
await db.destroy();
process.stdout.write(JSON.stringify({ ok: outcomes.filter((o) => o.ok).length, refused: outcomes.filter((o) => !o.ok).length }));
