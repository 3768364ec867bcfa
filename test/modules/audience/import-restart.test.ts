import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { loadConfig } from '../../../src/config.js';
import { createDb, type DbHandle } from '../../../src/db/create-db.js';
import { BATCH_RECORDS } from '../../../src/modules/audience/domain/limits.js';
import { createJobRunner } from '../../../src/process/job-runner.js';
import { createLogger } from '../../../src/process/logger.js';
import type { MergeParticipant } from '../../../src/modules/identity/identity.service.js';
import { createServices, type Services, type TestProbes } from '../../../src/services.js';
import { createTestDb, TEST_DIALECTS, type TestDb } from '../../helpers/db.js';
import { createShopFixture } from '../../helpers/factories.js';
import { generatedRecords, toChunks } from './audience-fixture.js';

/**
 * An import stopped in the middle (the process stopped between chunks, a chunk failed
 * half-written, two workers ran it at once) ends with every record imported exactly
 * once, and the log says done; on the final attempt it fails, keeping what it imported
 * and saying where it stopped.
 */

const config = loadConfig({ LOG_LEVEL: 'silent' });

describe.each(TEST_DIALECTS)('audience import restarts on %s', (dialect) => {
  let db: TestDb;
  let clock: ManualClock;
  let services: Services;
  let shopId: string;
  let segmentId: number;
  const extraHandles: DbHandle[] = [];

  /** A second "process" on the same database: its own connection and services. */
  function otherProcess(probes?: TestProbes): Services {
    const handle = createDb(db.options);
    extraHandles.push(handle);
    return createServices({ config, db: handle, clock, ...(probes && { probes }) });
  }

  beforeAll(async () => {
    db = await createTestDb(dialect);
    clock = new ManualClock();
    services = createServices({ config, db, clock });
  });
  afterAll(async () => {
    for (const handle of extraHandles) await handle.destroy();
    await db.cleanup();
  });
  beforeEach(async () => {
    shopId = (await createShopFixture(services)).shopId;
    segmentId = (await services.segments.createSegment(shopId, { name: 'All' })).id;
    clock.advance(1000);
  });

  /** Where the record that links the two stored profiles sits: in the third batch or later. */
  const LINKED = 2 * BATCH_RECORDS + 5;
  const GENERATED = 3 * BATCH_RECORDS;
  const EXTRA = 490;

  /**
   * Three batches of generated records and more; one record links two stored profiles (a
   * merge), and ten records at the end repeat the first ten emails with new names.
   */
  async function submit(): Promise<{ importId: number; received: number }> {
    await services.audience.submitImport(shopId, {
      chunks: toChunks([{ email: 'stored@example.org' }, { phone: '79990000001', last_name: 'Stored' }]),
    });
    const [stored] = await services.audience.listImports(shopId);
    await services.audience.runImport({ shopId, importId: stored!.id });
    clock.advance(1000);
    const records: unknown[] = generatedRecords(GENERATED);
    records[LINKED] = { email: 'stored@example.org', phone: '79990000001', first_name: 'Linked' };
    records.push(...generatedRecords(10).map((r) => ({ email: r.email, first_name: 'Again' })), ...generatedRecords(EXTRA, 1_000_000));
    const submitted = await services.audience.submitImport(shopId, { chunks: toChunks(records), segmentId });
    return { importId: submitted.id, received: records.length };
  }

  async function liveProfiles(): Promise<number> {
    const row = await db.db
      .selectFrom('profiles')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('shop_id', '=', shopId)
      .where('merged_into', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Every record exactly once: the counts, the profiles, the segment, the one merge. */
  async function expectImportedOnce(importId: number, received: number): Promise<void> {
    const done = await services.audience.getImport(shopId, importId);
    expect(done).toMatchObject({ status: 'done', received, processed: received, imported: received, skipped: 0 });
    // The generated people, less the one the linked record replaced, and the extras; plus the stored profile.
    const people = GENERATED - 1 + EXTRA + 1;
    expect(done?.profilesCreated).toBe(people - 1);
    expect(await liveProfiles()).toBe(people);
    expect((await services.segments.getSegment(shopId, segmentId)).size).toBe(people);
    const [linked] = await services.identity.findProfiles(shopId, { email: 'stored@example.org' });
    expect(linked).toMatchObject({ phone: '79990000001' });
    expect(await services.identity.listMerges(shopId, linked!.id)).toHaveLength(1);
    expect((await services.audience.getCustomerAttributes(shopId, linked!.id))?.fields).toEqual({
      first_name: 'Linked',
      last_name: 'Stored',
    });
    const [again] = await services.identity.findProfiles(shopId, { email: 'customer3@example.org' });
    expect((await services.audience.getCustomerAttributes(shopId, again!.id))?.fields).toEqual({ first_name: 'Again' });
    const chunksLeft = await db.db
      .selectFrom('audience_import_chunks')
      .select('seq')
      .where('shop_id', '=', shopId)
      .where('import_id', '=', importId)
      .execute();
    expect(chunksLeft).toEqual([]);
  }

  it('resumes in another process where a stopped run left off', async () => {
    const { importId, received } = await submit();
    const stop = new AbortController();
    const run = services.audience.runImport(
      { shopId, importId },
      { signal: stop.signal, onProgress: ({ processed }) => processed >= BATCH_RECORDS && stop.abort(new Error('SIGTERM')) },
    );
    await expect(run).rejects.toThrow('SIGTERM');
    const stopped = await services.audience.getImport(shopId, importId);
    expect(stopped).toMatchObject({ status: 'queued' });
    const processed = stopped!.processed;
    expect(processed).toBeGreaterThanOrEqual(BATCH_RECORDS);
    expect(processed).toBeLessThan(LINKED);
    expect(stopped).toMatchObject({ imported: processed, profilesCreated: processed });
    // Every record read so far made its profile; none of the rest did.
    expect(await liveProfiles()).toBe(processed + 2);
    expect(await services.identity.findProfiles(shopId, { email: `customer${processed}@example.org` })).toEqual([]);

    await otherProcess().audience.runImport({ shopId, importId });
    await expectImportedOnce(importId, received);
    expect((await services.audience.getImport(shopId, importId))?.log.history.map((h) => h.status)).toEqual([
      'queued',
      'running',
      'queued',
      'running',
      'done',
    ]);
  });

  it('rolls a chunk that failed half-way back whole, and the job runner redoes it once', async () => {
    const { importId, received } = await submit();
    let failures = 1;
    const failing: MergeParticipant = {
      name: 'failing',
      merge: () => {
        if (failures === 0) return Promise.resolve();
        failures -= 1;
        return Promise.reject(new Error('disk I/O error'));
      },
    };
    const own = createServices({ config, db, clock, probes: { mergeParticipants: [failing] } });
    const runner = createJobRunner({ config, services: own, clock, log: createLogger('silent') });

    await runner.runDue();
    const failed = await services.audience.getImport(shopId, importId);
    expect(failed).toMatchObject({ status: 'queued' });
    // The batch of the linked record failed whole: none of its profiles, no merge.
    expect(failed!.processed).toBeLessThanOrEqual(LINKED);
    expect(await liveProfiles()).toBe(failed!.processed + 2);
    expect(await services.identity.findProfiles(shopId, { email: `customer${LINKED - 1}@example.org` })).toEqual([]);
    const [storedPhone] = await services.identity.findProfiles(shopId, { phone: '79990000001' });
    expect(storedPhone?.email).toBeNull();

    clock.advance(60_000);
    expect(await runner.runDue()).toBeGreaterThanOrEqual(1);
    await expectImportedOnce(importId, received);
  });

  it('writes each chunk once when two workers run the import at the same time', async () => {
    const { importId, received } = await submit();
    // PostgreSQL: two connections, truly at once. SQLite has one connection per process
    // (a second one in this process would block the event loop while it waits for the
    // lock), so there the second worker shares it and the two runs interleave chunk by chunk.
    const second = dialect === 'postgres' ? otherProcess() : createServices({ config, db, clock });
    await Promise.all([services.audience.runImport({ shopId, importId }), second.audience.runImport({ shopId, importId })]);
    await expectImportedOnce(importId, received);
  });

  it('fails on the final attempt, keeping what it imported and saying where it stopped', async () => {
    const { importId, received } = await submit();
    const broken = otherProcess({ mergeParticipants: [{ name: 'broken', merge: () => Promise.reject(new Error('disk I/O error')) }] });
    await expect(broken.audience.runImport({ shopId, importId }, { finalAttempt: true })).rejects.toThrow('disk I/O error');
    const failed = await services.audience.getImport(shopId, importId);
    const processed = failed!.processed;
    expect(processed).toBeGreaterThanOrEqual(2 * BATCH_RECORDS - 1000);
    expect(processed).toBeLessThanOrEqual(LINKED);
    expect(failed).toMatchObject({ status: 'failed', received, imported: processed, finishedAt: clock.now() });
    expect(failed?.log.errors.at(-1)).toEqual({ index: processed, reason: 'stopped', message: 'disk I/O error' });
    expect(failed?.log.history.at(-1)).toMatchObject({ status: 'failed' });
    expect(await liveProfiles()).toBe(processed + 2);
    // A failed import stays failed: a later run does nothing.
    await services.audience.runImport({ shopId, importId });
    expect((await services.audience.getImport(shopId, importId))?.status).toBe('failed');
  });

  it('records a failure when its worker died during the last attempt and the runner gives up', async () => {
    const { importId } = await submit();
    const stop = new AbortController();
    // The run stops mid-way, as a killed worker's would; the import stays running.
    const run = services.audience.runImport(
      { shopId, importId },
      { signal: stop.signal, onProgress: ({ processed }) => processed >= BATCH_RECORDS && stop.abort(new Error('killed')) },
    );
    await expect(run).rejects.toThrow('killed');
    await db.db
      .updateTable('audience_imports')
      .set({ status: 'running' })
      .where('shop_id', '=', shopId)
      .where('id', '=', importId)
      .execute();
    await services.audience.recordGaveUp({ shopId, importId }, 'Lease expired: worker w1 stopped during attempt 5');
    const failed = await services.audience.getImport(shopId, importId);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.log.errors.at(-1)).toMatchObject({ reason: 'stopped', message: 'Lease expired: worker w1 stopped during attempt 5' });
  });
});
