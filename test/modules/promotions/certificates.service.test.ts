import { describe, expect, it } from 'vitest';
import { CertificateHolds } from '../../../src/modules/promotions/certificate-holds.js';
import { refusalOf } from '../../helpers/app-error.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { inOrderStep } from '../../helpers/order-holds.js';
import { useServiceBed } from '../../helpers/service-bed.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

describe.each(TEST_DIALECTS)('certificates service on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const { clock } = bed;

  // The checkout's certificate holds, each step in a transaction of its own.
  const holds = () => new CertificateHolds({ db: bed.db });
  const hold = (shopId: string, held: { orderId: string; code: string; amount: number }) =>
    inOrderStep(
      bed.db,
      clock,
      { shopId, orderId: held.orderId },
      (scope) => holds().hold(scope, held.code, held.amount),
      (outcome) => !outcome.ok,
    );
  const capture = (shopId: string, orderId: string) => inOrderStep(bed.db, clock, { shopId, orderId }, (scope) => holds().capture(scope));
  const release = (shopId: string, orderId: string, code?: string) =>
    inOrderStep(bed.db, clock, { shopId, orderId }, (scope) =>
      code === undefined ? holds().release(scope) : holds().releaseCode(scope, code),
    );

  const state = async (code: string) => {
    const c = await bed.services.certificates.getCertificate(bed.shopId, code);
    return { balance: c.balance, held: c.held };
  };

  it('creates a certificate with its whole amount as balance, in a pool that must exist', async () => {
    const pool = await bed.services.certificates.createPool(bed.shopId, 'Gift cards 2026');
    expect(pool).toEqual({ id: 1, name: 'Gift cards 2026' });
    const created = await bed.services.certificates.createCertificate(bed.shopId, {
      code: 'gift-1',
      amount: 100_000,
      poolId: pool.id,
      expiresAt: NOW + HOUR,
    });
    expect(created).toEqual({
      id: 1,
      code: 'GIFT-1',
      poolId: 1,
      amount: 100_000,
      balance: 100_000,
      held: 0,
      expiresAt: NOW + HOUR,
      createdAt: NOW,
    });
    expect(await bed.services.certificates.getCertificate(bed.shopId, 'Gift-1')).toEqual(created);
    expect((await bed.services.certificates.createCertificate(bed.shopId, { code: 'GIFT-2', amount: 1 })).poolId).toBeNull();
    expect(
      await refusalOf(bed.services.certificates.createCertificate(bed.shopId, { code: 'GIFT-3', amount: 1, poolId: 99 })),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'pool_id' },
    });
    expect((await refusalOf(bed.services.certificates.createCertificate(bed.shopId, { code: 'gift-1', amount: 1 }))).code).toBe('CONFLICT');
    expect(
      (await refusalOf(bed.services.certificates.createCertificate(bed.shopId, { code: 'G', amount: 1, expiresAt: NOW }))).details,
    ).toEqual({
      field: 'expires_at',
    });
    const other = (await createShopFixture(bed.services)).shopId;
    expect((await refusalOf(bed.services.certificates.getCertificate(other, 'GIFT-1'))).code).toBe('NOT_FOUND');
  });

  it('holds part of a balance, captures it at confirm and restores it at refund, each once', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'G', amount: 100_000 });
    expect(await hold(bed.shopId, { orderId: 'o1', code: 'g', amount: 30_000 })).toEqual({
      ok: true,
      code: 'G',
      certificateId: 1,
      amount: 30_000,
    });
    expect(await state('G')).toEqual({ balance: 100_000, held: 30_000 });
    expect(await capture(bed.shopId, 'o1')).toBe(1);
    expect(await capture(bed.shopId, 'o1')).toBe(0);
    expect(await state('G')).toEqual({ balance: 70_000, held: 0 });
    expect(await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 1 })).toMatchObject({ ok: false, reason: 'order_settled' });
    expect(await release(bed.shopId, 'o1')).toBe(1);
    expect(await release(bed.shopId, 'o1')).toBe(0);
    expect(await state('G')).toEqual({ balance: 100_000, held: 0 });
  });

  it('replaces the hold of an order on a repeat apply rather than adding to it', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'G', amount: 10_000 });
    await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 8_000 });
    expect(await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 10_000 })).toMatchObject({ ok: true });
    expect(await state('G')).toEqual({ balance: 10_000, held: 10_000 });
    expect(await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 2_000 })).toMatchObject({ ok: true });
    expect(await state('G')).toEqual({ balance: 10_000, held: 2_000 });
  });

  it('refuses a hold beyond what is free, of an expired or unknown certificate, leaving the old hold as it was', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'G', amount: 10_000, expiresAt: NOW + HOUR });
    await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 6_000 });
    expect(await hold(bed.shopId, { orderId: 'o2', code: 'G', amount: 4_001 })).toMatchObject({ ok: false, reason: 'insufficient' });
    expect(await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 10_001 })).toMatchObject({ ok: false, reason: 'insufficient' });
    expect(await state('G')).toEqual({ balance: 10_000, held: 6_000 });
    expect(await hold(bed.shopId, { orderId: 'o2', code: 'NOPE', amount: 1 })).toMatchObject({ ok: false, reason: 'unknown' });
    clock.set(NOW + HOUR);
    expect(await hold(bed.shopId, { orderId: 'o2', code: 'G', amount: 1 })).toMatchObject({ ok: false, reason: 'expired' });
    // A hold taken before the expiry is still captured: the buyer paid with it in time.
    expect(await capture(bed.shopId, 'o1')).toBe(1);
    expect(await state('G')).toEqual({ balance: 4_000, held: 0 });
  });

  it('releases a hold once, all of an order or one code', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'A', amount: 1_000 });
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'B', amount: 1_000 });
    await hold(bed.shopId, { orderId: 'o1', code: 'A', amount: 500 });
    await hold(bed.shopId, { orderId: 'o1', code: 'B', amount: 500 });
    expect(await release(bed.shopId, 'o1', 'b')).toBe(1);
    expect(await release(bed.shopId, 'o1', 'B')).toBe(0);
    expect(await release(bed.shopId, 'o1')).toBe(1);
    expect(await release(bed.shopId, 'o1')).toBe(0);
    expect(await state('A')).toEqual({ balance: 1_000, held: 0 });
    expect(await capture(bed.shopId, 'o1')).toBe(0);
    expect(await state('B')).toEqual({ balance: 1_000, held: 0 });
  });

  it('lets exactly 10 of 100 simultaneous holds through when the balance covers 10', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'TEN', amount: 10_000 });
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) => hold(bed.shopId, { orderId: `race-${i}`, code: 'TEN', amount: 1_000 })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    expect(outcomes.filter((o) => !o.ok && o.reason === 'insufficient')).toHaveLength(90);
    expect(await state('TEN')).toEqual({ balance: 10_000, held: 10_000 });
  });

  it('captures and restores once each when asked concurrently', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'G', amount: 5_000 });
    await hold(bed.shopId, { orderId: 'o1', code: 'G', amount: 2_000 });
    const captures = await Promise.all(Array.from({ length: 10 }, () => capture(bed.shopId, 'o1')));
    expect(captures.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await state('G')).toEqual({ balance: 3_000, held: 0 });
    const restores = await Promise.all(Array.from({ length: 10 }, () => release(bed.shopId, 'o1')));
    expect(restores.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await state('G')).toEqual({ balance: 5_000, held: 0 });
  });

  it('loads the certificates a checkout names, in any case', async () => {
    await bed.services.certificates.createCertificate(bed.shopId, { code: 'G', amount: 5_000 });
    expect([...(await bed.services.certificates.findCertificates(bed.shopId, ['g', 'G', 'nope'])).keys()]).toEqual(['G']);
  });
});
