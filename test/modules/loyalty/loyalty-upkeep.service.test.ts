import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import type { JobRunner } from '../../../src/jobs/runner.js';
import { DEFAULT_SETTINGS } from '../../../src/modules/loyalty/domain/settings.js';
import { HOUR_MS, MINUTE_MS } from '../../../src/modules/loyalty/domain/upkeep.js';
import { LoyaltyLedger } from '../../../src/modules/loyalty/loyalty-ledger.js';
import { LoyaltyUpkeepService } from '../../../src/modules/loyalty/loyalty-upkeep.service.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { createServices, type Services } from '../../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { settleBonusHold } from '../../helpers/order-holds.js';
import { createShopFixture } from '../../helpers/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

describe.each(TEST_DIALECTS)('loyalty upkeep on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let services: Services;
  let runner: JobRunner;
  let shopId: string;
  let phoneSeq = 0;

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    services = createServices({ config, db, clock });
    runner = createJobRunner({ config, services, clock, log: createLogger('silent') });
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    clock.set(NOW);
    shopId = (await createShopFixture(services)).shopId;
  });

  async function newMember(): Promise<{ identifier: string; profileId: number }> {
    phoneSeq += 1;
    return services.loyalty.joinMember(shopId, { phone: `7901${String(phoneSeq).padStart(7, '0')}` });
  }

  /**
   * A ledger that tells no upkeep, as lots credited before the upkeep existed were: the
   * fixtures below start no chain, so that each test starts the chain its own way.
   */
  function quietLedger(): LoyaltyLedger {
    return new LoyaltyLedger({ db, clock });
  }

  /** A pending lot, as the reward services write them, through a ledger that starts no chain. */
  async function creditPending(profileId: number, amount: number, confirmsAt: number, expiresAt: number | null = null): Promise<number> {
    const posted = await quietLedger().write(shopId, profileId, (w) =>
      w.credit({ amount, status: 'pending', kind: 'order_reward', reason: null, orderId: null, expiresAt, confirmsAt }),
    );
    return posted.transactionId;
  }

  /** A confirmed lot with an expiry, through a ledger that starts no chain. */
  async function creditExpiring(profileId: number, amount: number, expiresAt: number): Promise<number> {
    const posted = await quietLedger().write(shopId, profileId, (w) =>
      w.credit({ amount, status: 'confirmed', kind: 'manual', reason: null, orderId: null, expiresAt }),
    );
    return posted.transactionId;
  }

  async function lot(id: number) {
    const row = await db.db
      .selectFrom('loyalty_lots')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { status: row.status, remaining: Number(row.remaining) };
  }

  async function entriesOfKind(kind: string) {
    const rows = await db.db
      .selectFrom('loyalty_transactions')
      .selectAll()
      .where('shop_id', '=', shopId)
      .where('kind', '=', kind)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      profileId: Number(r.profile_id),
      amount: Number(r.amount),
      createdAt: Number(r.created_at),
    }));
  }

  async function sweepJobs() {
    const rows = await db.db.selectFrom('jobs').selectAll().where('name', '=', 'loyalty.sweep').orderBy('id').execute();
    return rows
      .filter((j) => (JSON.parse(j.payload) as { shopId: string }).shopId === shopId)
      .map((j) => ({ status: j.status, runAt: Number(j.run_at) }));
  }

  async function nextSweepAt(): Promise<number | null> {
    const row = await db.db.selectFrom('loyalty_upkeep').select('next_sweep_at').where('shop_id', '=', shopId).executeTakeFirst();
    return row?.next_sweep_at == null ? null : Number(row.next_sweep_at);
  }

  describe('the sweep', () => {
    it('confirms a pending lot exactly at its confirms_at and not a millisecond before', async () => {
      const m = await newMember();
      const id = await creditPending(m.profileId, 700, NOW + 14 * DAY);
      clock.set(NOW + 14 * DAY - 1);
      expect(await services.loyaltyUpkeep.sweep(shopId)).toEqual({ confirmed: 0, expired: 0, writtenOff: 0 });
      expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 0, pending: 700 });

      clock.set(NOW + 14 * DAY);
      expect(await services.loyaltyUpkeep.sweep(shopId)).toEqual({ confirmed: 1, expired: 0, writtenOff: 0 });
      const view = await services.loyalty.viewMember(shopId, m.identifier);
      expect(view).toMatchObject({ balance: 700, pending: 0 });
      expect(view.transactions).toEqual([expect.objectContaining({ id, amount: 700, status: 'confirmed', kind: 'order_reward' })]);
      expect(await lot(id)).toEqual({ status: 'confirmed', remaining: 700 });
    });

    it('writes off what is left of an expired lot as an expiry transaction the member view lists', async () => {
      const m = await newMember();
      const expiring = await creditExpiring(m.profileId, 500, NOW + DAY);
      await services.loyalty.creditManual(shopId, m.identifier, { amount: 100 });
      await services.loyalty.debitManual(shopId, m.identifier, { amount: 120, reason: 'spent' });
      clock.set(NOW + DAY - 1);
      expect((await services.loyaltyUpkeep.sweep(shopId)).expired).toBe(0);

      clock.set(NOW + DAY);
      expect(await services.loyaltyUpkeep.sweep(shopId)).toEqual({ confirmed: 0, expired: 1, writtenOff: 380 });
      const view = await services.loyalty.viewMember(shopId, m.identifier);
      expect(view.balance).toBe(100);
      expect(view.transactions[0]).toEqual({
        id: expect.any(Number),
        amount: -380,
        status: 'confirmed',
        kind: 'expiry',
        orderId: null,
        reason: null,
        createdAt: NOW + DAY,
        expiresAt: null,
      });
      expect(await lot(expiring)).toEqual({ status: 'confirmed', remaining: 0 });
      const allocations = await db.db
        .selectFrom('loyalty_allocations')
        .select(['lot_id', 'amount'])
        .where('shop_id', '=', shopId)
        .where('transaction_id', '=', view.transactions[0]!.id)
        .execute();
      expect(allocations.map((a) => [Number(a.lot_id), Number(a.amount)])).toEqual([[expiring, 380]]);
      // Nothing is left to write off: a second sweep changes nothing.
      expect(await services.loyaltyUpkeep.sweep(shopId)).toEqual({ confirmed: 0, expired: 0, writtenOff: 0 });
      expect(await entriesOfKind('expiry')).toHaveLength(1);
    });

    it('writes off the unheld part of a lot at its expiry, and the rest once a released hold gives it back', async () => {
      const m = await newMember();
      const id = await creditExpiring(m.profileId, 100, NOW + DAY);
      const hold = await services.loyaltyLedger.write(shopId, m.profileId, (w) => w.hold('order-1', 30));
      clock.set(NOW + DAY);
      expect(await services.loyaltyUpkeep.sweep(shopId)).toMatchObject({ expired: 1, writtenOff: 70 });
      expect(await lot(id)).toEqual({ status: 'confirmed', remaining: 0 });

      // The order is cancelled after the expiry: the hold goes back to an expired lot.
      expect(await settleBonusHold(db, services.loyaltyLedger, shopId, hold.transactionId, 'released')).toBe(true);
      const view = await services.loyalty.viewMember(shopId, m.identifier);
      expect(view).toMatchObject({ balance: 0, pending: 0 });
      expect(await services.loyaltyUpkeep.sweep(shopId)).toMatchObject({ expired: 1, writtenOff: 30 });
      expect((await entriesOfKind('expiry')).map((e) => e.amount)).toEqual([-70, -30]);
      expect(await lot(id)).toEqual({ status: 'confirmed', remaining: 0 });
    });

    it('confirms a pending lot that also expired and writes it off in the same sweep', async () => {
      const m = await newMember();
      const id = await creditPending(m.profileId, 250, NOW + DAY, NOW + 2 * DAY);
      clock.set(NOW + 3 * DAY);
      expect(await services.loyaltyUpkeep.sweep(shopId)).toEqual({ confirmed: 1, expired: 1, writtenOff: 250 });
      expect(await lot(id)).toEqual({ status: 'confirmed', remaining: 0 });
      expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 0, pending: 0 });
    });

    it('leaves lots not yet due, lots that never expire and other shops alone', async () => {
      const m = await newMember();
      const later = await creditPending(m.profileId, 10, NOW + 10 * DAY);
      const forever = (await services.loyalty.creditManual(shopId, m.identifier, { amount: 20 })).transactionId;
      const otherShop = shopId;
      shopId = (await createShopFixture(services)).shopId;
      const other = await newMember();
      const due = await creditPending(other.profileId, 30, NOW + DAY);
      clock.set(NOW + 5 * DAY);
      await services.loyaltyUpkeep.sweep(otherShop);
      expect(await lot(due)).toEqual({ status: 'pending', remaining: 30 });
      shopId = otherShop;
      expect(await lot(later)).toEqual({ status: 'pending', remaining: 10 });
      expect(await lot(forever)).toEqual({ status: 'confirmed', remaining: 20 });
    });

    it('crosses read batches without missing or repeating a lot', async () => {
      const upkeep = new LoyaltyUpkeepService({ db, clock, jobs: services.jobs, ledger: services.loyaltyLedger, batchSize: 3 });
      const members = [await newMember(), await newMember(), await newMember(), await newMember()];
      const pending: number[] = [];
      const expiring: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const member = members[i % members.length]!;
        // Some lots share their due instant, so the keyset's tie on the id is crossed too.
        pending.push(await creditPending(member.profileId, 100 + i, NOW + (1 + (i % 3)) * HOUR_MS));
        expiring.push(await creditExpiring(member.profileId, 10 + i, NOW + (1 + (i % 2)) * HOUR_MS));
      }
      clock.set(NOW + DAY);
      expect(await upkeep.sweep(shopId)).toEqual({ confirmed: 10, expired: 10, writtenOff: 10 * 10 + 45 });
      for (const id of pending) expect((await lot(id)).status).toBe('confirmed');
      for (const id of expiring) expect(await lot(id)).toEqual({ status: 'confirmed', remaining: 0 });
      expect(await entriesOfKind('expiry')).toHaveLength(10);
    });

    it('confirms and writes off each lot once when two sweeps run at the same time', async () => {
      const members = await Promise.all(Array.from({ length: 12 }, () => newMember()));
      let expected = 0;
      for (const [i, m] of members.entries()) {
        await creditPending(m.profileId, 50, NOW + HOUR_MS);
        await creditExpiring(m.profileId, 40 + i, NOW + 2 * HOUR_MS);
        expected += 40 + i;
      }
      clock.set(NOW + 3 * HOUR_MS);
      const [a, b] = await Promise.all([services.loyaltyUpkeep.sweep(shopId), services.loyaltyUpkeep.sweep(shopId)]);
      expect(a.confirmed + b.confirmed).toBe(12);
      expect(a.expired + b.expired).toBe(12);
      expect(a.writtenOff + b.writtenOff).toBe(expected);
      const expiries = await entriesOfKind('expiry');
      expect(expiries).toHaveLength(12);
      expect(new Set(expiries.map((e) => e.profileId)).size).toBe(12);
      for (const m of members) {
        expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 50, pending: 0 });
      }
    });
  });

  describe('the chain of sweep jobs', () => {
    it('starts when a credit with an expiry is written, writes the lot off at its expiry through the runner, then ends', async () => {
      await services.loyalty.putSettings(shopId, { ...DEFAULT_SETTINGS, bonusLifetimeDays: 1 });
      const m = await newMember();
      await services.loyalty.creditManual(shopId, m.identifier, { amount: 300 });
      // A day off: the chain keeps to its hourly bound from the start.
      expect(await sweepJobs()).toEqual([{ status: 'queued', runAt: NOW + HOUR_MS }]);
      expect(await nextSweepAt()).toBe(NOW + HOUR_MS);

      for (let hour = 1; hour <= 24; hour += 1) {
        clock.set(NOW + hour * HOUR_MS);
        await runner.runDue();
      }
      const view = await services.loyalty.viewMember(shopId, m.identifier);
      expect(view.balance).toBe(0);
      expect(view.transactions[0]).toMatchObject({ kind: 'expiry', amount: -300, createdAt: NOW + DAY });
      const jobs = await sweepJobs();
      expect(jobs).toHaveLength(24);
      expect(jobs.every((j) => j.status === 'done')).toBe(true);
      expect(jobs.map((j) => j.runAt)).toEqual(Array.from({ length: 24 }, (_, i) => NOW + (i + 1) * HOUR_MS));
      // Nothing will be due: the chain ended.
      expect(await nextSweepAt()).toBeNull();
    });

    it('starts for a pending reward credited through the ledger by any service, at its confirms_at', async () => {
      const m = await newMember();
      await services.loyaltyLedger.write(shopId, m.profileId, (w) =>
        w.credit({
          amount: 70,
          status: 'pending',
          kind: 'event_reward',
          reason: null,
          orderId: null,
          expiresAt: null,
          confirmsAt: NOW + 30 * MINUTE_MS,
        }),
      );
      expect(await sweepJobs()).toEqual([{ status: 'queued', runAt: NOW + 30 * MINUTE_MS }]);
      clock.set(NOW + 30 * MINUTE_MS);
      await runner.runDue();
      expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 70, pending: 0 });
    });

    it('does not start for a credit that never expires', async () => {
      const m = await newMember();
      await services.loyalty.creditManual(shopId, m.identifier, { amount: 300 });
      expect(await sweepJobs()).toEqual([]);
    });

    it('schedules the next link at the earliest due instant, no sooner than a minute and no later than an hour', async () => {
      const m = await newMember();
      await creditPending(m.profileId, 10, NOW + 20 * MINUTE_MS);
      await creditExpiring(m.profileId, 10, NOW + 20 * MINUTE_MS + 10_000);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 20 * MINUTE_MS);
      expect(await sweepJobs()).toEqual([{ status: 'queued', runAt: NOW + 20 * MINUTE_MS }]);

      clock.set(NOW + 20 * MINUTE_MS);
      await runner.runDue();
      // The expiry is due in ten seconds: the next link waits the minute.
      expect((await sweepJobs()).at(-1)).toEqual({ status: 'queued', runAt: NOW + 21 * MINUTE_MS });
      clock.set(NOW + 21 * MINUTE_MS);
      await runner.runDue();
      expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 10, pending: 0 });
      expect(await nextSweepAt()).toBeNull();

      await creditPending(m.profileId, 10, NOW + 5 * HOUR_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 5 * HOUR_MS);
      expect(await nextSweepAt()).toBe(NOW + 21 * MINUTE_MS + HOUR_MS);
    });

    it('moves a later link earlier when a lot is due sooner, and the stale link does not fork the chain', async () => {
      const m = await newMember();
      await creditExpiring(m.profileId, 10, NOW + 50 * MINUTE_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 50 * MINUTE_MS);
      await creditPending(m.profileId, 20, NOW + 10 * MINUTE_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 10 * MINUTE_MS);
      // A later due leaves the earlier link as it is.
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 30 * MINUTE_MS);
      expect(await nextSweepAt()).toBe(NOW + 10 * MINUTE_MS);
      expect(await sweepJobs()).toEqual([
        { status: 'queued', runAt: NOW + 50 * MINUTE_MS },
        { status: 'queued', runAt: NOW + 10 * MINUTE_MS },
      ]);

      clock.set(NOW + 10 * MINUTE_MS);
      await runner.runDue();
      expect(await nextSweepAt()).toBe(NOW + 50 * MINUTE_MS);
      clock.set(NOW + 50 * MINUTE_MS);
      await runner.runDue();
      // The stale link became the successor (they share the instant, so the job), the lot
      // is written off once, and the chain ended.
      expect(await entriesOfKind('expiry')).toHaveLength(1);
      expect((await sweepJobs()).filter((j) => j.status === 'queued')).toEqual([]);
      expect(await nextSweepAt()).toBeNull();
    });

    it('lets a link that is no longer the next one sweep but schedule nothing', async () => {
      const m = await newMember();
      await creditPending(m.profileId, 10, NOW + 10 * MINUTE_MS);
      await creditPending(m.profileId, 20, NOW + 3 * HOUR_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 50 * MINUTE_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 10 * MINUTE_MS);
      clock.set(NOW + 10 * MINUTE_MS);
      await runner.runDue();
      expect(await nextSweepAt()).toBe(NOW + 70 * MINUTE_MS);

      clock.set(NOW + 50 * MINUTE_MS);
      await runner.runDue();
      expect(await sweepJobs()).toEqual([
        { status: 'done', runAt: NOW + 50 * MINUTE_MS },
        { status: 'done', runAt: NOW + 10 * MINUTE_MS },
        { status: 'queued', runAt: NOW + 70 * MINUTE_MS },
      ]);
      expect(await nextSweepAt()).toBe(NOW + 70 * MINUTE_MS);
    });

    it('makes one next link when one link is run twice at the same time', async () => {
      const m = await newMember();
      await creditPending(m.profileId, 10, NOW + 10 * MINUTE_MS);
      await creditPending(m.profileId, 10, NOW + 3 * HOUR_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 10 * MINUTE_MS);
      clock.set(NOW + 10 * MINUTE_MS);
      const payload = { shopId, at: NOW + 10 * MINUTE_MS };
      await Promise.all([services.loyaltyUpkeep.runLink(payload), services.loyaltyUpkeep.runLink(payload)]);
      // The link's own job is left queued here (the runs were direct); one link follows it.
      expect((await sweepJobs()).filter((j) => j.runAt > payload.at)).toEqual([{ status: 'queued', runAt: NOW + 70 * MINUTE_MS }]);
      expect(await nextSweepAt()).toBe(NOW + 70 * MINUTE_MS);
      expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 10, pending: 10 });
    });

    it('keeps going hourly while a hold is active, so a hold released into an expired lot is written off', async () => {
      const m = await newMember();
      await services.loyalty.creditManual(shopId, m.identifier, { amount: 100, expiresAt: NOW + 30 * MINUTE_MS });
      const hold = await services.loyaltyLedger.write(shopId, m.profileId, (w) => w.hold('order-7', 40));
      clock.set(NOW + 30 * MINUTE_MS);
      await runner.runDue();
      expect((await entriesOfKind('expiry')).map((e) => e.amount)).toEqual([-60]);
      expect(await nextSweepAt()).toBe(NOW + 90 * MINUTE_MS);

      clock.set(NOW + 60 * MINUTE_MS);
      await settleBonusHold(db, services.loyaltyLedger, shopId, hold.transactionId, 'released');
      clock.set(NOW + 90 * MINUTE_MS);
      await runner.runDue();
      expect((await entriesOfKind('expiry')).map((e) => e.amount)).toEqual([-60, -40]);
      expect(await nextSweepAt()).toBeNull();
    });

    it('finishes the work of a link whose worker died, once its lease runs out', async () => {
      const m = await newMember();
      const id = await creditPending(m.profileId, 10, NOW + MINUTE_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + MINUTE_MS);
      clock.set(NOW + MINUTE_MS);
      // A worker claims the link and dies before sweeping.
      const claimed = await services.jobs.claim({ workerId: 'dead-worker', names: ['loyalty.sweep'], limit: 10, leaseMs: 10_000 });
      expect(claimed.map((j) => j.payloadJson)).toContain(JSON.stringify({ shopId, at: NOW + MINUTE_MS }));
      await runner.runDue();
      expect((await lot(id)).status).toBe('pending');

      clock.advance(10_000);
      await runner.runDue();
      expect((await lot(id)).status).toBe('confirmed');
      const jobs = await sweepJobs();
      expect(jobs[0]).toEqual({ status: 'done', runAt: NOW + MINUTE_MS });
      expect(await nextSweepAt()).toBeNull();
    });

    it('replaces a link that failed for good by one that runs at once, on the next credit', async () => {
      const m = await newMember();
      const first = await creditPending(m.profileId, 10, NOW + MINUTE_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + MINUTE_MS);
      clock.set(NOW + MINUTE_MS);
      const claimed = await services.jobs.claim({ workerId: 'w', names: ['loyalty.sweep'], limit: 100, leaseMs: 10_000 });
      const link = claimed.find((j) => j.payloadJson === JSON.stringify({ shopId, at: NOW + MINUTE_MS }));
      await services.jobs.fail({ id: link!.id, attempts: link!.attempts, workerId: 'w' }, 'database gone');
      expect(await nextSweepAt()).toBe(NOW + MINUTE_MS);

      clock.set(NOW + 2 * MINUTE_MS);
      await creditPending(m.profileId, 10, NOW + 3 * HOUR_MS);
      await services.loyaltyUpkeep.ensureScheduled(shopId, NOW + 3 * HOUR_MS);
      expect(await nextSweepAt()).toBe(NOW + 2 * MINUTE_MS);
      await runner.runDue();
      expect((await lot(first)).status).toBe('confirmed');
      expect(await nextSweepAt()).toBe(NOW + 62 * MINUTE_MS);
    });

    it('resumes chains at process start for shops with due lots and no chain, and on a settings PUT', async () => {
      const m = await newMember();
      await creditPending(m.profileId, 10, NOW - MINUTE_MS);
      expect(await sweepJobs()).toEqual([]);
      expect(await services.loyaltyUpkeep.resumeChains()).toBeGreaterThanOrEqual(1);
      expect(await sweepJobs()).toEqual([{ status: 'queued', runAt: NOW }]);
      await runner.runDue();
      expect(await services.loyalty.viewMember(shopId, m.identifier)).toMatchObject({ balance: 10, pending: 0 });

      await creditExpiring(m.profileId, 5, NOW + 2 * HOUR_MS);
      expect(await nextSweepAt()).toBeNull();
      await services.loyalty.putSettings(shopId, DEFAULT_SETTINGS);
      expect(await nextSweepAt()).toBe(NOW + HOUR_MS);
    });
  });
});
