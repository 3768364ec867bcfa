import { systemClock } from '../../../src/clock.js';
import { createDb, type DbOptions } from '../../../src/db/create-db.js';
import { CertificateHolds } from '../../../src/modules/promotions/certificate-holds.js';
import { PromoCodeHolds } from '../../../src/modules/promotions/promo-code-holds.js';
import { inOrderStep } from '../../helpers/order-holds.js';

/**
 * One process of the two-process race (promotions-processes.test.ts): waits for the
 * agreed start instant, then fires RACE_COUNT blocks of RACE_CODE (or holds of 1.00 on
 * it, RACE_MODE=holds) for orders of its own RACE_PREFIX at once, and prints how many
 * succeeded as JSON.
 */
const env = process.env;
const options = JSON.parse(env.RACE_DB ?? '{}') as DbOptions;
const db = createDb(options.kind === 'postgres' ? { ...options, poolSize: 10 } : options);
const codes = new PromoCodeHolds({ db });
const certificates = new CertificateHolds({ db });
const shopId = env.RACE_SHOP ?? '';
const code = env.RACE_CODE ?? '';
const count = Number(env.RACE_COUNT);

await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(env.RACE_START_AT) - Date.now())));
const outcomes = await Promise.all(
  Array.from({ length: count }, (_, i) => {
    const orderId = `${env.RACE_PREFIX}-${i}`;
    // Each its own transaction, rolled back on a refusal, as the checkout's apply is.
    return env.RACE_MODE === 'holds'
      ? inOrderStep(
          db,
          systemClock,
          { shopId, orderId },
          (scope) => certificates.hold(scope, code, 100),
          (o) => !o.ok,
        )
      : inOrderStep(
          db,
          systemClock,
          { shopId, orderId },
          (scope) => codes.block(scope, code),
          (o) => !o.ok,
        );
  }),
);
await db.destroy();
process.stdout.write(JSON.stringify({ ok: outcomes.filter((o) => o.ok).length, refused: outcomes.filter((o) => !o.ok).length }));
