import { beforeEach, describe, expect, it } from 'vitest';
import type { ActiveChain } from '../../../src/modules/chains/chain-starter.js';
import { TEST_DIALECTS } from '../../helpers/db.js';
import { generatedRecords, importRecords } from '../audience/audience-fixture.js';
import { triggerStack, useTriggerTests } from './trigger-fixture.js';

const entryChain = (chainId: number, segmentId: number): ActiveChain => ({ chainId, trigger: { kind: 'segment_entry', segmentId } });

/**
 * The segment_entry trigger (issue 17 part 6): membership grows with the requests that
 * add members (POST /segments/add, audience imports), and each entry starts the segment's
 * chains once (docs/chains.md, "Triggers"), on both databases.
 */
describe.each(TEST_DIALECTS)('segment entry trigger on %s', (dialect) => {
  const t = useTriggerTests(dialect);
  let segmentId: number;

  beforeEach(async () => {
    segmentId = (await t.stack.services.segments.createSegment(t.shopId, { name: 'VIP' })).id;
  });

  const addByEmail = async (email: string, segment = segmentId) => {
    await t.stack.services.profiles.addToSegment(t.shopId, { identifiers: { email } }, segment);
    await t.stack.runner.runDue();
  };
  const profileOf = async (email: string) => (await t.stack.services.identity.findProfiles(t.shopId, { email }))[0]!.id;

  it('a profile entering the segment starts its chains once per entry', async () => {
    const other = (await t.stack.services.segments.createSegment(t.shopId, { name: 'Other' })).id;
    t.starter.setChains(t.shopId, [entryChain(1, segmentId), entryChain(2, other)]);
    const at = t.clock.now();
    await addByEmail('ann@example.com');
    const ann = await profileOf('ann@example.com');
    expect(t.starter.calls).toEqual([
      {
        outcome: 'started',
        start: {
          shopId: t.shopId,
          chainId: 1,
          profileId: ann,
          variables: { segment_id: segmentId },
          key: `segment_entry/${segmentId}/${at}/${ann}`,
          at,
        },
      },
    ]);

    // Added again while a member: no entry.
    t.clock.advance(1000);
    await addByEmail('ann@example.com');
    expect(t.starter.calls).toHaveLength(1);

    // Leaves and comes back: a new entry (the chain's re-entry rule is the engine's).
    await t.stack.services.profiles.removeFromSegment(t.shopId, { identifiers: { email: 'ann@example.com' } }, segmentId);
    t.clock.advance(1000);
    await addByEmail('ann@example.com');
    expect(t.starter.started.map((s) => s.key)).toEqual([
      `segment_entry/${segmentId}/${at}/${ann}`,
      `segment_entry/${segmentId}/${at + 2000}/${ann}`,
    ]);
  });

  it('an audience import into the segment enters each new member once, however many records name it', async () => {
    t.starter.setChains(t.shopId, [entryChain(1, segmentId)]);
    await addByEmail('customer0@example.org');
    const records = [...generatedRecords(30), { email: 'customer3@example.org', first_name: 'Again' }];
    await importRecords(t.stack.services, t.shopId, records, segmentId);
    await t.stack.runner.runDue();
    const profiles = t.starter.started.map((s) => s.profileId);
    expect(profiles).toHaveLength(30);
    expect(new Set(profiles).size).toBe(30);
    expect((await t.stack.services.segments.getSegment(t.shopId, segmentId)).size).toBe(30);
  });

  it('a segment of zero profiles, a chain on a segment that does not exist, and an import with no valid record start nothing', async () => {
    const empty = (await t.stack.services.segments.createSegment(t.shopId, { name: 'Empty' })).id;
    t.starter.setChains(t.shopId, [entryChain(1, empty), entryChain(2, 9999)]);
    await addByEmail('ann@example.com');
    const log = await importRecords(t.stack.services, t.shopId, [{ email: 'not an email' }, { first_name: 'No identifier' }], empty);
    await t.stack.runner.runDue();
    expect(log.skipped).toBe(2);
    expect(t.starter.calls).toEqual([]);
    expect((await t.stack.services.segments.getSegment(t.shopId, empty)).size).toBe(0);
    const jobs = await t.db.db.selectFrom('jobs').select('payload').where('name', '=', 'chains.segment_entries').execute();
    expect(jobs.filter((job) => job.payload.includes(`"${t.shopId}"`))).toHaveLength(1);
  });

  it('an entry handed over twice, or after a restart, starts no second run', async () => {
    t.starter.setChains(t.shopId, [entryChain(1, segmentId)]);
    await t.stack.services.profiles.addToSegment(t.shopId, { identifiers: { email: 'ann@example.com' } }, segmentId);
    t.stack = triggerStack(t.db, t.clock, t.starter);
    await t.stack.runner.runDue();
    expect(t.starter.calls).toHaveLength(1);

    const job = await t.db.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'chains.segment_entries')
      .where('payload', 'like', `%${t.shopId}%`)
      .executeTakeFirstOrThrow();
    await t.stack.triggers.handSegmentEntries(JSON.parse(job.payload));
    t.stack = triggerStack(t.db, t.clock, t.starter);
    await t.stack.runner.runDue();
    expect(t.starter.calls.map((call) => call.outcome)).toEqual(['started', 'duplicate']);
  });
});
