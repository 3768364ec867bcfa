/**
 * When a session ends, as pure arithmetic over the clock's milliseconds: a session lives
 * until the earlier of its idle expiry (moved forward on use) and its absolute expiry
 * (fixed at sign-in), or until it is revoked.
 */
export interface SessionLifetimes {
  /** How long a session lasts without a request. */
  readonly idleMs: number;
  /** How long a session lasts at most, used or not. */
  readonly absoluteMs: number;
}

/** last_seen_at moves at most this often, so that a busy UI writes once a minute, not once a request. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionTimes {
  readonly lastSeenAt: number;
  readonly idleExpiresAt: number;
  readonly expiresAt: number;
  readonly revokedAt: number | null;
}

export function isSessionLive(session: SessionTimes, now: number): boolean {
  return session.revokedAt === null && now < session.idleExpiresAt && now < session.expiresAt;
}

/** The times of a session that starts now. */
export function startSession(now: number, lifetimes: SessionLifetimes): Omit<SessionTimes, 'revokedAt'> {
  return { lastSeenAt: now, idleExpiresAt: now + lifetimes.idleMs, expiresAt: now + lifetimes.absoluteMs };
}

/** The new last-seen and idle expiry when the session is used now, or undefined when no write is due yet. */
export function touchSession(
  session: SessionTimes,
  now: number,
  lifetimes: SessionLifetimes,
): { lastSeenAt: number; idleExpiresAt: number } | undefined {
  if (now - session.lastSeenAt < LAST_SEEN_RESOLUTION_MS) return undefined;
  return { lastSeenAt: now, idleExpiresAt: now + lifetimes.idleMs };
}
