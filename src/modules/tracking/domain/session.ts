/**
 * Sessions (contract-notes.md, "Devices and sessions"): a session ends after 2 hours
 * without activity; the next action opens a new one. Pure.
 */
import { isValidSessionId } from '../../identity/index.js';

export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;

/**
 * A session is live while less than 2 hours have passed since its last activity: at
 * exactly 2 hours it has ended. The batch upsert of sessions (tracking.repo.ts) restarts
 * a session by the same rule.
 */
export function isSessionLive(lastActivityAt: number, now: number): boolean {
  return now - lastActivityAt < SESSION_IDLE_MS;
}

/** A session id: 10 characters of [A-Za-z0-9] (the format of the ids Patron issues). */
export function isWellFormedSessionId(sid: string): boolean {
  return isValidSessionId(sid);
}
