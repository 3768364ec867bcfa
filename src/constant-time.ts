import crypto from 'node:crypto';

/**
 * Secrets, token digests and signatures are compared in time that does not depend on
 * where they differ, so that a caller cannot find a valid one byte by byte. Two values of
 * different lengths are unequal at once: what is compared is a digest or a signature of a
 * fixed length, whose length tells nothing.
 */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const x = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
  const y = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
