import { beforeEach, describe, expect, it } from 'vitest';
import { PromoCodeHolds } from '../../../src/modules/promotions/promo-code-holds.js';
import { refusalOf } from '../../helpers/app-error.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { inOrderStep } from '../../helpers/order-holds.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { PROMOTION } from './fixtures.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

describe.each(TEST_DIALECTS)('promo codes service on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const { clock } = bed;
  let promotionId: number;

  beforeEach(async () => {
    promotionId = (await bed.services.promotions.createPromotion(bed.shopId, PROMOTION)).id;
  });

  // The checkout's promo-code holds, each step in a transaction of its own.
  const holds = () => new PromoCodeHolds({ db: bed.db });
  const block = (shopId: string, use: { orderId: string; code: string; profileId: number | null }) =>
    inOrderStep(
      bed.db,
      clock,
      { shopId, ...use },
      (scope) => holds().block(scope, use.code),
      (outcome) => !outcome.ok,
    );
  const releaseCode = async (shopId: string, orderId: string, code: string) =>
    (await inOrderStep(bed.db, clock, { shopId, orderId }, (scope) => holds().releaseCode(scope, code))) > 0;
  const capture = (shopId: string, orderId: string) => inOrderStep(bed.db, clock, { shopId, orderId }, (scope) => holds().capture(scope));
  const release = (shopId: string, orderId: string) => inOrderStep(bed.db, clock, { shopId, orderId }, (scope) => holds().release(scope));

  const counts = async (code: string) => {
    const c = await bed.services.promoCodes.getCode(bed.shopId, code);
    return { used: c.used, blocked: c.blocked };
  };

  it('stores a code upper case, finds it in any case, and refuses the same code in another case with CONFLICT', async () => {
    const created = await bed.services.promoCodes.createCode(bed.shopId, 'sale10', promotionId, {
      usageLimit: 100,
      perMemberLimit: 1,
      endsAt: NOW + HOUR,
    });
    expect(created).toEqual({
      code: 'SALE10',
      promotionId,
      usageLimit: 100,
      perMemberLimit: 1,
      used: 0,
      blocked: 0,
      endsAt: NOW + HOUR,
      createdAt: NOW,
    });
    expect((await bed.services.promoCodes.getCode(bed.shopId, 'Sale10')).code).toBe('SALE10');
    expect((await refusalOf(bed.services.promoCodes.createCode(bed.shopId, 'SALE10', promotionId, {}))).code).toBe('CONFLICT');
    expect((await refusalOf(bed.services.promoCodes.createCode(bed.shopId, 'X', 999, {}))).code).toBe('NOT_FOUND');
    const other = (await createShopFixture(bed.services)).shopId;
    expect((await refusalOf(bed.services.promoCodes.getCode(other, 'SALE10'))).code).toBe('NOT_FOUND');
  });

  it('refuses a code for an archived promotion', async () => {
    await bed.services.promotions.updatePromotion(bed.shopId, promotionId, { status: 'archived' });
    expect((await refusalOf(bed.services.promoCodes.createCode(bed.shopId, 'LATE', promotionId, {}))).code).toBe('CONFLICT');
  });

  it('generates N distinct codes of the pattern, single-use by default, listed a page at a time', async () => {
    const made = await bed.services.promoCodes.generateCodes(bed.shopId, promotionId, { count: 1_000, pattern: 'sale-####-??' });
    expect(made).toHaveLength(1_000);
    expect(new Set(made).size).toBe(1_000);
    for (const code of made) expect(code).toMatch(/^SALE-[2-9]{4}-[A-Z]{2}$/);
    expect(await bed.services.promoCodes.getCode(bed.shopId, made[0] ?? '')).toMatchObject({ usageLimit: 1, used: 0, promotionId });
    const first = await bed.services.promoCodes.listCodes(bed.shopId, promotionId, { limit: 600 });
    const second = await bed.services.promoCodes.listCodes(bed.shopId, promotionId, { limit: 600, after: first.nextAfter ?? undefined });
    expect(second.nextAfter).toBeNull();
    expect([...first.codes, ...second.codes].map((c) => c.code)).toEqual([...made].sort());
  });

  it('draws again the codes that collide with existing ones until the count is reached', async () => {
    // '##' has 64 codes; 6 asked (space ≥ 10×6) while 50 are taken leaves 14 free.
    const taken = await bed.services.promoCodes.generateCodes(bed.shopId, promotionId, { count: 6, pattern: '##' });
    for (let i = 0; i < 7; i += 1)
      taken.push(...(await bed.services.promoCodes.generateCodes(bed.shopId, promotionId, { count: 6, pattern: '##' })));
    expect(new Set(taken).size).toBe(48);
    const more = await bed.services.promoCodes.generateCodes(bed.shopId, promotionId, { count: 6, pattern: '##', usageLimit: null });
    expect(more.filter((c) => taken.includes(c))).toEqual([]);
    expect(await bed.services.promoCodes.getCode(bed.shopId, more[0] ?? '')).toMatchObject({ usageLimit: null });
  });

  it('refuses a pattern too small for the count, and a malformed one, naming `pattern`', async () => {
    expect(await refusalOf(bed.services.promoCodes.generateCodes(bed.shopId, promotionId, { count: 7, pattern: '##' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'pattern' },
    });
    expect(
      (await refusalOf(bed.services.promoCodes.generateCodes(bed.shopId, promotionId, { count: 1, pattern: 'NONE' }))).details,
    ).toEqual({ field: 'pattern' });
    expect((await bed.services.promoCodes.listCodes(bed.shopId, promotionId, { limit: 10 })).codes).toEqual([]);
  });

  it('blocks a use per order; a repeat apply of the order blocks nothing more; confirm counts it once', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'ONCE', promotionId, { usageLimit: 2 });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'once', profileId: null })).toEqual({ ok: true, code: 'ONCE', promotionId });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'ONCE', profileId: null })).toMatchObject({ ok: true });
    expect(await counts('ONCE')).toEqual({ used: 0, blocked: 1 });
    expect(await capture(bed.shopId, 'o1')).toBe(1);
    expect(await capture(bed.shopId, 'o1')).toBe(0);
    expect(await counts('ONCE')).toEqual({ used: 1, blocked: 0 });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'ONCE', profileId: null })).toMatchObject({ ok: false, reason: 'order_settled' });
  });

  it('refuses an unknown, expired or exhausted code, and writes nothing for a refusal', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'ENDS', promotionId, { endsAt: NOW + HOUR });
    await bed.services.promoCodes.createCode(bed.shopId, 'ONE', promotionId, { usageLimit: 1 });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'NOPE', profileId: null })).toMatchObject({ ok: false, reason: 'unknown' });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'x'.repeat(10_000), profileId: null })).toMatchObject({ reason: 'unknown' });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'ONE', profileId: null })).toMatchObject({ ok: true });
    expect(await block(bed.shopId, { orderId: 'o2', code: 'ONE', profileId: null })).toMatchObject({ ok: false, reason: 'exhausted' });
    clock.set(NOW + HOUR);
    expect(await block(bed.shopId, { orderId: 'o2', code: 'ENDS', profileId: null })).toMatchObject({ ok: false, reason: 'expired' });
    expect(await counts('ENDS')).toEqual({ used: 0, blocked: 0 });
    const uses = await bed.db.db.selectFrom('promo_code_uses').select('order_id').where('shop_id', '=', bed.shopId).execute();
    expect(uses.map((u) => u.order_id)).toEqual(['o1']);
  });

  it('releases a block once, after which another order may take the use', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'ONE', promotionId, { usageLimit: 1 });
    await block(bed.shopId, { orderId: 'o1', code: 'ONE', profileId: null });
    expect(await releaseCode(bed.shopId, 'o1', 'one')).toBe(true);
    expect(await releaseCode(bed.shopId, 'o1', 'ONE')).toBe(false);
    expect(await counts('ONE')).toEqual({ used: 0, blocked: 0 });
    expect(await block(bed.shopId, { orderId: 'o2', code: 'ONE', profileId: null })).toMatchObject({ ok: true });
    expect(await block(bed.shopId, { orderId: 'o1', code: 'ONE', profileId: null })).toMatchObject({ ok: false, reason: 'exhausted' });
  });

  it('cancel releases the blocks of an open order and un-counts the uses of a completed one, once', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'ONE', promotionId, { usageLimit: 1, perMemberLimit: 1 });
    await block(bed.shopId, { orderId: 'o1', code: 'ONE', profileId: 7 });
    await capture(bed.shopId, 'o1');
    expect(await release(bed.shopId, 'o1')).toEqual({ released: 0, uncounted: 1 });
    expect(await release(bed.shopId, 'o1')).toEqual({ released: 0, uncounted: 0 });
    expect(await counts('ONE')).toEqual({ used: 0, blocked: 0 });
    expect(await block(bed.shopId, { orderId: 'o2', code: 'ONE', profileId: 7 })).toMatchObject({ ok: true });
    expect(await release(bed.shopId, 'o2')).toEqual({ released: 1, uncounted: 0 });
    expect(await counts('ONE')).toEqual({ used: 0, blocked: 0 });
  });

  it('holds a per-member limit across orders, and wants a member for a code that has one', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'TWICE', promotionId, { perMemberLimit: 2 });
    expect(await block(bed.shopId, { orderId: 'a', code: 'TWICE', profileId: 1 })).toMatchObject({ ok: true });
    expect(await block(bed.shopId, { orderId: 'b', code: 'TWICE', profileId: 1 })).toMatchObject({ ok: true });
    expect(await block(bed.shopId, { orderId: 'c', code: 'TWICE', profileId: 1 })).toMatchObject({ ok: false, reason: 'member_limit' });
    expect(await block(bed.shopId, { orderId: 'c', code: 'TWICE', profileId: 2 })).toMatchObject({ ok: true });
    expect(await block(bed.shopId, { orderId: 'd', code: 'TWICE', profileId: null })).toMatchObject({
      ok: false,
      reason: 'member_required',
    });
    expect(await counts('TWICE')).toEqual({ used: 0, blocked: 3 });
    await releaseCode(bed.shopId, 'a', 'TWICE');
    expect(await block(bed.shopId, { orderId: 'e', code: 'TWICE', profileId: 1 })).toMatchObject({ ok: true });
  });

  it('lets exactly one of 100 simultaneous orders block a code with one use left', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'LAST', promotionId, { usageLimit: 5 });
    for (let i = 0; i < 4; i += 1) await block(bed.shopId, { orderId: `pre-${i}`, code: 'LAST', profileId: null });
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) => block(bed.shopId, { orderId: `race-${i}`, code: 'LAST', profileId: null })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.reason === 'exhausted')).toHaveLength(99);
    expect(await counts('LAST')).toEqual({ used: 0, blocked: 5 });
  });

  it('lets a member with a limit of 3 block no more than 3 of 20 simultaneous orders', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'MINE', promotionId, { perMemberLimit: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => block(bed.shopId, { orderId: `m-${i}`, code: 'MINE', profileId: 42 })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
    expect(await counts('MINE')).toEqual({ used: 0, blocked: 3 });
    const member = await bed.db.db
      .selectFrom('promo_code_members')
      .select('taken')
      .where('shop_id', '=', bed.shopId)
      .executeTakeFirstOrThrow();
    expect(Number(member.taken)).toBe(3);
  });

  it('confirms and releases once each when asked concurrently', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'C', promotionId, { usageLimit: 10 });
    await block(bed.shopId, { orderId: 'o1', code: 'C', profileId: null });
    await block(bed.shopId, { orderId: 'o2', code: 'C', profileId: null });
    const confirms = await Promise.all(Array.from({ length: 10 }, () => capture(bed.shopId, 'o1')));
    expect(confirms.reduce((a, b) => a + b, 0)).toBe(1);
    const releases = await Promise.all(Array.from({ length: 10 }, () => releaseCode(bed.shopId, 'o2', 'C')));
    expect(releases.filter(Boolean)).toHaveLength(1);
    expect(await counts('C')).toEqual({ used: 1, blocked: 0 });
  });

  it('loads the codes a checkout names, in any case, skipping unknown ones and those of other shops', async () => {
    await bed.services.promoCodes.createCode(bed.shopId, 'A1', promotionId, {});
    const found = await bed.services.promoCodes.findCodes(bed.shopId, ['a1', 'A1', 'missing', '']);
    expect([...found.keys()]).toEqual(['A1']);
  });
});
