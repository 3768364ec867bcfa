import { describe, expect, it } from 'vitest';
import { isActiveAt } from '../../../src/modules/promotions/domain/promotion.js';
import { refusalOf } from '../../helpers/app-error.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { PROMOTION } from './fixtures.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

describe.each(TEST_DIALECTS)('promotions service on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const { clock } = bed;

  it('creates promotions with ids counted per shop and reads every field back', async () => {
    const full = {
      ...PROMOTION,
      status: 'scheduled' as const,
      startsAt: NOW + HOUR,
      endsAt: NOW + 2 * HOUR,
      priority: 5,
      discount: { type: 'fixed' as const, value: 12_345 },
      productIds: ['p1', 'p2'],
      categoryIds: ['c1'],
      minOrderTotal: 100_000,
      streams: ['ios'],
      paymentTypes: ['card'],
      byPromoCode: true,
      bonusRewardPercent: 250,
      locations: ['msk'],
      timeOfDay: { from: '09:00', to: '18:00' },
      memberLevels: ['gold'],
      firstOrderOnly: true,
      specialPrices: { p1: 9_900 },
    };
    const first = await bed.services.promotions.createPromotion(bed.shopId, full);
    const second = await bed.services.promotions.createPromotion(bed.shopId, PROMOTION);
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(await bed.services.promotions.getPromotion(bed.shopId, first.id)).toEqual({ ...full, id: 1, createdAt: NOW, updatedAt: NOW });
    const other = (await createShopFixture(bed.services)).shopId;
    expect((await bed.services.promotions.createPromotion(other, PROMOTION)).id).toBe(1);
    expect((await refusalOf(bed.services.promotions.getPromotion(other, 2))).code).toBe('NOT_FOUND');
  });

  it('refuses an invalid promotion naming the field, and writes nothing', async () => {
    const error = await refusalOf(bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, status: 'scheduled' }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'starts_at' } });
    expect((await bed.services.promotions.listPromotions(bed.shopId, {})).promotions).toEqual([]);
  });

  it('patches any field, validating the whole result after the patch', async () => {
    const p = await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, startsAt: NOW, endsAt: NOW + HOUR });
    clock.advance(1000);
    const renamed = await bed.services.promotions.updatePromotion(bed.shopId, p.id, { name: 'Spring', productIds: ['p9'] });
    expect(renamed).toMatchObject({ name: 'Spring', productIds: ['p9'], startsAt: NOW, updatedAt: NOW + 1000, createdAt: NOW });
    const early = await refusalOf(bed.services.promotions.updatePromotion(bed.shopId, p.id, { startsAt: NOW + 2 * HOUR }));
    expect(early).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'ends_at' } });
    const cleared = await bed.services.promotions
      .updatePromotion(bed.shopId, p.id, { startsAt: null, endsAt: null, status: 'scheduled', ...{} })
      .catch((e: unknown) => e);
    expect(cleared).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'starts_at' } });
    expect((await bed.services.promotions.getPromotion(bed.shopId, p.id)).name).toBe('Spring');
  });

  it('follows the transition table: no way back to draft once published, and archived is final', async () => {
    const p = await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, status: 'draft' });
    expect((await bed.services.promotions.updatePromotion(bed.shopId, p.id, { status: 'inactive' })).status).toBe('inactive');
    expect((await refusalOf(bed.services.promotions.updatePromotion(bed.shopId, p.id, { status: 'draft' }))).code).toBe('CONFLICT');
    expect((await bed.services.promotions.updatePromotion(bed.shopId, p.id, { status: 'archived' })).status).toBe('archived');
    expect((await refusalOf(bed.services.promotions.updatePromotion(bed.shopId, p.id, { status: 'active' }))).code).toBe('CONFLICT');
    expect((await refusalOf(bed.services.promotions.updatePromotion(bed.shopId, p.id, { name: 'Again' }))).code).toBe('CONFLICT');
    expect((await refusalOf(bed.services.promotions.updatePromotion(bed.shopId, 999, { name: 'x' }))).code).toBe('NOT_FOUND');
  });

  it('lists by status, by the instant they are active at and by a piece of the name, a keyset page at a time', async () => {
    const a = await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, name: 'Summer 50%_off' });
    const b = await bed.services.promotions.createPromotion(bed.shopId, {
      ...PROMOTION,
      name: 'Night',
      status: 'scheduled',
      startsAt: NOW + HOUR,
    });
    const c = await bed.services.promotions.createPromotion(bed.shopId, {
      ...PROMOTION,
      name: 'Old summer',
      endsAt: NOW - 1,
      startsAt: NOW - HOUR,
    });
    const d = await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, name: 'Draft', status: 'draft' });
    const ids = async (filter: Parameters<typeof bed.services.promotions.listPromotions>[1]) =>
      (await bed.services.promotions.listPromotions(bed.shopId, filter)).promotions.map((p) => p.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id, d.id]);
    expect(await ids({ status: 'scheduled' })).toEqual([b.id]);
    expect(await ids({ activeAt: NOW })).toEqual([a.id]);
    expect(await ids({ activeAt: NOW + HOUR })).toEqual([a.id, b.id]);
    expect(await ids({ activeAt: NOW - 2 })).toEqual([a.id, c.id]);
    expect(await ids({ activeAt: NOW - 1 })).toEqual([a.id]);
    expect(await ids({ q: 'SUMMER' })).toEqual([a.id, c.id]);
    expect(await ids({ q: '%_' })).toEqual([a.id]);
    expect(await ids({ q: '_' })).toEqual([a.id]);
    const first = await bed.services.promotions.listPromotions(bed.shopId, { limit: 3 });
    expect(first.promotions.map((p) => p.id)).toEqual([a.id, b.id, c.id]);
    expect(first.nextAfter).toBe(c.id);
    const last = await bed.services.promotions.listPromotions(bed.shopId, { limit: 3, afterId: first.nextAfter ?? undefined });
    expect(last).toEqual({ promotions: [expect.objectContaining({ id: d.id })], nextAfter: null });
  });

  it('filters by active_at in SQL exactly as isActiveAt decides, at every edge', async () => {
    const edges = [NOW - HOUR, NOW, NOW + HOUR];
    const made = [];
    for (const status of ['draft', 'scheduled', 'inactive', 'active', 'archived'] as const) {
      for (const startsAt of [null, NOW]) {
        for (const endsAt of [null, NOW + HOUR]) {
          if (status === 'scheduled' && startsAt === null) continue;
          made.push(await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, status, startsAt, endsAt }));
        }
      }
    }
    for (const at of [...edges, ...edges.map((e) => e - 1)]) {
      const listed = (await bed.services.promotions.listPromotions(bed.shopId, { activeAt: at, limit: 500 })).promotions.map((p) => p.id);
      expect(listed).toEqual(made.filter((p) => isActiveAt(p, at)).map((p) => p.id));
    }
  });

  it('loads the promotions active at an instant for the checkout, highest priority first, and sees changes made here at once', async () => {
    const low = await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, priority: 1 });
    const high = await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, priority: 9 });
    const later = await bed.services.promotions.createPromotion(bed.shopId, {
      ...PROMOTION,
      status: 'scheduled',
      startsAt: NOW + HOUR,
      endsAt: NOW + 2 * HOUR,
    });
    await bed.services.promotions.createPromotion(bed.shopId, { ...PROMOTION, status: 'inactive' });
    expect((await bed.services.promotions.activePromotionsAt(bed.shopId, NOW)).map((p) => p.id)).toEqual([high.id, low.id]);
    expect((await bed.services.promotions.activePromotionsAt(bed.shopId, NOW + HOUR)).map((p) => p.id)).toEqual([
      high.id,
      low.id,
      later.id,
    ]);
    expect((await bed.services.promotions.activePromotionsAt(bed.shopId, NOW + 2 * HOUR)).map((p) => p.id)).toEqual([high.id, low.id]);
    await bed.services.promotions.updatePromotion(bed.shopId, high.id, { status: 'inactive' });
    expect((await bed.services.promotions.activePromotionsAt(bed.shopId, NOW)).map((p) => p.id)).toEqual([low.id]);
  });
});
