import { describe, expect, it } from 'vitest';
import type { MemberCursor } from '../../../src/modules/loyalty/domain/member-list.js';
import type { MemberListQuery } from '../../../src/modules/loyalty/loyalty-reports.service.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { useServiceBed } from '../../helpers/service-bed.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const DAY = 86_400_000;

describe.each(TEST_DIALECTS)('loyalty reports on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const { clock } = bed;
  let phoneSeq = 0;

  async function join(input: { phone?: string; loyaltyId?: string } = {}) {
    if (input.phone === undefined && input.loyaltyId === undefined) {
      phoneSeq += 1;
      return bed.services.loyalty.joinMember(bed.shopId, { phone: `7902${String(phoneSeq).padStart(7, '0')}` });
    }
    return bed.services.loyalty.joinMember(bed.shopId, input);
  }

  async function credit(profileId: number, amount: number, lot: { expiresAt?: number | null; pendingUntil?: number } = {}) {
    const posted = await bed.services.loyaltyLedger.write(bed.shopId, profileId, (w) =>
      w.credit({
        amount,
        status: lot.pendingUntil === undefined ? 'confirmed' : 'pending',
        kind: lot.pendingUntil === undefined ? 'manual' : 'order_reward',
        reason: null,
        orderId: null,
        expiresAt: lot.expiresAt ?? null,
        confirmsAt: lot.pendingUntil ?? null,
      }),
    );
    return posted.transactionId;
  }

  describe('liabilities', () => {
    it('sums outstanding, pending and expiring bonuses as computed by hand, at the clock now', async () => {
      const a = await join();
      const b = await join();
      await join();
      await credit(a.profileId, 1000);
      await credit(a.profileId, 300, { expiresAt: NOW + 11 * DAY });
      await credit(a.profileId, 200, { expiresAt: NOW + 31 * DAY });
      await credit(a.profileId, 150, { expiresAt: NOW + 31 * DAY + 1 });
      await credit(a.profileId, 80, { expiresAt: NOW + DAY / 2 });
      await credit(b.profileId, 400, { pendingUntil: NOW + 5 * DAY });
      await credit(b.profileId, 500, { expiresAt: NOW + 20 * DAY });
      // Another shop's bonuses count in its own figures only.
      const own = bed.shopId;
      bed.shopId = (await createShopFixture(bed.services)).shopId;
      await credit((await join()).profileId, 9999, { expiresAt: NOW + 2 * DAY });
      bed.shopId = own;

      clock.set(NOW + DAY);
      // The 80 expired (not yet swept); the debit and the hold draw from the 300 expiring first.
      await bed.services.loyalty.debitManual(bed.shopId, a.identifier, { amount: 50, reason: 'fix' });
      await bed.services.loyaltyLedger.write(bed.shopId, a.profileId, (w) => w.hold('order-1', 100));
      await bed.services.loyalty.debitManual(bed.shopId, b.identifier, { amount: 120, reason: 'fraud', kind: 'write_off' });

      // outstanding: a 1000 + 150 + 200 + 150, b 380; expiring by NOW + 31 days: a 150 + 200, b 380.
      const expected = { outstanding: 1880, pending: 400, expiring: 730, members: 3 };
      expect(await bed.services.loyaltyReports.liabilities(bed.shopId)).toEqual(expected);
      const balances = await Promise.all([a, b].map((m) => bed.services.loyalty.viewMember(bed.shopId, m.identifier)));
      expect(balances.reduce((sum, v) => sum + v.balance, 0)).toBe(expected.outstanding);

      // The sweep writes off what expired: the figures, which never counted it, stay.
      await bed.services.loyaltyUpkeep.sweep(bed.shopId);
      expect(await bed.services.loyaltyReports.liabilities(bed.shopId)).toEqual(expected);

      // A day later the 200 and the 150 (at 31 days and a millisecond) are within the window.
      clock.set(NOW + 2 * DAY);
      expect(await bed.services.loyaltyReports.liabilities(bed.shopId)).toMatchObject({ outstanding: 1880, expiring: 880 });
      clock.set(NOW + 5 * DAY);
      await bed.services.loyaltyUpkeep.sweep(bed.shopId);
      expect(await bed.services.loyaltyReports.liabilities(bed.shopId)).toEqual({
        outstanding: 2280,
        pending: 0,
        expiring: 880,
        members: 3,
      });
    });

    it('answers zeros for a shop without a programme, and refuses an unknown shop', async () => {
      expect(await bed.services.loyaltyReports.liabilities(bed.shopId)).toEqual({ outstanding: 0, pending: 0, expiring: 0, members: 0 });
      await expect(bed.services.loyaltyReports.liabilities('abcdef0123456789abcdef01234567')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('the member list', () => {
    const page = (query: Partial<MemberListQuery> = {}) =>
      bed.services.loyaltyReports.listMembers(bed.shopId, { limit: 100, cursor: null, ...query });
    const identifiers = async (query: Partial<MemberListQuery> = {}) => (await page(query)).items.map((m) => m.identifier);

    it('lists members newest first with balances, pending bonuses and join times', async () => {
      const first = await join({ phone: '79030000001' });
      await credit(first.profileId, 700);
      await credit(first.profileId, 50, { expiresAt: NOW + DAY });
      clock.set(NOW + 1000);
      const second = await join({ loyaltyId: 'CARD-1' });
      await credit(second.profileId, 30, { pendingUntil: NOW + DAY });
      clock.set(NOW + DAY);
      expect(await page()).toEqual({
        items: [
          { identifier: 'CARD-1', balance: 0, pending: 30, joinedAt: NOW + 1000 },
          // The lot expired at this instant no longer counts.
          { identifier: '79030000001', balance: 700, pending: 0, joinedAt: NOW },
        ],
        next: null,
      });
    });

    it('filters by phone or loyalty_id prefix, balance, join time and pending bonuses', async () => {
      const rich = await join({ phone: '79040000001', loyaltyId: 'VIP-1' });
      await credit(rich.profileId, 10_000);
      clock.set(NOW + DAY);
      const middle = await join({ phone: '79050000002' });
      await credit(middle.profileId, 2_500);
      await credit(middle.profileId, 100, { pendingUntil: NOW + 9 * DAY });
      clock.set(NOW + 2 * DAY);
      const card = await join({ loyaltyId: 'vip-2' });
      await credit(card.profileId, 2_499);
      clock.set(NOW + 3 * DAY);
      await join({ phone: '79040000004' });

      expect(await identifiers({ q: '7904' })).toEqual(['79040000004', '79040000001']);
      expect(await identifiers({ q: '+7 (904) 000-00-01' })).toEqual(['79040000001']);
      // A loyalty_id prefix answers the member under its public identifier; the case counts.
      expect(await identifiers({ q: 'VIP' })).toEqual(['79040000001']);
      expect(await identifiers({ q: 'vip' })).toEqual(['vip-2']);
      expect(await identifiers({ q: '%' })).toEqual([]);
      expect(await identifiers({ minBalance: 2_500 })).toEqual(['79050000002', '79040000001']);
      expect(await identifiers({ minBalance: 2_499, maxBalance: 2_500 })).toEqual(['vip-2', '79050000002']);
      expect(await identifiers({ maxBalance: 0 })).toEqual(['79040000004']);
      expect(await identifiers({ joinedFrom: NOW + DAY, joinedTo: NOW + 2 * DAY })).toEqual(['vip-2', '79050000002']);
      expect(await identifiers({ hasPending: true })).toEqual(['79050000002']);
      expect(await identifiers({ hasPending: false })).toEqual(['79040000004', 'vip-2', '79040000001']);
      expect(await identifiers({ q: '790', hasPending: false, minBalance: 1 })).toEqual(['79040000001']);
    });

    it('keeps other shops out', async () => {
      await join({ phone: '79060000001' });
      const own = bed.shopId;
      bed.shopId = (await createShopFixture(bed.services)).shopId;
      await join({ phone: '79060000002' });
      bed.shopId = own;
      expect(await identifiers()).toEqual(['79060000001']);
    });

    it('pages with a cursor without gaps or repeats while members keep joining', async () => {
      const existing: string[] = [];
      for (let i = 0; i < 23; i += 1) {
        // Three members join in each millisecond: the order's tie is broken by the profile id.
        clock.set(NOW + Math.floor(i / 3));
        existing.push((await join()).identifier);
      }
      const seen: string[] = [];
      let cursor: MemberCursor | null = null;
      let pages = 0;
      do {
        const result = await page({ limit: 5, cursor });
        seen.push(...result.items.map((m) => m.identifier));
        cursor = result.next;
        pages += 1;
        // Newcomers between pages join after everyone listed so far: they come before the first page.
        clock.advance(1000);
        await join();
      } while (cursor !== null);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(23);
      expect(new Set(seen).size).toBe(23);
      expect([...seen].sort()).toEqual([...existing].sort());
    });

    it('answers no next cursor when the last page is exactly full', async () => {
      for (let i = 0; i < 4; i += 1) await join();
      const first = await page({ limit: 2 });
      expect(first.next).not.toBeNull();
      const second = await page({ limit: 2, cursor: first.next });
      expect(second.items).toHaveLength(2);
      expect(second.next).toBeNull();
    });
  });

  describe("a member's transactions", () => {
    it('pages newest first with next_before, without gaps, and only the member own', async () => {
      const m = await join();
      const other = await join();
      const ids: number[] = [];
      for (let i = 1; i <= 12; i += 1) {
        ids.push(await credit(m.profileId, i));
        await credit(other.profileId, i);
      }
      const seen: number[] = [];
      let before: number | null = null;
      for (;;) {
        const result = await bed.services.loyaltyReports.listTransactions(bed.shopId, m.identifier, { limit: 5, before });
        seen.push(...result.items.map((t) => t.id));
        expect(result.items.every((t) => t.kind === 'manual')).toBe(true);
        if (result.nextBefore === null) break;
        before = result.nextBefore;
      }
      expect(seen).toEqual([...ids].reverse());
      const last = await bed.services.loyaltyReports.listTransactions(bed.shopId, m.identifier, { limit: 5, before: ids[2]! });
      expect(last).toEqual({
        items: [expect.objectContaining({ id: ids[1], amount: 2 }), expect.objectContaining({ id: ids[0], amount: 1 })],
        nextBefore: null,
      });
    });

    it('refuses an identifier that is not a member', async () => {
      await expect(bed.services.loyaltyReports.listTransactions(bed.shopId, 'nobody', { limit: 5, before: null })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });
});
