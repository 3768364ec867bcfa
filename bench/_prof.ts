import { systemClock } from '../src/clock.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { ShopsService } from '../src/modules/shops/shops.service.js';
import { PromotionsService } from '../src/modules/promotions/promotions.service.js';
import { PromoCodesService } from '../src/modules/promotions/promo-codes.service.js';
import fs from 'node:fs';
fs.rmSync('/tmp/profdb', { recursive: true, force: true });
const db = createDb({ kind: 'sqlite', file: '/tmp/profdb/p.sqlite' });
await migrateToLatest(db);
const shops = new ShopsService({ db, clock: systemClock });
const { shop } = await shops.createShop({ name: 'x' });
const promotions = new PromotionsService({ db, clock: systemClock, shops });
const p = await promotions.createPromotion(shop.shopId, { name: 'a', status: 'active', startsAt: null, endsAt: null, priority: 0, discount: { type: 'percent', value: 1 }, productIds: [], categoryIds: [], minOrderTotal: null, streams: [], paymentTypes: [], byPromoCode: false, bonusRewardPercent: 0, locations: [], timeOfDay: null, memberLevels: [], firstOrderOnly: false, specialPrices: {} });
const codes = new PromoCodesService({ db, clock: systemClock, shops });
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  await codes.generateCodes(shop.shopId, p.id, { count: 100000, pattern: 'SALE-######-????' });
  console.log('service', performance.now() - t);
}
await db.destroy();
