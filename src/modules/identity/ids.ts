import { randomBytes, randomId53 } from '../../random.js';

/**
 * Random identifiers of the identity module. Profile ids are random rather than serial
 * because the primary key is (shop_id, id) and SQLite cannot auto-increment a column of
 * a composite key; random ids also leak nothing about a shop's size. Below 2^53 they stay
 * exact as JavaScript numbers. A collision (odds about n²/2^54 for n profiles of one
 * shop) fails the primary key and the insert is retried with a new id.
 */

export function generateProfileId(): number {
  // 53 random bits; 0 is skipped so that an id is always truthy.
  return randomId53();
}

/**
 * The first of `count` consecutive profile ids for a batch (an audience import's chunk),
 * from a random start. Consecutive ids land side by side in every index keyed by profile
 * id (profiles, and the tables of other modules that are keyed by it), so a batch of new
 * profiles writes a few index pages instead of one random page per profile, which is
 * what made large imports slow down as a shop grew. Across batches the starts are as
 * random as single ids; a collision fails the insert and the batch runs again.
 */
export function generateProfileIdRange(count: number): number {
  const span = 2 ** 53 - 1 - count;
  for (;;) {
    const start = randomId53();
    if (start <= span) return start;
  }
}

const DEVICE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const DEVICE_ID_LENGTH = 10;

/**
 * A device id as Patron issues it (also the format of a session id): 10 characters of [A-Za-z0-9], uniform
 * over the alphabet (bytes from 248 up are dropped so that 62 divides the range).
 */
export function generateDeviceId(): string {
  let id = '';
  while (id.length < DEVICE_ID_LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && id.length < DEVICE_ID_LENGTH) id += DEVICE_ID_ALPHABET[byte % 62];
    }
  }
  return id;
}
