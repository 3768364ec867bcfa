import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { constantTimeEqual } from '../../constant-time.js';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * Passwords are hashed with scrypt (node:crypto), a random 16-byte salt each, into
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url): the parameters travel with the hash, so
 * they can be raised later and old hashes still verify (and `needsRehash` says which to
 * redo at the next sign-in). N = 2^15, r = 8: 32 MiB and some 100 ms of one core a
 * hash, run in libuv's thread pool, off the event loop. A password is never logged:
 * nothing here formats it into a message.
 */
export interface ScryptParameters {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

export const PASSWORD_PARAMETERS: ScryptParameters = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });

/**
 * For test runs alone (PATRON_INSECURE_TEST_PASSWORD_HASHING=on, config.ts): N = 2^10, a
 * millisecond or two a hash, so that the tests' hundreds of users and sign-ins do not spend
 * a tenth of a second of CPU each. Never for a real server: a stolen hash of it is cheap
 * to guess against.
 */
export const INSECURE_TEST_PASSWORD_PARAMETERS: ScryptParameters = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });

const KEY_LENGTH = 32;
/** Bounds on stored parameters, so that a tampered hash cannot make one verification take minutes or all memory. */
const MAX_N = 2 ** 20;
const MAX_RP = 64;

export async function hashPassword(password: string, parameters: ScryptParameters = PASSWORD_PARAMETERS): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await derive(password, salt, parameters);
  return ['scrypt', parameters.N, parameters.r, parameters.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; false for a malformed hash. Constant time over the digest. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (parsed === undefined) return false;
  const actual = await derive(password, parsed.salt, parsed.parameters, parsed.hash.length);
  return constantTimeEqual(actual, parsed.hash);
}

/** True when the hash was made with weaker parameters than today's (`parameters`). */
export function needsRehash(stored: string, parameters: ScryptParameters = PASSWORD_PARAMETERS): boolean {
  const parsed = parseHash(stored);
  return parsed === undefined || parsed.parameters.N < parameters.N || parsed.parameters.r < parameters.r;
}

const dummies = new Map<string, Promise<string>>();

/**
 * A hash of no one's password, made once per process (and parameters) on first need: an
 * unknown email is verified against it, so that it takes as long as a wrong password of a known one.
 */
export function dummyPasswordHash(parameters: ScryptParameters = PASSWORD_PARAMETERS): Promise<string> {
  const key = `${parameters.N}$${parameters.r}$${parameters.p}`;
  let dummy = dummies.get(key);
  if (dummy === undefined) {
    dummy = hashPassword(crypto.randomBytes(16).toString('base64url'), parameters);
    dummies.set(key, dummy);
  }
  return dummy;
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters, length = KEY_LENGTH): Promise<Buffer> {
  const { N, r, p } = parameters;
  return scrypt(password.normalize('NFC'), salt, length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
}

function parseHash(stored: string): { parameters: ScryptParameters; salt: Buffer; hash: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || ![r, p].every((v) => Number.isInteger(v) && v >= 1 && v <= MAX_RP)) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const hash = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length < 8 || hash.length < 16) return undefined;
  return { parameters: { N, r, p }, salt, hash };
}
