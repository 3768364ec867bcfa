import { describe, expect, it } from 'vitest';
import { EMPTY_SLOTS, type IdentifierSlots } from '../../../src/modules/identity/domain/identifiers.js';
import {
  combineProperties,
  isNoopPlan,
  planResolution,
  type ProfileSnapshot,
} from '../../../src/modules/identity/domain/plan-resolution.js';

/** A profile snapshot: id, creation time, identifiers. */
function profile(id: number, createdAt: number, slots: Partial<IdentifierSlots> = {}): ProfileSnapshot {
  return { id, createdAt, identifiers: { ...EMPTY_SLOTS, ...slots } };
}

describe('planResolution: the anchor', () => {
  it('uses the profile holding the event identifier (identifier_match) and stores nothing new', () => {
    const plan = planResolution({ identifiers: { email: 'a@x.ru' }, profiles: [profile(1, 10, { email: 'a@x.ru' })] });
    expect(plan).toMatchObject({ anchorSituation: 'identifier_match', target: { kind: 'existing', profileId: 1 } });
    expect(plan.merges).toEqual([]);
    expect(isNoopPlan(plan)).toBe(true);
  });

  it('anchors on the highest-priority identifier when the matched profiles conflict', () => {
    // external_id outranks email, so the email's profile is the one kept apart.
    const byExternal = profile(1, 20, { externalId: 'E1', phone: '79990000001' });
    const byEmail = profile(2, 10, { email: 'b@x.ru', phone: '79990000002' });
    const plan = planResolution({
      identifiers: { email: 'b@x.ru', externalId: 'E1' },
      profiles: [byEmail, byExternal],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 1 });
    expect(plan.merges).toEqual([]);
    expect(plan.ignored).toEqual([{ kind: 'email', value: 'b@x.ru', reason: 'held_by_other_profile', profileId: 2 }]);
  });

  it("gives the event identifiers to the device's profile when it fits (device_profile_fits)", () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru' },
      did: 'dev0000001',
      deviceProfileId: 5,
      profiles: [profile(5, 10)],
    });
    expect(plan).toMatchObject({
      anchorSituation: 'device_profile_fits',
      target: { kind: 'existing', profileId: 5 },
      attach: { email: 'a@x.ru' },
      device: { kind: 'none' },
    });
  });

  it('creates a profile and moves the device when its profile holds another email (device_profile_conflicts)', () => {
    const plan = planResolution({
      identifiers: { email: 'b@x.ru' },
      did: 'dev0000001',
      deviceProfileId: 5,
      profiles: [profile(5, 10, { email: 'a@x.ru' })],
    });
    expect(plan).toMatchObject({
      anchorSituation: 'device_profile_conflicts',
      target: { kind: 'create' },
      attach: { email: 'b@x.ru' },
      merges: [],
      device: { kind: 'relink', did: 'dev0000001', fromProfileId: 5, reason: 'device_relinked' },
    });
  });

  it('creates a profile when nothing matches (no_match)', () => {
    const plan = planResolution({ identifiers: { phone: '79123456789', loyaltyId: 'L1' }, profiles: [] });
    expect(plan).toMatchObject({
      anchorSituation: 'no_match',
      target: { kind: 'create' },
      attach: { phone: '79123456789', loyaltyId: 'L1' },
      device: { kind: 'none' },
    });
  });
});

describe('planResolution: profiles meeting the anchor', () => {
  it('merges a profile holding another event identifier into the older one (identifier_fits)', () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru', phone: '79990000001' },
      profiles: [profile(1, 10, { email: 'a@x.ru' }), profile(2, 20, { phone: '79990000001' })],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 1 });
    expect(plan.merges).toEqual([{ fromProfileId: 2, intoProfileId: 1, reason: 'shared_phone' }]);
    expect(plan.attach).toEqual({ phone: '79990000001' });
  });

  it('merges the younger anchor into an older profile, which takes the anchor identifiers', () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru', phone: '79990000001' },
      profiles: [profile(1, 30, { email: 'a@x.ru' }), profile(2, 20, { phone: '79990000001' })],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 2 });
    expect(plan.merges).toEqual([{ fromProfileId: 1, intoProfileId: 2, reason: 'shared_phone' }]);
    expect(plan.attach).toEqual({ email: 'a@x.ru' });
  });

  it('never merges two profiles with different phones (identifier_conflicts)', () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru', phone: '79990000002' },
      profiles: [profile(1, 10, { email: 'a@x.ru', phone: '79990000001' }), profile(2, 20, { phone: '79990000002' })],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 1 });
    expect(plan.merges).toEqual([]);
    expect(plan.attach).toEqual({});
    expect(plan.ignored).toEqual([{ kind: 'phone', value: '79990000002', reason: 'held_by_other_profile', profileId: 2 }]);
  });

  it("merges the device's anonymous profile into the older identified one (device_fits)", () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru' },
      did: 'dev0000002',
      deviceProfileId: 2,
      profiles: [profile(1, 10, { email: 'a@x.ru' }), profile(2, 20)],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 1 });
    expect(plan.merges).toEqual([{ fromProfileId: 2, intoProfileId: 1, reason: 'device_identified' }]);
    expect(plan.device).toEqual({ kind: 'none' });
  });

  it("merges into the device's profile when it is the older one", () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru' },
      did: 'dev0000002',
      deviceProfileId: 2,
      profiles: [profile(1, 30, { email: 'a@x.ru' }), profile(2, 20, { phone: '79990000001' })],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 2 });
    expect(plan.merges).toEqual([{ fromProfileId: 1, intoProfileId: 2, reason: 'device_identified' }]);
    expect(plan.attach).toEqual({ email: 'a@x.ru' });
  });

  it("never merges the device's profile when it holds a different email, and moves the device (device_conflicts)", () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru' },
      did: 'dev0000002',
      deviceProfileId: 2,
      profiles: [profile(1, 10, { email: 'a@x.ru' }), profile(2, 5, { email: 'b@x.ru' })],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 1 });
    expect(plan.merges).toEqual([]);
    expect(plan.device).toEqual({ kind: 'relink', did: 'dev0000002', fromProfileId: 2, reason: 'device_relinked' });
  });
});

describe('planResolution: event identifiers', () => {
  it('attaches a free identifier to an empty slot (free_slot_empty)', () => {
    const plan = planResolution({
      identifiers: { externalId: 'E1', telegramId: 'tg1' },
      profiles: [profile(1, 10, { externalId: 'E1' })],
    });
    expect(plan.attach).toEqual({ telegramId: 'tg1' });
  });

  it("keeps the anchor's value when a free identifier differs (free_slot_differs)", () => {
    const plan = planResolution({
      identifiers: { externalId: 'E1', email: 'new@x.ru' },
      profiles: [profile(1, 10, { externalId: 'E1', email: 'old@x.ru' })],
    });
    expect(plan.attach).toEqual({});
    expect(plan.ignored).toEqual([{ kind: 'email', value: 'new@x.ru', reason: 'conflicts_with_profile', profileId: 1 }]);
    expect(isNoopPlan(plan)).toBe(true);
  });

  it('lets the survivor hold an identifier of a profile that joins (held_by_group)', () => {
    const plan = planResolution({
      identifiers: { loyaltyId: 'L1', phone: '79990000001' },
      profiles: [profile(1, 10, { loyaltyId: 'L1' }), profile(2, 20, { phone: '79990000001', email: 'c@x.ru' })],
    });
    expect(plan.attach).toEqual({ phone: '79990000001', email: 'c@x.ru' });
    expect(plan.ignored).toEqual([]);
  });

  it('counts free event identifiers before a profile meets the group, so a conflicting one stays apart', () => {
    // The event says E1's email is b; the phone's profile says c: they are not merged.
    const plan = planResolution({
      identifiers: { externalId: 'E1', email: 'b@x.ru', phone: '79990000001' },
      profiles: [profile(1, 10, { externalId: 'E1' }), profile(2, 20, { phone: '79990000001', email: 'c@x.ru' })],
    });
    expect(plan.merges).toEqual([]);
    expect(plan.attach).toEqual({ email: 'b@x.ru' });
    expect(plan.ignored).toEqual([{ kind: 'phone', value: '79990000001', reason: 'held_by_other_profile', profileId: 2 }]);
  });
});

describe('planResolution: the device', () => {
  it('does nothing for an event without a did (no_device)', () => {
    expect(planResolution({ identifiers: { email: 'a@x.ru' }, profiles: [] }).device).toEqual({ kind: 'none' });
  });

  it('creates an unknown device on the survivor (unknown_device)', () => {
    const plan = planResolution({
      identifiers: { email: 'a@x.ru' },
      did: 'dev0000009',
      profiles: [profile(1, 10, { email: 'a@x.ru' })],
    });
    expect(plan.device).toEqual({ kind: 'create', did: 'dev0000009' });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 1 });
  });

  it('creates an anonymous profile for an unknown device alone', () => {
    const plan = planResolution({ identifiers: {}, did: 'dev0000009', profiles: [] });
    expect(plan).toMatchObject({ target: { kind: 'create' }, attach: {}, device: { kind: 'create', did: 'dev0000009' } });
  });

  it('leaves a known device alone when it is all the event carries (device_profile_joins)', () => {
    const plan = planResolution({ identifiers: {}, did: 'dev0000001', deviceProfileId: 3, profiles: [profile(3, 1)] });
    expect(isNoopPlan(plan)).toBe(true);
    expect(plan.target).toEqual({ kind: 'existing', profileId: 3 });
  });

  it('moves the device when its profile holds an event identifier but is kept apart (device_profile_apart)', () => {
    const plan = planResolution({
      identifiers: { externalId: 'E1', phone: '79990000002' },
      did: 'dev0000002',
      deviceProfileId: 2,
      profiles: [profile(1, 10, { externalId: 'E1', phone: '79990000001' }), profile(2, 20, { phone: '79990000002' })],
    });
    expect(plan.merges).toEqual([]);
    expect(plan.device).toEqual({ kind: 'relink', did: 'dev0000002', fromProfileId: 2, reason: 'device_relinked' });
  });
});

describe('planResolution: the survivor', () => {
  it('merges a whole group into its oldest member, breaking a creation-time tie by the smaller id', () => {
    const plan = planResolution({
      identifiers: { externalId: 'E1', email: 'a@x.ru', phone: '79990000001' },
      did: 'dev0000004',
      deviceProfileId: 4,
      profiles: [
        profile(9, 50, { externalId: 'E1' }),
        profile(7, 10, { email: 'a@x.ru' }),
        profile(3, 10, { phone: '79990000001' }),
        profile(4, 30),
      ],
    });
    expect(plan.target).toEqual({ kind: 'existing', profileId: 3 });
    expect(plan.merges).toEqual([
      { fromProfileId: 9, intoProfileId: 3, reason: 'shared_phone' },
      { fromProfileId: 7, intoProfileId: 3, reason: 'shared_email' },
      { fromProfileId: 4, intoProfileId: 3, reason: 'device_identified' },
    ]);
    expect(plan.attach).toEqual({ externalId: 'E1', email: 'a@x.ru' });
  });

  it('combines properties with the older profile winning each key', () => {
    expect(
      combineProperties([
        { name: 'Ann', city: 'Omsk' },
        { name: 'Anna', age: 30 },
        { age: 31, vip: true },
      ]),
    ).toEqual({
      name: 'Ann',
      city: 'Omsk',
      age: 30,
      vip: true,
    });
  });
});
