import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { IDENTIFIER_FIELDS, IDENTIFIER_KINDS, type Identifiers, type IdentifierSlots } from './domain/identifiers.js';
import {
  combineProperties,
  compareAge,
  type ProfileSnapshot,
  type ResolutionInput,
  type ResolutionPlan,
} from './domain/plan-resolution.js';
import { parseJsonObject } from './domain/profile.js';
import type { LinkReason } from './domain/resolution-rules.js';
import { generateProfileId } from './ids.js';
import * as repo from './identity.repo.js';

/**
 * Carries out one resolution plan inside one transaction (or savepoint). Every write is
 * conditional on what the plan was made from; when another request changed it first,
 * LostRace undoes the attempt and the service resolves again from fresh reads.
 */

/**
 * Moves what a module keeps per profile (carts, orders, segment memberships …) when a
 * profile is merged. Called inside the merge's transaction, before the merged profile
 * becomes a tombstone; a participant that throws undoes the whole merge. The composition
 * root hands identity one ordered list of them (src/services.ts).
 */
export interface MergeParticipant {
  /** Names it in that list. */
  readonly name: string;
  merge(executor: Transaction<Database>, shopId: string, fromProfileId: number, intoProfileId: number): Promise<void>;
}

/** The attempt lost a race with a concurrent writer; the service retries. */
export class LostRace extends Error {
  constructor() {
    super('a concurrent request changed the profiles of this resolution');
    this.name = 'LostRace';
  }
}

/** What a plan was made from. */
export interface LoadedResolution {
  readonly input: ResolutionInput;
  readonly rows: ReadonlyMap<number, repo.ProfileRow>;
  readonly device: repo.DeviceRow | undefined;
  /** The event's identifiers under their contract names, for the merge log. */
  readonly event: Readonly<Record<string, string>>;
}

export class ResolutionRun {
  constructor(
    private readonly trx: Transaction<Database>,
    private readonly shopId: string,
    private readonly now: number,
    private readonly participants: readonly MergeParticipant[],
  ) {}

  /** Plain reads of the device and of every live holder of an event identifier. */
  static async load(db: repo.Executor, shopId: string, identifiers: Identifiers, did: string | undefined): Promise<LoadedResolution> {
    const device = did === undefined ? undefined : await repo.findDeviceRow(db, shopId, did);
    const rows = await repo.findLiveProfilesByIdentifiers(db, shopId, toColumns(identifiers));
    if (device && !rows.some((r) => r.id === device.profile_id)) {
      const row = await repo.findProfileRow(db, shopId, device.profile_id);
      // Merged between the two reads: read again.
      if (!row || row.merged_into !== null) throw new LostRace();
      rows.push(row);
    }
    return {
      input: {
        identifiers,
        ...(did === undefined ? {} : { did }),
        ...(device ? { deviceProfileId: device.profile_id } : {}),
        profiles: rows.map(toSnapshot),
      },
      rows: new Map(rows.map((r) => [r.id, r])),
      device,
      event: { ...toColumns(identifiers), ...(did === undefined ? {} : { did }) },
    };
  }

  /** Returns the survivor's id. */
  async execute(loaded: LoadedResolution, plan: ResolutionPlan): Promise<number> {
    const locked = await this.lockPlanProfiles(loaded, plan);

    const survivorId = plan.target.kind === 'create' ? await this.insertProfile(plan.attach) : plan.target.profileId;

    for (const merge of plan.merges) {
      await this.merge(merge.fromProfileId, merge.intoProfileId, merge.reason, {
        event: loaded.event,
        merged: heldColumns(locked.get(merge.fromProfileId)),
      });
    }

    if (plan.device.kind === 'create') {
      await this.insertDevice(plan.device.did, survivorId);
    } else if (plan.device.kind === 'relink') {
      const { did, fromProfileId, reason } = plan.device;
      if (!(await repo.relinkDevice(this.trx, this.shopId, did, fromProfileId, survivorId, this.now))) {
        throw new LostRace();
      }
      await this.record(fromProfileId, survivorId, reason, { event: loaded.event });
    }

    if (plan.target.kind === 'existing' && (Object.keys(plan.attach).length > 0 || plan.merges.length > 0)) {
      const group = [...locked.values()]
        .filter((r) => r.id === survivorId || plan.merges.some((m) => m.fromProfileId === r.id))
        .sort((a, b) => compareAge(toSnapshot(a), toSnapshot(b)));
      const properties =
        plan.merges.length > 0 ? { properties: JSON.stringify(combineProperties(group.map((r) => parseJsonObject(r.properties)))) } : {};
      await this.updateSurvivor(survivorId, { ...toColumns(plan.attach), ...properties });
    }
    return survivorId;
  }

  /** Inserts a profile with these identifiers and returns its id. */
  async insertProfile(identifiers: Identifiers): Promise<number> {
    const id = generateProfileId();
    const inserted = await repo.insertProfile(this.trx, {
      shop_id: this.shopId,
      id,
      email: identifiers.email ?? null,
      phone: identifiers.phone ?? null,
      external_id: identifiers.externalId ?? null,
      loyalty_id: identifiers.loyaltyId ?? null,
      telegram_id: identifiers.telegramId ?? null,
      properties: '{}',
      merged_into: null,
      created_at: this.now,
      updated_at: this.now,
    });
    // An identifier someone holds now, or (rarely) an id that is taken: both resolve again.
    if (!inserted) throw new LostRace();
    return id;
  }

  async insertDevice(did: string, profileId: number): Promise<void> {
    const row = { shop_id: this.shopId, did, profile_id: profileId, created_at: this.now, last_seen_at: this.now };
    if (!(await repo.insertDevice(this.trx, row))) throw new LostRace();
  }

  /**
   * Locks the profiles the plan writes, in ascending id order so that two resolutions
   * never wait on each other in a cycle, then the device; each must be as it was read.
   */
  private async lockPlanProfiles(loaded: LoadedResolution, plan: ResolutionPlan): Promise<Map<number, repo.ProfileRow>> {
    const ids = new Set(plan.merges.map((m) => m.fromProfileId));
    if (plan.target.kind === 'existing') ids.add(plan.target.profileId);
    const locked = new Map<number, repo.ProfileRow>();
    for (const id of [...ids].sort((a, b) => a - b)) {
      const row = await repo.lockLiveProfile(this.trx, this.shopId, id, this.now);
      const read = loaded.rows.get(id);
      if (!row || !read || !sameIdentifiers(row, read)) throw new LostRace();
      locked.set(id, row);
    }
    if (loaded.device) {
      const device = await repo.touchDevice(this.trx, this.shopId, loaded.device.did, this.now);
      if (device?.profile_id !== loaded.device.profile_id) throw new LostRace();
    }
    return locked;
  }

  /**
   * Merges a locked live profile into another (docs/identity.md, "What a merge moves"),
   * except that the survivor's identifiers and properties are left to the caller: the
   * participants, the devices, the tombstone and the merge log.
   */
  async merge(fromId: number, intoId: number, reason: LinkReason, identifiers: object): Promise<void> {
    for (const participant of this.participants) await participant.merge(this.trx, this.shopId, fromId, intoId);
    await repo.moveDevices(this.trx, this.shopId, fromId, intoId);
    if (!(await repo.tombstoneProfile(this.trx, this.shopId, fromId, intoId, this.now))) throw new LostRace();
    await repo.repointTombstones(this.trx, this.shopId, fromId, intoId);
    await this.record(fromId, intoId, reason, identifiers);
  }

  private async updateSurvivor(id: number, patch: repo.IdentifierColumns & { properties?: string }): Promise<void> {
    let updated: boolean;
    try {
      updated = await repo.updateLiveProfile(this.trx, this.shopId, id, patch, this.now);
    } catch (error) {
      // Another request gave one of these identifiers to another profile first.
      if (isUniqueViolation(error)) throw new LostRace();
      throw error;
    }
    if (!updated) throw new LostRace();
  }

  private async record(fromId: number, intoId: number, reason: LinkReason, identifiers: object): Promise<void> {
    const row = {
      shop_id: this.shopId,
      from_profile_id: fromId,
      into_profile_id: intoId,
      reason,
      identifiers: JSON.stringify(identifiers),
      created_at: this.now,
    };
    while (!(await repo.insertMergeRecord(this.trx, { ...row, id: generateProfileId() }))) {
      // A random id that is taken: draw another.
    }
  }
}

export function toColumns(identifiers: Identifiers): repo.IdentifierColumns {
  const columns: repo.IdentifierColumns = {};
  for (const kind of IDENTIFIER_KINDS) {
    const value = identifiers[kind];
    if (value !== undefined) columns[IDENTIFIER_FIELDS[kind]] = value;
  }
  return columns;
}

/** The identifiers a profile held, under their contract names. */
function heldColumns(row: repo.ProfileRow | undefined): repo.IdentifierColumns {
  const columns: repo.IdentifierColumns = {};
  for (const kind of IDENTIFIER_KINDS) {
    const value = row?.[IDENTIFIER_FIELDS[kind]];
    if (value !== undefined && value !== null) columns[IDENTIFIER_FIELDS[kind]] = value;
  }
  return columns;
}

function toSnapshot(row: repo.ProfileRow): ProfileSnapshot {
  const identifiers: IdentifierSlots = {
    externalId: row.external_id,
    loyaltyId: row.loyalty_id,
    email: row.email,
    phone: row.phone,
    telegramId: row.telegram_id,
  };
  return { id: row.id, createdAt: row.created_at, identifiers };
}

function sameIdentifiers(a: repo.ProfileRow, b: repo.ProfileRow): boolean {
  return IDENTIFIER_KINDS.every((kind) => a[IDENTIFIER_FIELDS[kind]] === b[IDENTIFIER_FIELDS[kind]]);
}
