import type { DbHandle } from '../../db/create-db.js';
import { IDENTIFIER_KINDS, isValidDeviceId, normalizeIdentifier, type Identifiers } from './domain/identifiers.js';
import type { Profile } from './domain/profile.js';
import * as repo from './identity.repo.js';
import { listLiveProfilesNewest } from './profile-list.repo.js';
import { toProfile } from './identity.service.js';
import { toColumns } from './resolution-run.js';

/**
 * The shop's customers as the admin UI finds them (docs/admin-lists.md): by any one
 * identifier, and newest first. Live profiles only; a merged profile is found as the
 * profile it merged into, which now holds its identifiers and devices.
 */

export interface ProfileKey {
  readonly createdAt: number;
  readonly id: number;
}

export class ProfileDirectory {
  constructor(private readonly deps: { readonly db: DbHandle }) {}

  /**
   * The live profiles holding `text` as any identifier: an email, a phone (in any usual
   * spelling), an external, loyalty or Telegram id, or a device id. Each kind the text
   * can be read as is one exact match on its unique index; newest first.
   */
  async findByAnyIdentifier(shopId: string, text: string): Promise<Profile[]> {
    const db = this.deps.db.db;
    const identifiers: Identifiers = {};
    for (const kind of IDENTIFIER_KINDS) {
      const normalized = normalizeIdentifier(kind, text);
      if (normalized.ok) identifiers[kind] = normalized.value;
    }
    const rows = await repo.findLiveProfilesByIdentifiers(db, shopId, toColumns(identifiers));
    if (isValidDeviceId(text)) {
      const device = await repo.findDeviceRow(db, shopId, text);
      const owner =
        device && !rows.some((r) => r.id === device.profile_id) ? await repo.findProfileRow(db, shopId, device.profile_id) : undefined;
      if (owner && owner.merged_into === null) rows.push(owner);
    }
    return rows.map(toProfile).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  }

  /** Live profiles newest first (by creation, then id), after `before`; `limit` at most. */
  async listNewest(shopId: string, before: ProfileKey | null, limit: number): Promise<Profile[]> {
    const rows = await listLiveProfilesNewest(this.deps.db.db, shopId, before, limit);
    return rows.map(toProfile);
  }
}
