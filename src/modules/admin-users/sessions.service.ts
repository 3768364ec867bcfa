import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import * as sessionsRepo from './admin-sessions.repo.js';
import * as repo from './admin-users.repo.js';
import { isSessionLive, LAST_SEEN_RESOLUTION_MS, startSession, touchSession, type SessionLifetimes } from './domain/session-times.js';
import { emailKey, type AdminRole, type AdminUser } from './domain/user.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword, type ScryptParameters } from './passwords.js';
import { API_TOKEN_PREFIX, randomPublicId, randomToken, tokenHash } from './secrets.js';
import { toAdminUser } from './user-rows.js';

/** Where a sign-in comes from, kept with the session for the account screen. */
export interface ClientFacts {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** A session just started: `sessionId` goes into the cookie and is never stored. */
export interface StartedSession {
  readonly user: AdminUser;
  readonly sessionId: string;
  readonly csrfToken: string;
}

/** A live session, found by its cookie. */
export interface LiveSession {
  readonly user: AdminUser;
  readonly idHash: string;
  readonly csrfToken: string;
}

/** A live session as the account screen shows it; `current` is the one the request came with. */
export interface SessionSummary {
  readonly id: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly current: boolean;
}

const USER_AGENT_MAX = 300;

/**
 * Signing in and staying signed in (docs/admin-users.md "Sessions"): password checks,
 * server-side sessions behind a random cookie id, invitation links, and the users' API
 * tokens. Rate limits are the HTTP scope's (docs/limits.md); this answers facts.
 */
export class SessionsService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly lifetimes: SessionLifetimes;
      /** What new hashes are made with (passwords.ts): PASSWORD_PARAMETERS but in tests. */
      readonly passwords: ScryptParameters;
    },
  ) {}

  /**
   * The enabled user whose password this is, or undefined. An unknown email, a disabled
   * or invited user are checked against a dummy hash, so that every wrong answer costs the
   * same scrypt and reads the same.
   */
  async checkPassword(email: string, password: string): Promise<AdminUser | undefined> {
    const row = await repo.findUserByEmailKey(this.deps.db.db, emailKey(email));
    const usable = row !== undefined && row.disabled === 0 && row.password_hash !== null;
    const matches = await verifyPassword(password, usable ? row.password_hash! : await dummyPasswordHash(this.deps.passwords));
    if (!usable || !matches) return undefined;
    if (needsRehash(row.password_hash!, this.deps.passwords)) {
      await repo.updateUserRow(this.deps.db.db, row.id, { password_hash: await hashPassword(password, this.deps.passwords) });
    }
    return toAdminUser(row);
  }

  /** A new session for the user (a new random id every sign-in); `replaces`, a session id the browser brought, is revoked. */
  async startSession(user: AdminUser, client: ClientFacts, replaces?: string): Promise<StartedSession> {
    const now = this.deps.clock.now();
    const sessionId = randomToken();
    const csrfToken = randomToken();
    const times = startSession(now, this.deps.lifetimes);
    await this.deps.db.db.transaction().execute(async (trx) => {
      if (replaces !== undefined) await sessionsRepo.revokeSessionRow(trx, tokenHash(replaces), now);
      await sessionsRepo.insertSession(trx, {
        id_hash: tokenHash(sessionId),
        public_id: randomPublicId(),
        user_id: user.id,
        csrf_token: csrfToken,
        created_at: now,
        last_seen_at: times.lastSeenAt,
        idle_expires_at: times.idleExpiresAt,
        expires_at: times.expiresAt,
        revoked_at: null,
        ip: client.ip,
        user_agent: client.userAgent === null ? null : client.userAgent.slice(0, USER_AGENT_MAX),
      });
      await repo.updateUserRow(trx, user.id, { last_sign_in_at: now });
    });
    return { user: { ...user, lastSignInAt: now }, sessionId, csrfToken };
  }

  /** The live session of a cookie's id and its enabled user; moves the idle expiry on, at most once a minute. */
  async findLiveSession(sessionId: string): Promise<LiveSession | undefined> {
    const idHash = tokenHash(sessionId);
    const found = await sessionsRepo.findSessionWithUser(this.deps.db.db, idHash);
    if (found === undefined) return undefined;
    const { session, user } = found;
    const now = this.deps.clock.now();
    const times = {
      lastSeenAt: Number(session.last_seen_at),
      idleExpiresAt: Number(session.idle_expires_at),
      expiresAt: Number(session.expires_at),
      revokedAt: session.revoked_at === null ? null : Number(session.revoked_at),
    };
    if (!isSessionLive(times, now) || user.disabled !== 0 || user.password_hash === null) return undefined;
    const touch = touchSession(times, now, this.deps.lifetimes);
    if (touch) await sessionsRepo.touchSessionRow(this.deps.db.db, idHash, touch.lastSeenAt, touch.idleExpiresAt);
    return { user: toAdminUser(user), idHash, csrfToken: session.csrf_token };
  }

  /** Revokes the session of a cookie's id (one a browser brought to a new sign-in). */
  async signOutId(sessionId: string): Promise<void> {
    await this.signOut(tokenHash(sessionId));
  }

  async signOut(idHash: string): Promise<void> {
    await sessionsRepo.revokeSessionRow(this.deps.db.db, idHash, this.deps.clock.now());
  }

  /** A page of the user's live sessions, newest first, after the key `before`; `currentIdHash` marks the caller's own. */
  async listSessions(
    userId: number,
    currentIdHash: string | undefined,
    before: { createdAt: number; publicId: string } | null,
    limit: number,
  ): Promise<{ items: SessionSummary[]; more: boolean }> {
    const rows = await sessionsRepo.listLiveSessions(this.deps.db.db, userId, this.deps.clock.now(), before, limit + 1);
    return {
      items: rows.slice(0, limit).map((row) => ({
        id: row.public_id,
        createdAt: Number(row.created_at),
        lastSeenAt: Number(row.last_seen_at),
        ip: row.ip,
        userAgent: row.user_agent,
        current: currentIdHash !== undefined && row.id_hash === currentIdHash,
      })),
      more: rows.length > limit,
    };
  }

  /** Revokes a live session of the user by its public id: undefined when they have none such, else whether it was the caller's. */
  async revokeSession(userId: number, publicId: string, currentIdHash: string | undefined): Promise<{ current: boolean } | undefined> {
    const row = await sessionsRepo.revokeUserSession(this.deps.db.db, userId, publicId, this.deps.clock.now());
    return row === undefined ? undefined : { current: row.id_hash === currentIdHash };
  }

  /** Sets a new password when the current one is right (false otherwise) and signs the user out of every other session. */
  async changePassword(user: AdminUser, keepIdHash: string | undefined, current: string, next: string): Promise<boolean> {
    const row = await repo.findUserById(this.deps.db.db, user.id);
    if (row === undefined || row.password_hash === null || !(await verifyPassword(current, row.password_hash))) return false;
    const hash = await hashPassword(next, this.deps.passwords);
    const now = this.deps.clock.now();
    await this.deps.db.db.transaction().execute(async (trx) => {
      await repo.updateUserRow(trx, user.id, { password_hash: hash, updated_at: now });
      await sessionsRepo.revokeUserSessions(trx, user.id, now, keepIdHash);
    });
    return true;
  }

  /** What an open invitation link offers (undefined when unknown, used or expired). */
  async readInvitation(token: string): Promise<{ email: string | null; role: AdminRole } | undefined> {
    const row = await repo.findInvitation(this.deps.db.db, tokenHash(token));
    if (row === undefined || row.used_at !== null || Number(row.expires_at) <= this.deps.clock.now()) return undefined;
    return { email: row.email, role: row.role };
  }

  /**
   * Uses an invitation: sets the password (creating the user for the first owner's link,
   * which has no email: `email` is the one typed) and signs in. The link is claimed by
   * one conditional UPDATE inside the transaction, so of many concurrent uses exactly one
   * gets through; the others find it used (undefined, a 404 like an unknown link).
   */
  async acceptInvitation(
    token: string,
    input: { email?: string; password: string },
    client: ClientFacts,
  ): Promise<StartedSession | undefined> {
    const hash = tokenHash(token);
    const invitation = await this.readInvitation(token);
    if (invitation === undefined) return undefined;
    const typed = input.email?.trim();
    if (invitation.email === null && (typed === undefined || typed === '')) {
      throw new AppError('VALIDATION_FAILED', 'Field `email` is required for this invitation.', { field: 'email' });
    }
    const now = this.deps.clock.now();
    let userId: number | undefined;
    try {
      userId = await this.deps.db.db.transaction().execute(async (trx) => {
        const row = await repo.findInvitation(trx, hash);
        if (row === undefined || !(await repo.claimInvitation(trx, hash, now))) return undefined;
        if (row.user_id !== null) return Number(row.user_id);
        const email = typed!;
        return repo.insertUser(trx, {
          email,
          email_key: emailKey(email),
          password_hash: null,
          role: row.role,
          shops: row.shops,
          disabled: 0,
          created_at: now,
          updated_at: now,
          last_sign_in_at: null,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'A user with this email exists.', { field: 'email' });
      throw error;
    }
    if (userId === undefined) return undefined;
    // Hashed after the claim, so that the losers of a race cost no scrypt.
    const passwordHash = await hashPassword(input.password, this.deps.passwords);
    await this.deps.db.db.transaction().execute(async (trx) => {
      await repo.updateUserRow(trx, userId, { password_hash: passwordHash, updated_at: now });
      await sessionsRepo.revokeUserSessions(trx, userId, now);
    });
    const row = await repo.findUserById(this.deps.db.db, userId);
    if (row === undefined || row.disabled !== 0) return undefined;
    return this.startSession(toAdminUser(row), client);
  }

  /** The enabled user of a `pat_…` API token, or undefined; last_used_at moves at most once a minute. */
  async findApiTokenUser(token: string): Promise<AdminUser | undefined> {
    if (!token.startsWith(API_TOKEN_PREFIX)) return undefined;
    const db = this.deps.db.db;
    const row = await sessionsRepo.findApiTokenByHash(db, tokenHash(token));
    if (row === undefined) return undefined;
    const user = await repo.findUserById(db, Number(row.user_id));
    if (user === undefined || user.disabled !== 0) return undefined;
    const now = this.deps.clock.now();
    if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_SEEN_RESOLUTION_MS) {
      await sessionsRepo.touchApiToken(db, Number(row.id), now);
    }
    return toAdminUser(user);
  }
}
