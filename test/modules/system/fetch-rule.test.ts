import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { FETCH_RULE_ALIVE_MS, FetchRuleAgreement, FetchRuleConflict, type FetchRule } from '../../../src/modules/system/fetch-rule.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';

/** PATRON_FETCH_ALLOW_PRIVATE agreed between the processes on one database (modules/system/fetch-rule.ts). */
describe.each(TEST_DIALECTS)('the fetch rule agreement on %s', (dialect) => {
  let db: TestDb;
  const clock = new ManualClock();
  const joined: FetchRuleAgreement[] = [];

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    for (const agreement of joined) await agreement.leave();
    await db.cleanup();
  });

  async function join(rule: FetchRule): Promise<FetchRuleAgreement> {
    const agreement = new FetchRuleAgreement({ db, clock, rule });
    await agreement.join();
    joined.push(agreement);
    return agreement;
  }

  it('lets processes with the same rule start, however the ranges are written', async () => {
    const first = await join(['10.1.2.3', 'fd00::/8']);
    const second = await join(['FD00:0::/8', '10.1.2.3/32', '10.1.2.3']);
    await second.leave();
    await first.leave();
  });

  it('refuses a process whose rule differs from a live one, naming both, and records nothing for it', async () => {
    const strict = await join(false);
    await expect(join(['127.0.0.1'])).rejects.toThrow(FetchRuleConflict);
    await expect(join(true)).rejects.toThrow(
      'PATRON_FETCH_ALLOW_PRIVATE is "true" here, but "false" in another process running on this database',
    );
    const rows = await db.db.selectFrom('settings').select('key').where('key', 'like', 'fetch_rule:%').execute();
    expect(rows).toHaveLength(1);
    // Once the strict process has stopped, another rule may start.
    await strict.leave();
    const loose = await join(['127.0.0.1']);
    await loose.leave();
  });

  it('keeps a process that heartbeats alive, and forgets one not heard of for FETCH_RULE_ALIVE_MS', async () => {
    const killed = await join(false);
    clock.advance(FETCH_RULE_ALIVE_MS - 1_000);
    await killed.beat();
    clock.advance(FETCH_RULE_ALIVE_MS - 1_000);
    await expect(join(true)).rejects.toThrow(FetchRuleConflict);
    // Killed: it no longer beats, and after the window its entry is gone.
    clock.advance(1_000);
    const next = await join(true);
    const rows = await db.db.selectFrom('settings').select('key').where('key', 'like', 'fetch_rule:%').execute();
    expect(rows).toHaveLength(1);
    await next.leave();
  });
});
