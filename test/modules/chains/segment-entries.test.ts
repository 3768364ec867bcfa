import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { ActiveChain } from '../../../src/modules/chains/chain-starter.js';
import { ChainStarterRecorder } from '../../helpers/chain-starter-recorder.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { generatedRecords, importRecords } from '../audience/audience-fixture.js';
import { triggerStack, type TriggerStack } from './trigger-fixture.js';

const entryChain = (chainId: number, segmentId: number): ActiveChain => ({ chainId, trigger: { kind: 'segment_entry', segmentId } });

/**
 * The segment_entry trigger (issue 17 part 6): membership grows with the requests that
 * add members (POST /segments/add, audience imports), and each entry starts the segment's
 * chains once (docs/chain-triggers.md), on both databases.
 */
describe.each(TEST_DIALECTS)('segment entry trigger on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let starter: ChainStarterRecorder;
  let stack: TriggerStack;
  let shopId: string;
  let segmentId: number;

  beforeAll(async () => {
    db = await createTestDb(dialect);
  });
  afterAll(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    clock = new ManualClock();
    starter = new ChainStarterRecorder();
    stack = triggerStack(db, clock, starter);
    shopId = (await createShopFixture(stack.services)).shopId;
    segmentId = (await stack.services.segments.createSegment(shopId, { name: 'VIP' })).id;
  });

  const addByEmail = async (email: string, segment = segmentId) => {
    await stack.services.profiles.addToSegment(shopId, { identifiers: { email } }, segment);
    await stack.runner.runDue();
  };
  const profileOf = async (email: string) => (await stack.services.identity.findProfiles(shopId, { email }))[0]!.id;

  it('a profile entering the segment starts its chains once per entry', async () => {
    const other = (await stack.services.segments.createSegment(shopId, { name: 'Other' })).id;
    starter.setChains(shopId, [entryChain(1, segmentId), entryChain(2, other)]);
    const at = clock.now();
    await addByEmail('ann@example.com');
    const ann = await profileOf('ann@example.com');
    expect(starter.calls).toEqual([
      {
        outcome: 'started',
        start: { shopId, chainId: 1, profileId: ann, variables: { segment_id: segmentId }, key: `segment_entry/${segmentId}/${at}/${ann}`, at },
      },
    ]);

    // Added again while a member: no entry.
    clock.advance(1000);
    await addByEmail('ann@example.com');
    expect(starter.calls).toHaveLength(1);

    // Leaves and comes back: a new entry (the chain's re-entry rule is the engine's).
    await stack.services.profiles.removeFromSegment(shopId, { identifiers: { email: 'ann@example.com' } }, segmentId);
    clock.advance(1000);
    await addByEmail('ann@example.com');
    expect(starter.started.map((s) => s.key)).toEqual([
      `segment_entry/${segmentId}/${at}/${ann}`,
      `segment_entry/${segmentId}/${at + 2000}/${ann}`,
    ]);
  });

  it('an audience import into the segment enters each new member once, however many records name it', async () => {
    starter.setChains(shopId, [entryChain(1, segmentId)]);
    await addByEmail('customer0@example.org');
    const records = [...generatedRecords(30), { email: 'customer3@example.org', first_name: 'Again' }];
    await importRecords(stack.services, shopId, records, segmentId);
    await stack.runner.runDue();
    const profiles = starter.started.map((s) => s.profileId);
    expect(profiles).toHaveLength(30);
    expect(new Set(profiles).size).toBe(30);
    expect((await stack.services.segments.getSegment(shopId, segmentId)).size).toBe(30);
  });

  it('a segment of zero profiles, a chain on a segment that does not exist, and an import with no valid record start nothing', async () => {
    const empty = (await stack.services.segments.createSegment(shopId, { name: 'Empty' })).id;
    starter.setChains(shopId, [entryChain(1, empty), entryChain(2, 9999)]);
    await addByEmail('ann@example.com');
    const log = await importRecords(stack.services, shopId, [{ email: 'not an email' }, { first_name: 'No identifier' }], empty);
    await stack.runner.runDue();
    expect(log.skipped).toBe(2);
    expect(starter.calls).toEqual([]);
    expect((await stack.services.segments.getSegment(shopId, empty)).size).toBe(0);
    const jobs = await db.db.selectFrom('jobs').select('payload').where('name', '=', 'chains.segment_entries').execute();
    expect(jobs.filter((job) => job.payload.includes(`"${shopId}"`))).toHaveLength(1);
  });

  it('an entry handed over twice, or after a restart, starts no second run', async () => {
    starter.setChains(shopId, [entryChain(1, segmentId)]);
    await stack.services.profiles.addToSegment(shopId, { identifiers: { email: 'ann@example.com' } }, segmentId);
    stack = triggerStack(db, clock, starter);
    await stack.runner.runDue();
    expect(starter.calls).toHaveLength(1);

    const job = await db.db.selectFrom('jobs').select('payload').where('name', '=', 'chains.segment_entries').where('payload', 'like', `%${shopId}%`).executeTakeFirstOrThrow();
    await stack.triggers.handSegmentEntries(JSON.parse(job.payload));
    stack = triggerStack(db, clock, starter);
    await stack.runner.runDue();
    expect(starter.calls.map((call) => call.outcome)).toEqual(['started', 'duplicate']);
  });
});
