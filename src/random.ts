import crypto from 'node:crypto';

/**
 * Random identifiers for hot paths (message codes, profile, device and search log ids),
 * drawn from a pool that crypto.randomFillSync refills 4 KiB at a time. A call of
 * crypto.randomBytes costs a trip into OpenSSL each time, some twenty times what a draw
 * from the pool costs, and a /transact request takes two.
 * The bytes come from the same CSPRNG and each is handed out once, as Node's own
 * crypto.randomUUID does with its cache. Each thread has a pool of its own (module state).
 * Secrets and keys are not drawn from here: they are rare, and a pool would hold their
 * bytes in memory before they are issued.
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;

/** The offset of `n` unused bytes of the pool, refilling it when fewer are left. */
function take(n: number): number {
  if (n < 1 || n > 64) throw new RangeError(`between 1 and 64 pooled random bytes at a time, not ${n}`);
  if (offset + n > POOL_SIZE) {
    crypto.randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += n;
  return at;
}

/** `bytes` random bytes (1 to 64), base64url without padding. */
export function randomToken(bytes: number): string {
  const at = take(bytes);
  return pool.toString('base64url', at, at + bytes);
}

/** A copy of `bytes` random bytes (1 to 64). */
export function randomBytes(bytes: number): Buffer {
  const at = take(bytes);
  return Buffer.from(pool.subarray(at, at + bytes));
}

/** 53 random bits as a safe integer, never 0 (so that an id is always truthy). */
export function randomId53(): number {
  for (;;) {
    const at = take(8);
    // The high 21 bits of the first word and the 32 of the second.
    const id = (pool.readUInt32BE(at) >>> 11) * 2 ** 32 + pool.readUInt32BE(at + 4);
    if (id !== 0) return id;
  }
}
