import type { LinkReason } from './resolution-rules.js';

/** A live customer profile of one shop, as modules and the admin API see it. */
export interface Profile {
  readonly id: number;
  readonly email: string | null;
  readonly phone: string | null;
  readonly externalId: string | null;
  readonly loyaltyId: string | null;
  readonly telegramId: string | null;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ProfileWithDevices extends Profile {
  /** The dids of the profile's devices, oldest first. */
  readonly devices: readonly string[];
}

export interface Device {
  readonly did: string;
  readonly profileId: number;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

/** One entry of the merge log: a merge, or a device moved to another profile. */
export interface MergeRecord {
  readonly id: number;
  readonly fromProfileId: number;
  readonly intoProfileId: number;
  readonly reason: LinkReason;
  /** The identifiers involved: the event's, and those the merged profile held. */
  readonly identifiers: Readonly<Record<string, unknown>>;
  readonly createdAt: number;
}

/** A stored JSON object, or an empty one when the text is not an object. */
export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
