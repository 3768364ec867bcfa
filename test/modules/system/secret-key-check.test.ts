import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { SecretBox } from '../../../src/modules/messaging/secret-box.js';
import { SecretKeyCheck, SecretKeyMismatch } from '../../../src/modules/system/secret-key-check.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';

/** One secret key for every process on a database (modules/system/secret-key-check.ts). */
describe.each(TEST_DIALECTS)('the secret key check on %s', (dialect) => {
  let db: TestDb;
  const clock = new ManualClock();

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });

  function check(hexKey: string): SecretKeyCheck {
    const box = new SecretBox({ secretKey: hexKey, dataDir: '/nonexistent' });
    return new SecretKeyCheck({ db, clock, keyCheck: () => box.keyCheck(), fromEnvironment: true, keyFile: '/nonexistent/secret.key' });
  }

  it('of two first starts with different keys lets one through and refuses the other; adopt records a new key', async () => {
    const keyA = '1'.repeat(64);
    const keyB = '2'.repeat(64);
    const outcomes = await Promise.allSettled([check(keyA).verify(), check(keyB).verify()]);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(SecretKeyMismatch);
    expect(String(refused[0]!.reason.message)).toContain('PATRON_SECRET_KEY');
    expect(String(refused[0]!.reason.message)).not.toMatch(/1111|2222/);

    const winner = outcomes[0].status === 'fulfilled' ? keyA : keyB;
    const loser = winner === keyA ? keyB : keyA;
    await expect(check(winner).verify()).resolves.toBeUndefined();
    await check(loser).adopt();
    await expect(check(loser).verify()).resolves.toBeUndefined();
    await expect(check(winner).verify()).rejects.toThrow(SecretKeyMismatch);
  });
});
