import type { UserRow } from './admin-users.repo.js';
import type { AdminUser } from './domain/user.js';

/** A stored row as the services speak of it. */
export function toAdminUser(row: UserRow): AdminUser {
  return {
    id: Number(row.id),
    email: row.email,
    role: row.role,
    shops: row.shops === null ? null : (JSON.parse(row.shops) as string[]),
    disabled: row.disabled === 1,
    createdAt: Number(row.created_at),
    lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
    status: row.password_hash === null ? 'invited' : 'active',
  };
}

export function shopsColumn(shops: readonly string[] | null): string | null {
  return shops === null ? null : JSON.stringify(shops);
}
