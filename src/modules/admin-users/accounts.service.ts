import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import * as sessionsRepo from './admin-sessions.repo.js';
import * as repo from './admin-users.repo.js';
import { emailKey, normalizeShops, type AdminRole, type AdminUser } from './domain/user.js';
import { hashPassword, type ScryptParameters } from './passwords.js';
import { newApiToken, randomToken, tokenHash } from './secrets.js';
import { shopsColumn, toAdminUser } from './user-rows.js';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface CreateUserInput {
  readonly email: string;
  readonly password?: string;
  readonly role: AdminRole;
  readonly shops?: readonly string[] | null;
}

export interface UserPatch {
  readonly role?: AdminRole;
  readonly shops?: readonly string[] | null;
  readonly disabled?: boolean;
}

export interface ApiTokenInfo {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

const NOT_FOUND = 'The user does not exist.';
const LAST_OWNER = 'The last owner cannot be demoted, disabled or removed; make another user an owner first.';

/**
 * The team of the admin UI: users, their roles and shops, the invitation links that let
 * them set a password, and their API tokens (docs/admin-users.md). Who may call what is
 * decided before (admin-api/authorization.hook.ts); this keeps the invariants: unique
 * emails, at least one enabled owner, a disabled or removed user's sessions and tokens gone.
 */
export class AccountsService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: ShopsService;
      /** What new hashes are made with (passwords.ts): PASSWORD_PARAMETERS but in tests. */
      readonly passwords: ScryptParameters;
    },
  ) {}

  async listUsers(): Promise<AdminUser[]> {
    return (await repo.listUserRows(this.deps.db.db)).map(toAdminUser);
  }

  async findUser(id: number): Promise<AdminUser | undefined> {
    const row = await repo.findUserById(this.deps.db.db, id);
    return row === undefined ? undefined : toAdminUser(row);
  }

  async requireUser(id: number): Promise<AdminUser> {
    const user = await this.findUser(id);
    if (user === undefined) throw new AppError('NOT_FOUND', NOT_FOUND);
    return user;
  }

  async findUserByEmail(email: string): Promise<AdminUser | undefined> {
    const row = await repo.findUserByEmailKey(this.deps.db.db, emailKey(email));
    return row === undefined ? undefined : toAdminUser(row);
  }

  async countUsers(): Promise<number> {
    return repo.countUsers(this.deps.db.db);
  }

  /** A user with a password is active at once; without one, invited: `inviteToken` is the link's token, shown once. */
  async createUser(input: CreateUserInput): Promise<{ user: AdminUser; inviteToken?: string }> {
    const shops = normalizeShops(input.shops);
    await this.checkShops(shops);
    const now = this.deps.clock.now();
    const email = input.email.trim();
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password, this.deps.passwords);
    try {
      return await this.deps.db.db.transaction().execute(async (trx) => {
        const id = await repo.insertUser(trx, {
          email,
          email_key: emailKey(email),
          password_hash: passwordHash,
          role: input.role,
          shops: shopsColumn(shops),
          disabled: 0,
          created_at: now,
          updated_at: now,
          last_sign_in_at: null,
        });
        const user = toAdminUser((await repo.findUserById(trx, id))!);
        if (passwordHash !== null) return { user };
        const inviteToken = await this.insertInvitation(trx, { email, role: input.role, shops, userId: id }, now);
        return { user, inviteToken };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'A user with this email exists.', { field: 'email' });
      throw error;
    }
  }

  /** Changes role, shops or the disabled flag; disabling revokes the user's sessions and tokens. */
  async updateUser(id: number, patch: UserPatch): Promise<AdminUser> {
    const shops = patch.shops === undefined ? undefined : normalizeShops(patch.shops);
    if (shops !== undefined) await this.checkShops(shops);
    const now = this.deps.clock.now();
    return this.deps.db.db.transaction().execute(async (trx) => {
      const before = await repo.findUserById(trx, id);
      if (before === undefined) throw new AppError('NOT_FOUND', NOT_FOUND);
      const losesOwner =
        before.role === 'owner' &&
        before.disabled === 0 &&
        ((patch.role !== undefined && patch.role !== 'owner') || patch.disabled === true);
      if (losesOwner && (await repo.lockAndCountOwners(trx)) <= 1) throw new AppError('CONFLICT', LAST_OWNER);
      const row = await repo.updateUserRow(trx, id, {
        ...(patch.role === undefined ? {} : { role: patch.role }),
        ...(shops === undefined ? {} : { shops: shopsColumn(shops) }),
        ...(patch.disabled === undefined ? {} : { disabled: patch.disabled ? 1 : 0 }),
        updated_at: now,
      });
      if (patch.disabled === true) await this.revokeEverything(trx, id, now);
      return toAdminUser(row!);
    });
  }

  async deleteUser(id: number): Promise<void> {
    await this.deps.db.db.transaction().execute(async (trx) => {
      const before = await repo.findUserById(trx, id);
      if (before === undefined) throw new AppError('NOT_FOUND', NOT_FOUND);
      if (before.role === 'owner' && before.disabled === 0 && (await repo.lockAndCountOwners(trx)) <= 1) {
        throw new AppError('CONFLICT', LAST_OWNER);
      }
      await this.revokeEverything(trx, id, this.deps.clock.now());
      await repo.deleteUserRow(trx, id);
    });
  }

  /**
   * A new one-time link for an existing user (the invitation again, or a password reset):
   * earlier open links of the user stop working. With `revokeSessions`, the user is signed
   * out everywhere now (`patron user reset-password`); otherwise when the link is used.
   */
  async issueInvitation(id: number, options: { readonly revokeSessions?: boolean } = {}): Promise<string> {
    const now = this.deps.clock.now();
    return this.deps.db.db.transaction().execute(async (trx) => {
      const row = await repo.findUserById(trx, id);
      if (row === undefined) throw new AppError('NOT_FOUND', NOT_FOUND);
      const user = toAdminUser(row);
      await repo.voidInvitations(trx, id, now);
      if (options.revokeSessions) await sessionsRepo.revokeUserSessions(trx, id, now);
      return this.insertInvitation(trx, { email: user.email, role: user.role, shops: user.shops, userId: id }, now);
    });
  }

  /**
   * The first owner's invitation (no email: the person types it), when no user exists and
   * no such link is open yet: its token, shown once; undefined otherwise.
   */
  async ensureFirstOwnerInvitation(): Promise<string | undefined> {
    const db = this.deps.db.db;
    const now = this.deps.clock.now();
    if ((await repo.countUsers(db)) > 0 || (await repo.hasOpenOwnerInvitation(db, now))) return undefined;
    return this.insertInvitation(db, { email: null, role: 'owner', shops: null, userId: null }, now);
  }

  async createApiToken(userId: number, name: string): Promise<{ id: number; name: string; token: string }> {
    await this.requireUser(userId);
    const token = newApiToken();
    const id = await sessionsRepo.insertApiToken(this.deps.db.db, {
      user_id: userId,
      token_hash: tokenHash(token),
      name,
      created_at: this.deps.clock.now(),
    });
    return { id, name, token };
  }

  async listApiTokens(userId: number): Promise<ApiTokenInfo[]> {
    await this.requireUser(userId);
    return (await sessionsRepo.listApiTokens(this.deps.db.db, userId)).map((row) => ({
      id: Number(row.id),
      name: row.name,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    }));
  }

  async deleteApiToken(userId: number, tokenId: number): Promise<void> {
    if (!(await sessionsRepo.deleteApiToken(this.deps.db.db, userId, tokenId))) {
      throw new AppError('NOT_FOUND', 'The API token does not exist.');
    }
  }

  private async insertInvitation(
    db: repo.Executor,
    invitation: { email: string | null; role: AdminRole; shops: readonly string[] | null; userId: number | null },
    now: number,
  ): Promise<string> {
    const token = randomToken();
    await repo.insertInvitation(db, {
      token_hash: tokenHash(token),
      email: invitation.email,
      role: invitation.role,
      shops: shopsColumn(invitation.shops),
      user_id: invitation.userId,
      created_at: now,
      expires_at: now + INVITATION_TTL_MS,
      used_at: null,
    });
    return token;
  }

  private async revokeEverything(db: repo.Executor, userId: number, now: number): Promise<void> {
    await sessionsRepo.revokeUserSessions(db, userId, now);
    await sessionsRepo.deleteUserApiTokens(db, userId);
    await repo.voidInvitations(db, userId, now);
  }

  private async checkShops(shops: readonly string[] | null): Promise<void> {
    if (shops === null) return;
    for (const shopId of shops) {
      if ((await this.deps.shops.getShop(shopId)) === undefined) {
        throw new AppError('VALIDATION_FAILED', `Field \`shops\` names a shop that does not exist: ${shopId}.`, { field: 'shops' });
      }
    }
  }
}
