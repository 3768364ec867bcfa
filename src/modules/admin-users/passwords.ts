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

/** True when the hash was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  return parsed === undefined || parsed.parameters.N < PASSWORD_PARAMETERS.N || parsed.parameters.r < PASSWORD_PARAMETERS.r;
}

let dummy: Promise<string> | undefined;

/**
 * A hash of no one's password, made once per process on first need: an unknown email is
 * verified against it, so that it takes as long as a wrong password of a known one.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString('base64url'));
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
