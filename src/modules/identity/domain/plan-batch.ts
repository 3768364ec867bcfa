import { IDENTIFIER_FIELDS, IDENTIFIER_KINDS, type IdentifierKind, type Identifiers, type IdentifierSlots } from './identifiers.js';
import { combineProperties, compareAge, planResolution, type IgnoredIdentifier, type ProfileSnapshot } from './plan-resolution.js';
import type { LinkReason } from './resolution-rules.js';

/**
 * Resolves many people at once (an audience import's chunk) with the rules of
 * planResolution, as if each had been resolved alone in input order, but against an
 * in-memory picture of the profiles, so that the whole batch is read once and written
 * set-wise. Pure: the caller loads the profiles, supplies new ids, and executes the
 * result. Identifiers only: a batch has no devices.
 */

export interface BatchPerson {
  /** Normalised; at least one. */
  readonly identifiers: Identifiers;
  /** Properties to set on the person's profile; given keys win over stored ones. */
  readonly properties?: Readonly<Record<string, unknown>>;
}

export interface StoredProfile extends ProfileSnapshot {
  readonly properties: Readonly<Record<string, unknown>>;
}

/** A profile the batch creates or changes, as it must end up. */
export interface ProfileState {
  readonly id: number;
  readonly identifiers: IdentifierSlots;
  readonly properties: Readonly<Record<string, unknown>>;
}

/** A stored profile merged into another stored profile, in the order the batch met them. */
export interface BatchMerge {
  readonly fromProfileId: number;
  readonly intoProfileId: number;
  readonly reason: LinkReason;
  /** The identifiers of the person whose resolution merged them, under contract names. */
  readonly event: Readonly<Record<string, string>>;
  /** What the merged profile held then, under contract names. */
  readonly merged: Readonly<Record<string, string>>;
}

export interface BatchPlan {
  /** The live profile of each person, in input order (after every merge of the batch). */
  readonly profileIds: readonly number[];
  /** Identifiers of each person that were not stored, and why. */
  readonly ignored: readonly (readonly IgnoredIdentifier[])[];
  readonly creates: readonly ProfileState[];
  /** Stored profiles whose identifiers or properties change (never a merged one). */
  readonly updates: readonly ProfileState[];
  readonly merges: readonly BatchMerge[];
}

/**
 * A profile created by the batch is younger than every stored one, whatever the clocks
 * of the processes that stored them said, so a merge never goes into a profile that is
 * not stored yet.
 */
const NEW_PROFILE_AGE = Number.MAX_SAFE_INTEGER;

interface Sim {
  readonly id: number;
  readonly createdAt: number;
  readonly stored: boolean;
  slots: Record<IdentifierKind, string | null>;
  properties: Record<string, unknown>;
  mergedInto: number | undefined;
  changed: boolean;
}

export function planBatch(people: readonly BatchPerson[], stored: readonly StoredProfile[], newId: () => number): BatchPlan {
  const sims = new Map<number, Sim>();
  const holders = new Map<string, number>();
  const key = (kind: IdentifierKind, value: string) => `${kind}\u0000${value}`;
  const hold = (sim: Sim) => {
    for (const kind of IDENTIFIER_KINDS) {
      const value = sim.slots[kind];
      if (value !== null) holders.set(key(kind, value), sim.id);
    }
  };
  for (const p of stored) {
    const sim: Sim = {
      id: p.id,
      createdAt: p.createdAt,
      stored: true,
      slots: { ...p.identifiers },
      properties: { ...p.properties },
      mergedInto: undefined,
      changed: false,
    };
    sims.set(p.id, sim);
    hold(sim);
  }
  const snapshot = (sim: Sim): ProfileSnapshot => ({ id: sim.id, createdAt: sim.createdAt, identifiers: sim.slots });

  const profileIds: number[] = [];
  const ignored: IgnoredIdentifier[][] = [];
  const merges: BatchMerge[] = [];

  for (const person of people) {
    const found = new Set<number>();
    for (const kind of IDENTIFIER_KINDS) {
      const value = person.identifiers[kind];
      const holder = value === undefined ? undefined : holders.get(key(kind, value));
      if (holder !== undefined) found.add(holder);
    }
    const profiles = [...found].map((id) => snapshot(sims.get(id) as Sim));
    const plan = planResolution({ identifiers: person.identifiers, profiles });

    let survivor: Sim;
    if (plan.target.kind === 'create') {
      survivor = {
        id: newId(),
        createdAt: NEW_PROFILE_AGE,
        stored: false,
        slots: { externalId: null, loyaltyId: null, email: null, phone: null, telegramId: null },
        properties: {},
        mergedInto: undefined,
        changed: true,
      };
      sims.set(survivor.id, survivor);
    } else {
      survivor = sims.get(plan.target.profileId) as Sim;
    }

    const group = [survivor];
    for (const merge of plan.merges) {
      const from = sims.get(merge.fromProfileId) as Sim;
      if (from.stored && !survivor.stored) throw new Error('a stored profile cannot merge into one the batch creates');
      group.push(from);
      from.mergedInto = survivor.id;
      for (const kind of IDENTIFIER_KINDS) {
        const value = from.slots[kind];
        if (value !== null) holders.delete(key(kind, value));
      }
      if (from.stored) {
        merges.push({
          fromProfileId: from.id,
          intoProfileId: survivor.id,
          reason: merge.reason,
          event: columns(person.identifiers),
          merged: columns(from.slots),
        });
      }
    }
    if (group.length > 1) {
      const oldestFirst = group.map((sim) => ({ sim, snap: snapshot(sim) })).sort((a, b) => compareAge(a.snap, b.snap));
      survivor.properties = combineProperties(oldestFirst.map((g) => g.sim.properties));
      survivor.changed = true;
    }
    for (const kind of IDENTIFIER_KINDS) {
      const value = plan.attach[kind];
      if (value === undefined) continue;
      survivor.slots[kind] = value;
      survivor.changed = true;
    }
    hold(survivor);
    if (person.properties && patchProperties(survivor.properties, person.properties)) survivor.changed = true;

    profileIds.push(survivor.id);
    ignored.push([...plan.ignored]);
  }

  const live = (id: number): number => {
    let current = sims.get(id) as Sim;
    while (current.mergedInto !== undefined) current = sims.get(current.mergedInto) as Sim;
    return current.id;
  };
  const state = (sim: Sim): ProfileState => ({ id: sim.id, identifiers: { ...sim.slots }, properties: sim.properties });
  const survivors = [...sims.values()].filter((sim) => sim.mergedInto === undefined && sim.changed);
  return {
    profileIds: profileIds.map(live),
    ignored,
    creates: survivors.filter((sim) => !sim.stored).map(state),
    updates: survivors.filter((sim) => sim.stored).map(state),
    merges,
  };
}

/** Sets the given keys; true when any value differs from what was there. */
function patchProperties(target: Record<string, unknown>, patch: Readonly<Record<string, unknown>>): boolean {
  let changed = false;
  for (const [name, value] of Object.entries(patch)) {
    if (Object.hasOwn(target, name) && JSON.stringify(target[name]) === JSON.stringify(value)) continue;
    target[name] = value;
    changed = true;
  }
  return changed;
}

function columns(identifiers: Partial<Record<IdentifierKind, string | null>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kind of IDENTIFIER_KINDS) {
    const value = identifiers[kind];
    if (value !== undefined && value !== null) out[IDENTIFIER_FIELDS[kind]] = value;
  }
  return out;
}
