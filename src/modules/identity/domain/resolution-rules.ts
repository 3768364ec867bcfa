import type { IdentifierField } from './identifiers.js';

/**
 * The rule table of identity resolution, as data. The planner (plan-resolution.ts) looks
 * every decision up here, and docs/identity.md reproduces these tables word for word (a
 * unit test compares them), so the code and the documentation cannot drift apart.
 *
 * Vocabulary: the *event* carries identifiers and perhaps a device id. The *anchor* is
 * the profile the event is about. Every other profile the event touches *meets* the
 * anchor's group and either joins it (a merge) or is kept apart. The group finally
 * lives on in its oldest member, the *survivor*.
 */

/** Why two profiles were merged or a device moved; stored with each record. */
export type LinkReason = 'device_identified' | 'device_relinked' | `shared_${IdentifierField}`;

export interface Rule {
  /** The situation, as the documentation states it. */
  readonly when: string;
  /** What happens, as the documentation states it. */
  readonly then: string;
}

export type AnchorSituation = 'identifier_match' | 'device_profile_fits' | 'device_profile_conflicts' | 'no_match';

export interface AnchorRule extends Rule {
  readonly anchor: 'matched_profile' | 'device_profile' | 'new_profile';
}

export const ANCHOR_RULES = {
  identifier_match: {
    anchor: 'matched_profile',
    when: 'a profile holds one of the event identifiers',
    then: 'the profile holding the highest-priority identifier (external_id, loyalty_id, email, phone, telegram_id) is the anchor',
  },
  device_profile_fits: {
    anchor: 'device_profile',
    when: "no profile holds an event identifier; the device's profile holds no different value of the same kind",
    then: "the device's profile is the anchor and takes the event identifiers",
  },
  device_profile_conflicts: {
    anchor: 'new_profile',
    when: "no profile holds an event identifier; the device's profile holds a different value of the same kind",
    then: 'another person on this device: a new profile is the anchor, and the device moves to it',
  },
  no_match: {
    anchor: 'new_profile',
    when: 'nothing matches (no identifier is held, no known device)',
    then: 'a new profile is the anchor',
  },
} as const satisfies Record<AnchorSituation, AnchorRule>;

/**
 * How a profile met the anchor: through an event identifier it holds, or only as the
 * profile of the event's device. It *fits* when, for each of the five identifier kinds,
 * it and the group do not hold two different values.
 */
export type MeetingSituation = 'identifier_fits' | 'identifier_conflicts' | 'device_fits' | 'device_conflicts';

export interface MeetingRule extends Rule {
  readonly action: 'merge' | 'keep_apart';
  /** `shared_{identifier}` names the identifier through which the profile was found. */
  readonly reason: 'shared_{identifier}' | 'device_identified' | null;
}

export const MEETING_RULES = {
  identifier_fits: {
    action: 'merge',
    reason: 'shared_{identifier}',
    when: 'a profile holding an event identifier fits the group',
    then: 'it joins the group (merge)',
  },
  identifier_conflicts: {
    action: 'keep_apart',
    reason: null,
    when: 'a profile holding an event identifier holds a different value of a kind the group holds',
    then: 'never merged: it keeps its identifiers, which the survivor does not take',
  },
  device_fits: {
    action: 'merge',
    reason: 'device_identified',
    when: "the device's profile (found through the device only) fits the group",
    then: 'it joins the group (merge)',
  },
  device_conflicts: {
    action: 'keep_apart',
    reason: null,
    when: "the device's profile (found through the device only) holds a different value of a kind the group holds",
    then: 'never merged; the device rule moves the device',
  },
} as const satisfies Record<MeetingSituation, MeetingRule>;

export type EventIdentifierSituation = 'free_slot_empty' | 'free_slot_differs' | 'held_by_group' | 'held_apart';

export interface EventIdentifierRule extends Rule {
  readonly action: 'attach' | 'ignore' | 'none';
  readonly ignoredBecause: 'conflicts_with_profile' | 'held_by_other_profile' | null;
}

/**
 * Free identifiers are settled before any profile meets the group, so that what the event
 * says about its person counts when deciding whether another profile fits.
 */
export const EVENT_IDENTIFIER_RULES = {
  free_slot_empty: {
    action: 'attach',
    ignoredBecause: null,
    when: "no profile holds it and the anchor's slot of that kind is empty",
    then: 'the survivor takes it',
  },
  free_slot_differs: {
    action: 'ignore',
    ignoredBecause: 'conflicts_with_profile',
    when: 'no profile holds it and the anchor holds a different value of that kind',
    then: "not stored: the anchor's value stays",
  },
  held_by_group: {
    action: 'none',
    ignoredBecause: null,
    when: 'a profile that joins the group holds it',
    then: 'the survivor holds it after the merge',
  },
  held_apart: {
    action: 'ignore',
    ignoredBecause: 'held_by_other_profile',
    when: 'a profile kept apart holds it',
    then: 'it stays with that profile',
  },
} as const satisfies Record<EventIdentifierSituation, EventIdentifierRule>;

export type DeviceSituation = 'no_device' | 'unknown_device' | 'device_profile_joins' | 'device_profile_apart';

export interface DeviceRule extends Rule {
  readonly action: 'none' | 'create' | 'relink';
  readonly reason: 'device_relinked' | null;
}

export const DEVICE_RULES = {
  no_device: { action: 'none', reason: null, when: 'the event has no did', then: 'nothing' },
  unknown_device: {
    action: 'create',
    reason: null,
    when: 'the did is well-formed but unknown',
    then: 'the device is created on the survivor',
  },
  device_profile_joins: {
    action: 'none',
    reason: null,
    when: "the device's profile is the anchor or joins the group",
    then: 'the device ends on the survivor with its profile',
  },
  device_profile_apart: {
    action: 'relink',
    reason: 'device_relinked',
    when: "the device's profile is kept apart (a shared computer where another person logged in)",
    then: 'the device moves to the survivor; its old profile keeps everything else',
  },
} as const satisfies Record<DeviceSituation, DeviceRule>;

/** The merge direction and what the survivor keeps, stated once for code and docs. */
export const SURVIVOR_RULE: Rule = {
  when: 'the group has more than one profile',
  then:
    'all merge into the oldest (smaller created_at, then smaller id); its identifiers and properties win, ' +
    'the younger ones fill its empty slots',
};
