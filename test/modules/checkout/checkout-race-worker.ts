import { systemClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { createDb, type DbOptions } from '../../../src/db/create-db.js';
import { AppError } from '../../../src/errors.js';
import { createServices } from '../../../src/services.js';
import { checkoutRequest } from './checkout-fixture.js';

/**
 * One process of the two-process checkout race (checkout-processes.test.ts): waits for
 * the agreed start instant, then either applies RACE_COUNT orders of its own RACE_PREFIX
 * that all ask for the code RACE_CODE (RACE_MODE=apply), or confirms the order RACE_ORDER
 * RACE_COUNT times (RACE_MODE=confirm; confirm-or-refused counts a 409 as a refusal), or
 * cancels it RACE_COUNT times (RACE_MODE=cancel), all at once; prints how many applies got
 * the code (or how many confirms or cancels answered) as JSON.
 */
const env = process.env;
const options = JSON.parse(env.RACE_DB ?? '{}') as DbOptions;
const db = createDb(options.kind === 'postgres' ? { ...options, poolSize: 10 } : options);
const services = createServices({ config: loadConfig({ LOG_LEVEL: 'silent' }), db, clock: systemClock });
const shop = { shopId: env.RACE_SHOP ?? '', timezone: 'UTC' };
const count = Number(env.RACE_COUNT);

await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(env.RACE_START_AT) - Date.now())));
/** A confirm or cancel refused because the other got there first (409) is an expected outcome of the race. */
const refused = (error: unknown) => {
  if (error instanceof AppError && error.code === 'CONFLICT') return false;
  throw error;
};
const outcomes = await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    if (env.RACE_MODE === 'confirm') return (await services.checkout.confirm(shop.shopId, env.RACE_ORDER ?? '')).ok;
    if (env.RACE_MODE === 'confirm-or-refused')
      return services.checkout.confirm(shop.shopId, env.RACE_ORDER ?? '').then((a) => a.ok, refused);
    if (env.RACE_MODE === 'cancel') return services.checkout.cancel(shop.shopId, env.RACE_ORDER ?? '').then(() => true, refused);
    const answer = await services.checkout.apply(
      shop,
      checkoutRequest({ orderId: `${env.RACE_PREFIX}-${i}`, promoCodes: [env.RACE_CODE ?? ''] }),
    );
    return answer.ok && answer.result.promoCodes.length > 0;
  }),
);
await db.destroy();
process.stdout.write(JSON.stringify({ ok: outcomes.filter(Boolean).length }));
