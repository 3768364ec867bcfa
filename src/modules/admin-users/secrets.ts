import crypto from 'node:crypto';
import { hashSecret } from '../shops/index.js';

/**
 * The random credentials of admin users: session ids, CSRF tokens, invitation tokens and
 * API tokens, 32 random bytes each. Only their SHA-256 is stored (a CSRF token excepted:
 * it is worthless without the session cookie, whose id is stored hashed); 256 random bits
 * leave nothing to brute-force, so a fast hash is enough (as for shop secrets).
 */
export const API_TOKEN_PREFIX = 'pat_';

export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** The public id of a session (16 random bytes): it names the session, and signs no one in. */
export function randomPublicId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomToken()}`;
}

export function tokenHash(token: string): string {
  return hashSecret(token);
}
