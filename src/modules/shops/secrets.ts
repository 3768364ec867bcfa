import crypto from 'node:crypto';
import { constantTimeEqual } from '../../constant-time.js';

/**
 * Shop secrets and admin tokens are long random strings (240 bits), so a single SHA-256
 * is a sufficient one-way hash at rest: there is nothing to brute-force, and a slow KDF
 * would put milliseconds of CPU on every authenticated API call. Comparison is constant
 * time over fixed-length digests, so neither the secret nor its length leaks.
 */

export function generateShopId(): string {
  return crypto.randomBytes(15).toString('hex');
}

export function generateSecret(): string {
  return crypto.randomBytes(30).toString('base64url');
}

export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `candidate` is the secret or token whose hashSecret is `storedHash` (shop secrets, the admin token, wallet pass tokens). */
export function secretMatches(candidate: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = crypto.createHash('sha256').update(candidate, 'utf8').digest();
  return constantTimeEqual(actual, expected);
}
