import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Late } from '../../late.js';
import { isValidDeviceId, normalizeIdentifiers, type IdentifierKind, type Identifiers } from './domain/identifiers.js';
import { isNoopPlan, planResolution, type IgnoredIdentifier, type PlannedMerge } from './domain/plan-resolution.js';
import { parseJsonObject, type Device, type MergeRecord, type Profile, type ProfileWithDevices } from './domain/profile.js';
import type { LinkReason } from './domain/resolution-rules.js';
import type { BatchPerson, BatchPlan } from './domain/plan-batch.js';
import { executeBatch } from './batch-resolution.js';
import { generateDeviceId } from './ids.js';
import * as repo from './identity.repo.js';
import { LostRace, ResolutionRun, toColumns, type MergeParticipant } from './resolution-run.js';

export type { MergeParticipant } from './resolution-run.js';
export type { BatchPerson, BatchPlan } from './domain/plan-batch.js';

/** Raw identifiers as a scope received them; null and undefined both mean absent. */
export type IdentityInput = { readonly did?: string | null } & {
  readonly [K in IdentifierKind]?: string | null;
};

export interface ResolvedProfile {
  readonly profileId: number;
  /** True when the event's person got a new profile. */
  readonly created: boolean;
  readonly merges: readonly PlannedMerge[];
  /** Set when the event's device moved from another person's profile. */
  readonly relinkedDevice: { readonly did: string; readonly fromProfileId: number } | null;
  /** Event identifiers that were not stored, and why (docs/identity.md). */
  readonly ignored: readonly IgnoredIdentifier[];
}

/** contract-notes, "Secrets and errors": an unknown well-formed did. */
export const DEVICE_NOT_FOUND = 'Device not found';

/** Retries of one resolution that lost races to concurrent writers; each loss means another one committed. */
const MAX_ATTEMPTS = 10;

/**
 * Who is who: profiles, their devices and identifiers, links and merges
 * (docs/identity.md). Every write takes an optional transaction, so that tracking can
 * resolve identities inside its own batched commit; without one, each call commits alone.
 */
export class IdentityService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      /**
       * What the modules built after identity move in a merge, in the order they run
       * (src/services.ts says why the order matters); none when absent.
       */
      readonly mergeParticipants?: Late<readonly MergeParticipant[]>;
    },
  ) {}

  private get db() {
    return this.deps.db.db;
  }

  private get participants(): readonly MergeParticipant[] {
    return this.deps.mergeParticipants?.get() ?? [];
  }

  /**
   * A device with a new anonymous profile. With a `did` (one the client already holds),
   * an existing device is returned as it is (`created: false`). `beforeCreate` runs once,
   * only when a device is about to be created, and may throw to refuse it (GET /init's
   * device budget).
   */
  async createDevice(
    shopId: string,
    did?: string,
    executor?: Transaction<Database>,
    beforeCreate?: () => void,
  ): Promise<{ did: string; profileId: number; created: boolean }> {
    if (did !== undefined && !isValidDeviceId(did)) throw invalidDeviceId();
    for (let attempt = 1; ; attempt += 1) {
      if (did !== undefined) {
        const existing = await repo.findDeviceRow(executor ?? this.db, shopId, did);
        if (existing) return { did, profileId: existing.profile_id, created: false };
      }
      if (attempt === 1) beforeCreate?.();
      const newDid = did ?? generateDeviceId();
      try {
        const profileId = await this.atomically(executor, async (trx) => {
          const run = new ResolutionRun(trx, shopId, this.deps.clock.now(), this.participants);
          const id = await run.insertProfile({});
          await run.insertDevice(newDid, id);
          return id;
        });
        return { did: newDid, profileId, created: true };
      } catch (error) {
        retryOrRethrow(error, attempt);
      }
    }
  }

  /** The device; NOT_FOUND when the shop never registered it (only GET /init registers one). */
  async requireDevice(shopId: string, did: string): Promise<Device> {
    const device = await this.findDevice(shopId, did);
    if (!device) throw new AppError('NOT_FOUND', DEVICE_NOT_FOUND, { field: 'did' });
    return device;
  }

  async findDevice(shopId: string, did: string, executor?: Transaction<Database>): Promise<Device | undefined> {
    if (!isValidDeviceId(did)) return undefined;
    const row = await repo.findDeviceRow(executor ?? this.db, shopId, did);
    return row ? toDevice(row) : undefined;
  }

  /** Records activity of the device; false when the shop has no such device. */
  async touchDevice(shopId: string, did: string, executor?: Transaction<Database>): Promise<boolean> {
    if (!isValidDeviceId(did)) return false;
    return (await repo.touchDevice(executor ?? this.db, shopId, did, this.deps.clock.now())) !== undefined;
  }

  /**
   * The profile of the person an event's identifiers describe: links the device and the
   * identifiers to it, creates it, or merges profiles, by the rule table of
   * docs/identity.md. Invalid input is a request that cannot be served: AppError
   * VALIDATION_FAILED naming the parameter (`details.field`). A well-formed but unknown
   * `did` is created on the resolved profile.
   *
   * Concurrency: plans are made from plain reads, then every profile the plan writes is
   * locked and compared with what was read; the unique indexes refuse a second holder of
   * an identifier. Any lost race undoes the attempt (its savepoint) and resolves again.
   */
  async resolveProfile(shopId: string, input: IdentityInput, executor?: Transaction<Database>): Promise<ResolvedProfile> {
    const { did, identifiers } = parseIdentityInput(input);
    if (did !== undefined && Object.keys(identifiers).length === 0) {
      // The busiest case (a tracked event of a known device) reads one row.
      const device = await repo.findDeviceRow(executor ?? this.db, shopId, did);
      if (device) return { profileId: device.profile_id, created: false, merges: [], relinkedDevice: null, ignored: [] };
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        const loaded = await ResolutionRun.load(executor ?? this.db, shopId, identifiers, did);
        const plan = planResolution(loaded.input);
        const profileId =
          plan.target.kind === 'existing' && isNoopPlan(plan)
            ? plan.target.profileId
            : await this.atomically(executor, (trx) =>
                new ResolutionRun(trx, shopId, this.deps.clock.now(), this.participants).execute(loaded, plan),
              );
        return {
          profileId,
          created: plan.target.kind === 'create',
          merges: plan.merges,
          relinkedDevice: plan.device.kind === 'relink' ? { did: plan.device.did, fromProfileId: plan.device.fromProfileId } : null,
          ignored: plan.ignored,
        };
      } catch (error) {
        retryOrRethrow(error, attempt);
      }
    }
  }

  /**
   * Resolves many people at once, as resolveProfile would one by one in input order, in
   * the caller's transaction and set-wise (batch-resolution.ts): an audience import's
   * chunk. Identifiers must be normalised already (domain/identifiers.ts), at least one
   * per person. When a concurrent writer changed a profile of the batch, AppError CONFLICT
   * is thrown: the caller rolls its transaction back and runs the batch again.
   */
  async resolveBatch(shopId: string, people: readonly BatchPerson[], trx: Transaction<Database>): Promise<BatchPlan> {
    if (people.some((person) => Object.keys(person.identifiers).length === 0)) {
      throw new Error('resolveBatch needs at least one identifier per person');
    }
    try {
      return await executeBatch(trx, shopId, people, { now: this.deps.clock.now(), participants: this.participants });
    } catch (error) {
      if (error instanceof LostRace) {
        throw new AppError('CONFLICT', 'Profiles of the batch were changed by concurrent requests; try again.');
      }
      throw error;
    }
  }

  /** The live profile; a merged id leads to the profile it was merged into. */
  async getProfile(shopId: string, id: number, executor?: Transaction<Database>): Promise<ProfileWithDevices | undefined> {
    const db = executor ?? this.db;
    const liveId = await this.currentProfileId(shopId, id, executor);
    const row = liveId === undefined ? undefined : await repo.findProfileRow(db, shopId, liveId);
    if (!row) return undefined;
    const devices = await repo.listDevicesOf(db, shopId, [row.id]);
    return { ...toProfile(row), devices: devices.map((d) => d.did) };
  }

  /**
   * getProfile of many ids without their devices, in two queries at most: each id maps to
   * its live profile (a merged id to the one it was merged into); unknown ids are absent.
   */
  async getProfilesMany(shopId: string, ids: readonly number[]): Promise<Map<number, Profile>> {
    const rows = await repo.findProfileRows(
      this.db,
      shopId,
      ids.filter((id) => Number.isSafeInteger(id)),
    );
    const merged = rows.flatMap((r) => (r.merged_into === null ? [] : [r.merged_into]));
    const survivors = new Map((await repo.findProfileRows(this.db, shopId, merged)).map((r) => [r.id, r]));
    const out = new Map<number, Profile>();
    for (const row of rows) {
      const live = row.merged_into === null ? row : survivors.get(row.merged_into);
      if (live) out.set(row.id, toProfile(live));
    }
    return out;
  }

  /** getProfile without the devices, in one read for a live profile: for a hot path (a message's recipient). */
  async getProfileOnly(shopId: string, id: number): Promise<Profile | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = await repo.findProfileRow(this.db, shopId, id);
    // Tombstones are re-pointed at every merge, so one hop always reaches a live profile.
    const live = row && row.merged_into !== null ? await repo.findProfileRow(this.db, shopId, row.merged_into) : row;
    return live && toProfile(live);
  }

  /** Follows a merged profile to its survivor; undefined when the shop has no such profile. */
  async currentProfileId(shopId: string, id: number, executor?: Transaction<Database>): Promise<number | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const row = await repo.findProfileRow(executor ?? this.db, shopId, id);
    // Tombstones are re-pointed at every merge, so one hop always reaches a live profile.
    return row ? (row.merged_into ?? row.id) : undefined;
  }

  /**
   * Every id the customer of `id` ever had: its live profile's and those of the profiles
   * merged into it, for records that stay under the id they were written with.
   */
  async profileIdsOf(shopId: string, id: number): Promise<number[]> {
    const liveId = await this.currentProfileId(shopId, id);
    if (liveId === undefined) return [];
    return [liveId, ...(await repo.listMergedIds(this.db, shopId, liveId))];
  }

  /** Live profiles matching every given identifier (the admin read API's lookup). */
  async findProfiles(shopId: string, query: IdentityInput): Promise<ProfileWithDevices[]> {
    const { did, identifiers } = parseIdentityInput(query);
    const rows = await repo.findLiveProfiles(this.db, shopId, { ...toColumns(identifiers), ...(did ? { did } : {}) });
    const devices = await repo.listDevicesOf(
      this.db,
      shopId,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      ...toProfile(row),
      devices: devices.filter((d) => d.profile_id === row.id).map((d) => d.did),
    }));
  }

  /** findProfiles without the devices: for lookups by an identifier on a hot path (the loyalty checkout's member). */
  async findProfilesOnly(shopId: string, query: IdentityInput): Promise<Profile[]> {
    const { did, identifiers } = parseIdentityInput(query);
    const rows = await repo.findLiveProfiles(this.db, shopId, { ...toColumns(identifiers), ...(did ? { did } : {}) });
    return rows.map(toProfile);
  }

  /**
   * Sets custom properties of a live profile (the given keys; the others stay), in the
   * caller's transaction: the profile row is locked first, so two concurrent updates of
   * one profile both land. A profile merged meanwhile: AppError CONFLICT (try again).
   */
  async setProperties(
    shopId: string,
    profileId: number,
    properties: Readonly<Record<string, unknown>>,
    trx: Transaction<Database>,
  ): Promise<void> {
    if (Object.keys(properties).length === 0) return;
    const now = this.deps.clock.now();
    const row = await repo.lockLiveProfile(trx, shopId, profileId, now);
    if (!row) throw new AppError('CONFLICT', 'The profile was changed by concurrent requests; try again.');
    const merged = { ...parseJsonObject(row.properties), ...properties };
    await repo.updateLiveProfile(trx, shopId, profileId, { properties: JSON.stringify(merged) }, now);
  }

  /** The merge log entries where the profile is either side, oldest first. */
  async listMerges(shopId: string, profileId: number): Promise<MergeRecord[]> {
    const rows = await repo.listMergeRecords(this.db, shopId, profileId);
    return rows.map((r) => ({
      id: r.id,
      fromProfileId: r.from_profile_id,
      intoProfileId: r.into_profile_id,
      reason: r.reason as LinkReason,
      identifiers: parseJsonObject(r.identifiers),
      createdAt: r.created_at,
    }));
  }

  /**
   * Runs `work` so that it commits whole or not at all: in a transaction of its own, or
   * inside the caller's under a savepoint, so that a failed attempt leaves the caller's
   * transaction usable (on PostgreSQL an error aborts the transaction otherwise). The
   * savepoint's name is always the same: savepoints nest, and a release or rollback names
   * the innermost of that name, so nested calls unwind correctly, while one statement text
   * stays in the statement cache (a numbered name was a new text to prepare every time).
   */
  private async atomically<T>(executor: Transaction<Database> | undefined, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    if (!executor) return this.db.transaction().execute(work);
    const name = 'identity';
    await repo.createSavepoint(executor, name);
    try {
      const result = await work(executor);
      await repo.releaseSavepoint(executor, name);
      return result;
    } catch (error) {
      await repo.rollbackToSavepoint(executor, name);
      await repo.releaseSavepoint(executor, name);
      throw error;
    }
  }
}

function retryOrRethrow(error: unknown, attempt: number): void {
  if (!(error instanceof LostRace)) throw error;
  if (attempt >= MAX_ATTEMPTS) {
    throw new AppError('CONFLICT', 'The profile was changed by concurrent requests; try again.');
  }
}

function invalidDeviceId(): AppError {
  return new AppError('VALIDATION_FAILED', 'Device ID is not valid.', { field: 'did' });
}

function parseIdentityInput(input: IdentityInput): { did: string | undefined; identifiers: Identifiers } {
  const did = input.did ?? undefined;
  if (did !== undefined && !isValidDeviceId(did)) throw invalidDeviceId();
  const normalized = normalizeIdentifiers(input);
  if (!normalized.ok) {
    throw new AppError('VALIDATION_FAILED', `Parameter \`${normalized.field}\` is not valid.`, {
      field: normalized.field,
      reason: normalized.reason,
    });
  }
  if (did === undefined && Object.keys(normalized.value).length === 0) {
    throw new AppError('VALIDATION_FAILED', 'Identifier is not valid.', { field: 'identifier' });
  }
  return { did, identifiers: normalized.value };
}

export function toProfile(row: repo.ProfileRow): Profile {
  return {
    id: row.id,
    email: row.email,
    phone: row.phone,
    externalId: row.external_id,
    loyaltyId: row.loyalty_id,
    telegramId: row.telegram_id,
    properties: parseJsonObject(row.properties),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDevice(row: repo.DeviceRow): Device {
  return { did: row.did, profileId: row.profile_id, createdAt: row.created_at, lastSeenAt: row.last_seen_at };
}
