import {
  EMPTY_SLOTS,
  IDENTIFIER_FIELDS,
  IDENTIFIER_KINDS,
  type IdentifierKind,
  type Identifiers,
  type IdentifierSlots,
} from './identifiers.js';
import {
  ANCHOR_RULES,
  DEVICE_RULES,
  EVENT_IDENTIFIER_RULES,
  MEETING_RULES,
  type AnchorSituation,
  type DeviceSituation,
  type LinkReason,
  type MeetingSituation,
} from './resolution-rules.js';

/**
 * Decides what one event's identifiers mean for the profiles they touch, following the
 * rule table of resolution-rules.ts. Pure: the service loads the snapshots, asks for a
 * plan, and executes it.
 */

export interface ProfileSnapshot {
  readonly id: number;
  readonly createdAt: number;
  readonly identifiers: IdentifierSlots;
}

export interface ResolutionInput {
  /** The event's identifiers, normalised. */
  readonly identifiers: Identifiers;
  /** The event's device id, if any. */
  readonly did?: string;
  /** The profile of the device named by `did`, when that device exists. */
  readonly deviceProfileId?: number;
  /** Every live profile that holds one of the event identifiers, and the device's profile. */
  readonly profiles: readonly ProfileSnapshot[];
}

export interface PlannedMerge {
  readonly fromProfileId: number;
  readonly intoProfileId: number;
  readonly reason: LinkReason;
}

export type DevicePlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'create'; readonly did: string }
  | { readonly kind: 'relink'; readonly did: string; readonly fromProfileId: number; readonly reason: 'device_relinked' };

export interface IgnoredIdentifier {
  readonly kind: IdentifierKind;
  readonly value: string;
  readonly reason: 'conflicts_with_profile' | 'held_by_other_profile';
  /** The profile that holds a different value, or holds this one. */
  readonly profileId?: number;
}

export interface ResolutionPlan {
  readonly anchorSituation: AnchorSituation;
  /** The survivor: an existing profile, or one to create. */
  readonly target: { readonly kind: 'existing'; readonly profileId: number } | { readonly kind: 'create' };
  /** Values for the survivor's empty slots (all of its identifiers when it is created). */
  readonly attach: Identifiers;
  /** Every other member of the group, each merged into the survivor. */
  readonly merges: readonly PlannedMerge[];
  readonly device: DevicePlan;
  readonly ignored: readonly IgnoredIdentifier[];
}

type Candidate =
  | { readonly profile: ProfileSnapshot; readonly via: 'identifier'; readonly kind: IdentifierKind }
  | { readonly profile: ProfileSnapshot; readonly via: 'device' };

interface Member {
  readonly profile: ProfileSnapshot;
  /** The reason of its meeting; null for the anchor, which met nobody. */
  readonly reason: LinkReason | null;
}

/** True when the two hold no different values of the same kind. */
export function slotsFit(a: IdentifierSlots | Identifiers, b: IdentifierSlots | Identifiers): boolean {
  return IDENTIFIER_KINDS.every((kind) => {
    const x = a[kind];
    const y = b[kind];
    return x === null || x === undefined || y === null || y === undefined || x === y;
  });
}

/** Negative when `a` is older: smaller created_at, then smaller id. */
export function compareAge(a: ProfileSnapshot, b: ProfileSnapshot): number {
  return a.createdAt - b.createdAt || a.id - b.id;
}

export function planResolution(input: ResolutionInput): ResolutionPlan {
  const candidates = findCandidates(input);
  const held = new Set(candidates.flatMap((c) => heldEventKinds(c.profile, input.identifiers)));

  const first = candidates[0];
  const anchorSituation: AnchorSituation =
    first === undefined
      ? 'no_match'
      : first.via === 'identifier'
        ? 'identifier_match'
        : slotsFit(first.profile.identifiers, input.identifiers)
          ? 'device_profile_fits'
          : 'device_profile_conflicts';
  const anchor = ANCHOR_RULES[anchorSituation].anchor === 'new_profile' ? undefined : first?.profile;

  const slots: Record<IdentifierKind, string | null> = { ...(anchor?.identifiers ?? EMPTY_SLOTS) };
  const ignored: IgnoredIdentifier[] = [];
  for (const kind of IDENTIFIER_KINDS) {
    const value = input.identifiers[kind];
    if (value === undefined || held.has(kind)) continue;
    const rule = EVENT_IDENTIFIER_RULES[slots[kind] === null ? 'free_slot_empty' : 'free_slot_differs'];
    if (rule.action === 'attach') slots[kind] = value;
    else ignored.push({ kind, value, reason: 'conflicts_with_profile', ...(anchor ? { profileId: anchor.id } : {}) });
  }

  const members: Member[] = anchor ? [{ profile: anchor, reason: null }] : [];
  for (const candidate of candidates) {
    if (candidate.profile === anchor) continue;
    const fits = slotsFit(slots, candidate.profile.identifiers);
    const situation: MeetingSituation = `${candidate.via}_${fits ? 'fits' : 'conflicts'}`;
    const rule = MEETING_RULES[situation];
    if (rule.action === 'merge') {
      members.push({ profile: candidate.profile, reason: meetingReason(rule.reason, candidate) });
      for (const kind of IDENTIFIER_KINDS) slots[kind] ??= candidate.profile.identifiers[kind];
    } else {
      for (const kind of heldEventKinds(candidate.profile, input.identifiers)) {
        const value = input.identifiers[kind] as string;
        ignored.push({ kind, value, reason: 'held_by_other_profile', profileId: candidate.profile.id });
      }
    }
  }

  const survivor = members.reduce<Member | undefined>(
    (oldest, m) => (oldest === undefined || compareAge(m.profile, oldest.profile) < 0 ? m : oldest),
    undefined,
  );
  const merges: PlannedMerge[] = [];
  for (const member of members) {
    if (survivor === undefined || member === survivor) continue;
    // The anchor met nobody: when it is the younger one, the survivor's meeting is the reason.
    const reason = member.reason ?? survivor.reason;
    if (reason === null) throw new Error('a merge needs the reason of one of its two meetings');
    merges.push({ fromProfileId: member.profile.id, intoProfileId: survivor.profile.id, reason });
  }

  const survivorSlots = survivor?.profile.identifiers ?? EMPTY_SLOTS;
  const attach: Identifiers = {};
  for (const kind of IDENTIFIER_KINDS) {
    const value = slots[kind];
    if (value !== null && survivorSlots[kind] === null) attach[kind] = value;
  }

  return {
    anchorSituation,
    target: survivor ? { kind: 'existing', profileId: survivor.profile.id } : { kind: 'create' },
    attach,
    merges,
    device: planDevice(input, members),
    ignored,
  };
}

/** True when carrying out the plan writes nothing. */
export function isNoopPlan(plan: ResolutionPlan): boolean {
  return (
    plan.target.kind === 'existing' && Object.keys(plan.attach).length === 0 && plan.merges.length === 0 && plan.device.kind === 'none'
  );
}

/** Holders of event identifiers in priority order, then the device's profile. */
function findCandidates(input: ResolutionInput): Candidate[] {
  const candidates: Candidate[] = [];
  const seen = new Set<number>();
  for (const kind of IDENTIFIER_KINDS) {
    const value = input.identifiers[kind];
    if (value === undefined) continue;
    const holder = input.profiles.find((p) => p.identifiers[kind] === value);
    if (holder && !seen.has(holder.id)) {
      seen.add(holder.id);
      candidates.push({ profile: holder, via: 'identifier', kind });
    }
  }
  if (input.deviceProfileId !== undefined && !seen.has(input.deviceProfileId)) {
    const profile = input.profiles.find((p) => p.id === input.deviceProfileId);
    if (!profile) throw new Error(`the snapshot of the device's profile ${input.deviceProfileId} is missing`);
    candidates.push({ profile, via: 'device' });
  }
  return candidates;
}

function heldEventKinds(profile: ProfileSnapshot, identifiers: Identifiers): IdentifierKind[] {
  return IDENTIFIER_KINDS.filter((kind) => {
    const value = identifiers[kind];
    return value !== undefined && profile.identifiers[kind] === value;
  });
}

function meetingReason(reason: (typeof MEETING_RULES)[MeetingSituation]['reason'], candidate: Candidate): LinkReason {
  if (reason === 'shared_{identifier}') {
    if (candidate.via !== 'identifier') throw new Error('a shared-identifier merge needs the identifier it shared');
    return `shared_${IDENTIFIER_FIELDS[candidate.kind]}`;
  }
  if (reason === null) throw new Error('a merge rule must name its reason');
  return reason;
}

function planDevice(input: ResolutionInput, members: readonly Member[]): DevicePlan {
  const situation: DeviceSituation =
    input.did === undefined
      ? 'no_device'
      : input.deviceProfileId === undefined
        ? 'unknown_device'
        : members.some((m) => m.profile.id === input.deviceProfileId)
          ? 'device_profile_joins'
          : 'device_profile_apart';
  const rule = DEVICE_RULES[situation];
  if (rule.action === 'none' || input.did === undefined) return { kind: 'none' };
  if (rule.action === 'create') return { kind: 'create', did: input.did };
  return { kind: 'relink', did: input.did, fromProfileId: input.deviceProfileId as number, reason: 'device_relinked' };
}

/** Properties of a merged group: the older profile wins each key. Oldest first in, one object out. */
export function combineProperties(oldestFirst: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown> {
  const combined: Record<string, unknown> = {};
  for (let i = oldestFirst.length - 1; i >= 0; i -= 1) Object.assign(combined, oldestFirst[i]);
  return combined;
}
