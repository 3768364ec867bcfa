import { describe, expect, it, vi } from 'vitest';
import { PromotionsService } from '../../../src/modules/promotions/promotions.service.js';
import * as repo from '../../../src/modules/promotions/promotions.repo.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { PROMOTION } from './fixtures.js';

/**
 * The checkout's list of a shop's live promotions (docs/promotions.md "The checkout's
 * loader") against the writes that race it. `listLive` is wrapped so that a test can hold
 * a read's answer back while a write goes through: the one interleaving that a
 * repeated run hits only now and then.
 */

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe.each(TEST_DIALECTS)('live promotions of the checkout on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });

  /** Starts a load whose read has run but whose answer waits for `release`. */
  async function heldLoad(service: PromotionsService) {
    const listLive = repo.listLive;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading = () => {};
    const started = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const spy = vi.spyOn(repo, 'listLive').mockImplementationOnce(async (...args) => {
      const rows = await listLive(...args);
      reading();
      await gate;
      return rows;
    });
    const load = service.activePromotionsAt(bed.shopId, NOW);
    await started;
    spy.mockRestore();
    return { load, release };
  }

  it('sees a promotion created while an earlier read of the list was still answering', async () => {
    const promotions = bed.services.promotions;
    const { load, release } = await heldLoad(promotions);
    const created = await promotions.createPromotion(bed.shopId, PROMOTION);
    release();
    expect(await load).toEqual([]);
    expect((await promotions.activePromotionsAt(bed.shopId, NOW)).map((p) => p.id)).toEqual([created.id]);
  });

  it('drops a promotion deactivated while an earlier read of the list was still answering', async () => {
    const promotions = bed.services.promotions;
    const p = await promotions.createPromotion(bed.shopId, PROMOTION);
    const { load, release } = await heldLoad(promotions);
    await promotions.updatePromotion(bed.shopId, p.id, { status: 'inactive' });
    release();
    expect(await load).toHaveLength(1);
    expect(await promotions.activePromotionsAt(bed.shopId, NOW)).toEqual([]);
  });

  it('sees at once, with the clock standing still, what another process created, changed or ended', async () => {
    // A second service on the same database: another process, with a list of its own.
    const here = bed.services.promotions;
    const there = new PromotionsService({ db: bed.db, clock: bed.clock, shops: bed.services.shops });
    expect(await here.activePromotionsAt(bed.shopId, NOW)).toEqual([]);
    const p = await there.createPromotion(bed.shopId, PROMOTION);
    expect((await here.activePromotionsAt(bed.shopId, NOW)).map((x) => x.discount)).toEqual([{ type: 'percent', value: 1000 }]);
    await there.updatePromotion(bed.shopId, p.id, { discount: { type: 'percent', value: 2000 } });
    expect((await here.activePromotionsAt(bed.shopId, NOW)).map((x) => x.discount)).toEqual([{ type: 'percent', value: 2000 }]);
    await there.updatePromotion(bed.shopId, p.id, { endsAt: NOW });
    expect(await here.activePromotionsAt(bed.shopId, NOW)).toEqual([]);
  });

  it('reads the list once while nothing changes, and again only after a write', async () => {
    const promotions = bed.services.promotions;
    await promotions.createPromotion(bed.shopId, PROMOTION);
    const reads = vi.spyOn(repo, 'listLive');
    for (let i = 0; i < 5; i += 1) expect(await promotions.activePromotionsAt(bed.shopId, NOW)).toHaveLength(1);
    bed.clock.advance(60_000);
    expect(await promotions.activePromotionsAt(bed.shopId, bed.clock.now())).toHaveLength(1);
    expect(reads).toHaveBeenCalledTimes(1);
    await promotions.createPromotion(bed.shopId, PROMOTION);
    expect(await promotions.activePromotionsAt(bed.shopId, bed.clock.now())).toHaveLength(2);
    expect(reads).toHaveBeenCalledTimes(2);
    reads.mockRestore();
  });
});
