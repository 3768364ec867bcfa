import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { JobMap } from '../../../src/jobs/job-map.js';
import { DAY_MS, type Ladder } from '../../../src/modules/loyalty/domain/levels.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { useServiceBed } from '../../helpers/service-bed.js';
import { push } from '../tracking/tracking-fixture.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const LADDER: Ladder = {
  windowDays: 30,
  levels: [
    { code: 'silver', name: 'Silver', minTotal: 1_000_00, rewardPercent: 300 },
    { code: 'gold', name: 'Gold', minTotal: 5_000_00, rewardPercent: 750 },
  ],
};

describe.each(TEST_DIALECTS)('loyalty levels on %s', (dialect) => {
  const bed = useServiceBed(dialect, { now: NOW });
  const { clock } = bed;
  let phoneSeq = 0;
  let orderSeq = 0;

  const levels = () => bed.services.loyaltyLevels;
  const runner = () =>
    createJobRunner({ config: loadConfig({ LOG_LEVEL: 'silent' }), services: bed.services, clock, log: createLogger('silent') });

  async function newMember(): Promise<number> {
    phoneSeq += 1;
    return (await bed.services.loyalty.joinMember(bed.shopId, { phone: `7901${String(phoneSeq).padStart(7, '0')}` })).profileId;
  }
  const nextOrder = () => `order-${(orderSeq += 1)}`;
  const buy = (profileId: number, amount: number, at = clock.now(), orderId = nextOrder()) =>
    levels().recordPurchase(bed.shopId, profileId, orderId, amount, at);

  async function storedLevel(profileId: number): Promise<{ code: string | null; expiresAt: number | null }> {
    const row = await bed.db.db
      .selectFrom('loyalty_members')
      .select(['level_code', 'level_expires_at'])
      .where('shop_id', '=', bed.shopId)
      .where('profile_id', '=', profileId)
      .executeTakeFirstOrThrow();
    return { code: row.level_code, expiresAt: row.level_expires_at === null ? null : Number(row.level_expires_at) };
  }

  /** The live link of the shop's chain: the ladder's due instant, with its job queued (superseded links may linger, and do nothing). */
  async function chainLink(): Promise<number | null> {
    const ladder = await bed.db.db
      .selectFrom('loyalty_level_ladders')
      .select('next_run_at')
      .where('shop_id', '=', bed.shopId)
      .executeTakeFirst();
    const at = ladder?.next_run_at == null ? null : Number(ladder.next_run_at);
    if (at === null) return null;
    const rows = await bed.db.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'loyalty.levels')
      .where('status', '=', 'queued')
      .execute();
    const queued = rows.map((r) => JSON.parse(r.payload) as JobMap['loyalty.levels']);
    expect(queued).toContainEqual({ shopId: bed.shopId, at });
    return at;
  }

  it('answers no levels over a year before the first PUT, and the ladder as stored after it', async () => {
    expect(await levels().getLadder(bed.shopId)).toEqual({ windowDays: 365, levels: [] });
    expect(await levels().putLadder(bed.shopId, LADDER)).toEqual(LADDER);
    expect(await levels().getLadder(bed.shopId)).toEqual(LADDER);
  });

  it("counts a member's purchases toward its level, an order once however often it is reported", async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const member = await newMember();
    expect(await levels().levelOf(bed.shopId, member)).toBeNull();
    expect(await buy(member, 999_99, NOW, 'A-1')).toBe(true);
    expect(await levels().levelOf(bed.shopId, member)).toBeNull();
    expect(await buy(member, 999_99, NOW, 'A-1')).toBe(true);
    expect(await levels().levelOf(bed.shopId, member)).toBeNull();
    await buy(member, 1);
    expect(await levels().levelOf(bed.shopId, member)).toEqual({
      code: 'silver',
      name: 'Silver',
      rewardPercent: 300,
      expiresAt: NOW + 30 * DAY_MS,
    });
    await buy(member, 4_000_00);
    expect((await levels().levelOf(bed.shopId, member))?.code).toBe('gold');
    expect(await storedLevel(member)).toEqual({ code: 'gold', expiresAt: NOW + 30 * DAY_MS });
  });

  it('records nothing for a profile that is not a member', async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const { profileId } = await bed.services.identity.resolveProfile(bed.shopId, { email: `stranger${phoneSeq}@example.org` });
    expect(await buy(profileId, 10_000_00, NOW, 'S-1')).toBe(false);
    const rows = await bed.db.db.selectFrom('loyalty_purchases').selectAll().where('shop_id', '=', bed.shopId).execute();
    expect(rows).toEqual([]);
  });

  it('drops the level when the purchase is cancelled; a second cancel, or one of an unknown order, changes nothing', async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const member = await newMember();
    await buy(member, 3_000_00, NOW, 'C-1');
    await buy(member, 2_000_00, NOW, 'C-2');
    expect((await levels().levelOf(bed.shopId, member))?.code).toBe('gold');
    expect(await levels().cancelPurchase(bed.shopId, 'C-2')).toBe(true);
    expect((await levels().levelOf(bed.shopId, member))?.code).toBe('silver');
    expect(await levels().cancelPurchase(bed.shopId, 'C-2')).toBe(false);
    expect(await levels().cancelPurchase(bed.shopId, 'no-such-order')).toBe(false);
    // A cancelled order reported again stays cancelled.
    await buy(member, 2_000_00, NOW, 'C-2');
    expect((await levels().levelOf(bed.shopId, member))?.code).toBe('silver');
  });

  it('holds a level until the purchase leaves the window, to the millisecond', async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const member = await newMember();
    await buy(member, 1_000_00, NOW - 10 * DAY_MS);
    const end = NOW + 20 * DAY_MS;
    expect((await levels().levelOf(bed.shopId, member))?.expiresAt).toBe(end);
    clock.set(end - 1);
    expect((await levels().levelOf(bed.shopId, member))?.code).toBe('silver');
    clock.set(end);
    expect(await levels().levelOf(bed.shopId, member)).toBeNull();
    expect(await storedLevel(member)).toEqual({ code: null, expiresAt: null });
    // A purchase older than the window when reported never counts.
    await buy(member, 1_000_00, end - 30 * DAY_MS);
    expect(await levels().levelOf(bed.shopId, member)).toBeNull();
    await buy(member, 1_000_00, end - 30 * DAY_MS + 1);
    expect((await levels().levelOf(bed.shopId, member))?.expiresAt).toBe(end + 1);
  });

  it('recomputes every member when the ladder is PUT, through the link it enqueues, and reads are exact before it runs', async () => {
    const members = [await newMember(), await newMember(), await newMember()];
    await buy(members[0]!, 500_00);
    await buy(members[1]!, 1_500_00);
    await buy(members[2]!, 6_000_00);
    expect(await storedLevel(members[2]!)).toEqual({ code: null, expiresAt: null });
    await levels().putLadder(bed.shopId, LADDER);
    expect(await chainLink()).toBe(NOW);
    // Read before the job: exact.
    expect((await levels().levelOf(bed.shopId, members[1]!))?.code).toBe('silver');
    expect(await runner().runDue()).toBeGreaterThanOrEqual(1);
    expect(await storedLevel(members[0]!)).toEqual({ code: null, expiresAt: null });
    expect(await storedLevel(members[1]!)).toEqual({ code: 'silver', expiresAt: NOW + 30 * DAY_MS });
    expect(await storedLevel(members[2]!)).toEqual({ code: 'gold', expiresAt: NOW + 30 * DAY_MS });
    // The chain goes on a day later.
    expect(await chainLink()).toBe(NOW + DAY_MS);
    // A new ladder moves everyone.
    clock.advance(1);
    await levels().putLadder(bed.shopId, {
      windowDays: 30,
      levels: [{ code: 'vip', name: 'VIP', minTotal: 1_000_00, rewardPercent: 1000 }],
    });
    await runner().runDue();
    expect(await storedLevel(members[2]!)).toEqual({ code: 'vip', expiresAt: NOW + 30 * DAY_MS });
  });

  it('has the daily link recompute members whose level expired, and a superseded link do nothing', async () => {
    await levels().putLadder(bed.shopId, LADDER);
    await runner().runDue();
    const early = await newMember();
    const late = await newMember();
    await buy(early, 1_000_00, NOW - 29 * DAY_MS - 1);
    await buy(late, 1_000_00, NOW);
    expect((await storedLevel(early)).code).toBe('silver');
    clock.set(NOW + DAY_MS);
    // Not read since: the stored level is stale until the link runs.
    expect((await storedLevel(early)).code).toBe('silver');
    expect(await runner().runDue()).toBeGreaterThanOrEqual(1);
    expect(await storedLevel(early)).toEqual({ code: null, expiresAt: null });
    expect(await storedLevel(late)).toEqual({ code: 'silver', expiresAt: NOW + 30 * DAY_MS });
    expect(await chainLink()).toBe(NOW + 2 * DAY_MS);
    // A redelivered link, or one a newer PUT replaced, leaves the chain as it is.
    await levels().runLevelsJob({ shopId: bed.shopId, at: NOW + DAY_MS });
    await levels().runLevelsJob({ shopId: bed.shopId, at: NOW });
    expect(await chainLink()).toBe(NOW + 2 * DAY_MS);
  });

  it('stops the chain when the ladder is emptied, and every member loses its level', async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const member = await newMember();
    await buy(member, 1_000_00);
    await runner().runDue();
    clock.advance(1);
    await levels().putLadder(bed.shopId, { windowDays: 30, levels: [] });
    expect(await levels().levelOf(bed.shopId, member)).toBeNull();
    await runner().runDue();
    expect(await chainLink()).toBeNull();
    expect(await storedLevel(member)).toEqual({ code: null, expiresAt: null });
  });

  it("answers the level's reward percent for the checkout, else the programme's", async () => {
    await bed.services.loyalty.putSettings(bed.shopId, { ...(await bed.services.loyalty.getSettings(bed.shopId)), rewardPercent: 150 });
    await levels().putLadder(bed.shopId, LADDER);
    const member = await newMember();
    expect(await levels().rewardPercentOf(bed.shopId, member)).toBe(150);
    await buy(member, 5_000_00);
    expect(await levels().rewardPercentOf(bed.shopId, member)).toBe(750);
  });

  it('counts the purchases of a merged profile for the surviving member', async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const survivor = await bed.services.loyalty.joinMember(bed.shopId, { phone: '79020000001' });
    const merged = await bed.services.loyalty.joinMember(bed.shopId, { loyaltyId: 'merge-card-1' });
    await buy(survivor.profileId, 600_00);
    await buy(merged.profileId, 600_00);
    expect(await levels().levelOf(bed.shopId, survivor.profileId)).toBeNull();
    // One customer named by both identifiers: identity merges the card's profile into the phone's.
    const resolved = await bed.services.identity.resolveProfile(bed.shopId, { phone: '79020000001', loyaltyId: 'merge-card-1' });
    expect([survivor.profileId, merged.profileId]).toContain(resolved.profileId);
    expect((await levels().levelOf(bed.shopId, resolved.profileId))?.code).toBe('silver');
  });

  it("counts a member's tracked purchase once even when delivered twice, and no one else's", async () => {
    await levels().putLadder(bed.shopId, LADDER);
    const { did, profileId } = await bed.services.identity.createDevice(bed.shopId);
    await bed.services.identity.resolveProfile(bed.shopId, { did, phone: '79030000001' });
    const member = await bed.services.loyalty.joinMember(bed.shopId, { phone: '79030000001' });
    const stranger = await bed.services.identity.createDevice(bed.shopId);
    await bed.db.db.deleteFrom('jobs').where('name', '=', 'tracking.deliver').execute();
    const items = [{ id: 'p1', amount: 2, price: 600.5 }];
    const event = await bed.services.tracking.recordPush(push(bed.shopId, did, 'purchase', { items, purchase: { orderId: 'T-1' } }));
    await bed.services.tracking.recordPush(
      push(bed.shopId, stranger.did, 'purchase', { items, purchase: { orderId: 'T-2', orderPrice: 5000 } }),
    );
    await bed.services.tracking.recordPush(push(bed.shopId, did, 'purchase', { items }));
    const deliveries = (await bed.db.db.selectFrom('jobs').select('payload').where('name', '=', 'tracking.deliver').execute())
      .map((r) => JSON.parse(r.payload) as JobMap['tracking.deliver'])
      .filter((d) => d.subscriber === 'loyalty.purchases');
    // No job for the purchase without an order id.
    expect(deliveries).toHaveLength(2);
    await runner().runDue();
    await bed.services.tracking.deliver(deliveries.find((d) => d.eventId === event.id)!);
    const rows = await bed.db.db
      .selectFrom('loyalty_purchases')
      .select(['order_id', 'profile_id', 'amount', 'purchased_at'])
      .where('shop_id', '=', bed.shopId)
      .execute();
    expect(
      rows.map((r) => ({ ...r, profile_id: Number(r.profile_id), amount: Number(r.amount), purchased_at: Number(r.purchased_at) })),
    ).toEqual([{ order_id: 'T-1', profile_id: member.profileId, amount: 1_201_00, purchased_at: event.time }]);
    expect(member.profileId).toBe(profileId);
    expect((await levels().levelOf(bed.shopId, member.profileId))?.code).toBe('silver');
  });
});
