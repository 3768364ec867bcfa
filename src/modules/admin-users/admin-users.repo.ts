import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { AdminInvitationsTable, AdminUsersTable, Database } from '../../db/types.js';

/** Kysely only: the admin users and their invitations (db/migrations/0034-admin-users.ts). */
export type Executor = Kysely<Database> | Transaction<Database>;
export type UserRow = Selectable<AdminUsersTable>;
export type InvitationRow = Selectable<AdminInvitationsTable>;

export async function insertUser(db: Executor, row: Insertable<AdminUsersTable>): Promise<number> {
  const inserted = await db.insertInto('admin_users').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('admin_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmailKey(db: Executor, key: string): Promise<UserRow | undefined> {
  return db.selectFrom('admin_users').selectAll().where('email_key', '=', key).executeTakeFirst();
}

export async function listUserRows(db: Executor): Promise<UserRow[]> {
  return db.selectFrom('admin_users').selectAll().orderBy('id').execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('admin_users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateUserRow(db: Executor, id: number, patch: Updateable<AdminUsersTable>): Promise<UserRow | undefined> {
  return db.updateTable('admin_users').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteUserRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('admin_users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Locks every enabled owner's row for the rest of the transaction (a no-op write: a row
 * lock on PostgreSQL, the write lock on SQLite), then counts them: two requests that each
 * demote or remove one of the last two owners run one after the other, and the second
 * sees one owner left.
 */
export async function lockAndCountOwners(trx: Transaction<Database>): Promise<number> {
  await trx
    .updateTable('admin_users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('role', '=', 'owner')
    .where('disabled', '=', 0)
    .execute();
  const row = await trx
    .selectFrom('admin_users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'owner')
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertInvitation(db: Executor, row: InvitationRow): Promise<void> {
  await db.insertInto('admin_invitations').values(row).execute();
}

export async function findInvitation(db: Executor, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('admin_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the invitation used if it is unused and unexpired: true for exactly one caller. */
export async function claimInvitation(db: Executor, tokenHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('admin_invitations')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Voids a user's open invitations (a new link replaces them). */
export async function voidInvitations(db: Executor, userId: number, now: number): Promise<void> {
  await db.updateTable('admin_invitations').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** Whether an open invitation without a user (the first owner's) exists. */
export async function hasOpenOwnerInvitation(db: Executor, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('admin_invitations')
    .select('token_hash')
    .where('user_id', 'is', null)
    .where('role', '=', 'owner')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}
