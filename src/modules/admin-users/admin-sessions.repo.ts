import type { Selectable } from 'kysely';
import type { AdminApiTokensTable, AdminSessionsTable } from '../../db/types.js';
import type { Executor, UserRow } from './admin-users.repo.js';

/** Kysely only: sessions and API tokens of admin users (db/migrations/0034-admin-users.ts). */
export type SessionRow = Selectable<AdminSessionsTable>;
export type ApiTokenRow = Selectable<AdminApiTokensTable>;

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.insertInto('admin_sessions').values(row).execute();
}

/** The session and its user, in one read (every cookie-authenticated request). */
export async function findSessionWithUser(db: Executor, idHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('admin_sessions as s')
    .innerJoin('admin_users as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select([
      'u.email',
      'u.email_key',
      'u.password_hash',
      'u.role',
      'u.shops',
      'u.disabled',
      'u.created_at as user_created_at',
      'u.updated_at as user_updated_at',
      'u.last_sign_in_at',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { email, email_key, password_hash, role, shops, disabled, user_created_at, user_updated_at, last_sign_in_at, ...session } = row;
  const user: UserRow = {
    id: session.user_id,
    email,
    email_key,
    password_hash,
    role,
    shops,
    disabled,
    created_at: user_created_at,
    updated_at: user_updated_at,
    last_sign_in_at,
  };
  return { session: { ...session, user_id: Number(session.user_id) }, user: { ...user, id: Number(user.id) } };
}

export async function touchSessionRow(db: Executor, idHash: string, lastSeenAt: number, idleExpiresAt: number): Promise<void> {
  await db
    .updateTable('admin_sessions')
    .set({ last_seen_at: lastSeenAt, idle_expires_at: idleExpiresAt })
    .where('id_hash', '=', idHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSessionRow(db: Executor, idHash: string, now: number): Promise<void> {
  await db.updateTable('admin_sessions').set({ revoked_at: now }).where('id_hash', '=', idHash).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of the user, but the one kept (the caller's own, on a password change). */
export async function revokeUserSessions(db: Executor, userId: number, now: number, keepIdHash?: string): Promise<void> {
  let query = db.updateTable('admin_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepIdHash !== undefined) query = query.where('id_hash', '<>', keepIdHash);
  await query.execute();
}

/** A page of the user's live sessions, newest first, after the key `before` (created_at, public_id). */
export async function listLiveSessions(
  db: Executor,
  userId: number,
  now: number,
  before: { createdAt: number; publicId: string } | null,
  limit: number,
): Promise<SessionRow[]> {
  let query = db
    .selectFrom('admin_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('idle_expires_at', '>', now)
    .where('expires_at', '>', now);
  if (before !== null) {
    const { createdAt, publicId } = before;
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('public_id', '<', publicId)])]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('public_id', 'desc').limit(limit).execute();
}

/** Revokes the user's live session of this public id: its row, or undefined when the user has no such live session. */
export async function revokeUserSession(db: Executor, userId: number, publicId: string, now: number): Promise<SessionRow | undefined> {
  return db
    .updateTable('admin_sessions')
    .set({ revoked_at: now })
    .where('public_id', '=', publicId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('idle_expires_at', '>', now)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

export async function insertApiToken(
  db: Executor,
  row: { user_id: number; token_hash: string; name: string; created_at: number },
): Promise<number> {
  const inserted = await db
    .insertInto('admin_api_tokens')
    .values({ ...row, last_used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function listApiTokens(db: Executor, userId: number): Promise<ApiTokenRow[]> {
  return db.selectFrom('admin_api_tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function findApiTokenByHash(db: Executor, tokenHash: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('admin_api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function touchApiToken(db: Executor, id: number, now: number): Promise<void> {
  await db.updateTable('admin_api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function deleteApiToken(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('admin_api_tokens').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteUserApiTokens(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('admin_api_tokens').where('user_id', '=', userId).execute();
}
