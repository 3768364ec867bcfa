import { describe, expect, it } from 'vitest';
import { countBatch, type FigureEvent } from '../../../src/modules/recommendations/domain/figures.js';
import { dateInTimezone } from '../../../src/modules/shops/index.js';
import { toMinorUnits } from '../../../src/modules/tracking/index.js';
import type { PushEventInput } from '../../../src/modules/tracking/tracking.types.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { push } from '../tracking/tracking-fixture.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

/** A small seeded generator (mulberry32), so that the stream of events is the same every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The blocks' daily figures are kept as events arrive, a batch at a time (tracking's
 * group commit): they must be exactly what counting every stored event at once, in the
 * order of their ids, gives. Several hundred events of three customers over three weeks,
 * sent a few at a time concurrently so that batches hold several events each.
 */
describe.each(TEST_DIALECTS)('recommendation block figures on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });

  it('keeps daily rows equal to counting the stored events at once', async () => {
    const { services, shopId } = bed;
    const blocks = services.recommendationBlocks;
    const home = await blocks.putBlock(shopId, 'home', { title: 'For you', rules: [{ recommender: 'popular' }] });
    const cart = await blocks.putBlock(shopId, 'cart_page', { title: 'Also bought', rules: [{ recommender: 'also_bought' }] });
    const dids = await Promise.all([1, 2, 3].map(async () => (await services.identity.createDevice(shopId)).did));
    const random = seeded(37);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const items = ['A', 'B', 'C', 'D', 'E', 'F'];
    const codes = ['home', 'cart_page', 'ghost'];
    const campaigns = [String(home.id), String(cart.id), 'home', 'cart_page', '999', 'ghost'];
    const attributed = (): PushEventInput['attribution'] =>
      random() < 0.6
        ? { recommendedBy: 'dynamic', recommendedCode: pick(codes) }
        : random() < 0.5
          ? {}
          : { recommendedBy: 'chain', recommendedCode: 'home' };
    const line = () => ({ id: pick(items), amount: 1 + Math.floor(random() * 3), price: Math.round(random() * 10_000) / 100 });

    const event = (did: string): PushEventInput => {
      const kind = random();
      if (kind < 0.25) return push(shopId, did, 'view', { items: [{ id: pick(items), amount: 1 }], attribution: attributed() });
      if (kind < 0.45) return push(shopId, did, 'cart', { items: [line()], attribution: attributed(), fullCart: random() < 0.1 });
      if (kind < 0.6) {
        const recone = { campaign: pick(campaigns), inventory: ['A', 'B'], position: 0 };
        const by: PushEventInput['attribution'] = random() < 0.2 ? { recommendedBy: 'stories' } : {};
        return push(shopId, did, random() < 0.5 ? 'recone_view' : 'recone_click', { recone, attribution: by });
      }
      if (kind < 0.8) {
        const orderId = `o-${Math.floor(random() * 40)}`;
        return push(shopId, did, 'purchase', {
          items: [line(), line()],
          purchase: { orderId },
          attribution: random() < 0.2 ? attributed() : {},
        });
      }
      return push(shopId, did, 'category', { categoryId: '7' });
    };

    for (let round = 0; round < 60; round++) {
      await Promise.all(Array.from({ length: 5 }, () => services.tracking.recordPush(event(pick(dids)))));
      bed.clock.advance(Math.floor(random() * 10 * HOUR));
    }

    const db = bed.db.db;
    const stored = await db.selectFrom('events').selectAll().where('shop_id', '=', shopId).orderBy('id').execute();
    const ordered = new Set(
      (await db.selectFrom('orders').select('event_id').where('shop_id', '=', shopId).execute()).map((o) => Number(o.event_id)),
    );
    const all: FigureEvent[] = stored.map((e) => ({
      profileId: Number(e.profile_id),
      event: e.event,
      custom: Boolean(e.custom),
      time: Number(e.time),
      items: JSON.parse(e.items),
      params: JSON.parse(e.params),
      createsOrder: ordered.has(Number(e.id)),
    }));
    const byId = new Map([
      [String(home.id), 'home'],
      [String(cart.id), 'cart_page'],
    ]);
    const isBlock = (code: string) => code === 'home' || code === 'cart_page';
    const zone = (await services.shops.requireShop(shopId)).timezone;
    const expected = countBatch(all, {
      blockOfCampaign: (c) => (isBlock(c) ? c : byId.get(c)),
      isBlock,
      storedTouch: () => undefined,
      dayOf: (time) => dateInTimezone(time, zone),
      minorUnits: toMinorUnits,
    });

    const rows = await db.selectFrom('recommendation_block_days').selectAll().where('shop_id', '=', shopId).execute();
    const kept = rows.map((r) => ({
      code: r.code,
      day: r.day,
      figures: {
        impressions: Number(r.impressions),
        clicks: Number(r.clicks),
        views: Number(r.views),
        carts: Number(r.carts),
        orders: Number(r.orders),
        revenue: Number(r.revenue),
      },
    }));
    const sort = <T extends { code: string; day: string }>(list: T[]) =>
      list.sort((a, b) => `${a.code}/${a.day}`.localeCompare(`${b.code}/${b.day}`));
    expect(sort(kept)).toEqual(sort([...expected.days.values()].map((d) => ({ ...d }))));
    // The stream was rich enough to test something: every figure of both blocks counted.
    for (const code of ['home', 'cart_page']) {
      const sum = (f: 'impressions' | 'clicks' | 'views' | 'carts' | 'orders' | 'revenue') =>
        kept.filter((r) => r.code === code).reduce((n, r) => n + r.figures[f], 0);
      for (const f of ['impressions', 'clicks', 'views', 'carts', 'orders', 'revenue'] as const)
        expect(sum(f), `${code} ${f}`).toBeGreaterThan(0);
    }
    expect(kept.some((r) => r.code === 'ghost')).toBe(false);
    expect(new Set(kept.map((r) => r.day)).size).toBeGreaterThan(10);
  });
});
