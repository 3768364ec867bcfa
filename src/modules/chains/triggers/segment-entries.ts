import type { Transaction } from 'kysely';
import type { DbHandle } from '../../../db/create-db.js';
import type { Database } from '../../../db/types.js';
import type { JobMap } from '../../../jobs/job-map.js';
import type { JobQueue } from '../../../jobs/queue.js';
import type { SegmentEntry, SegmentEntryListener } from '../../audience/index.js';
import type { ChainStarter } from '../chain-starter.js';
import type { ActiveChainsView } from './active-chains.js';
import { chainsOfSegment, entryFiringKey, MAX_ENTRIES_PER_JOB, slicesOf } from './domain/entries.js';

export interface SegmentEntriesDeps {
  readonly db: DbHandle;
  readonly jobs: Pick<JobQueue, 'enqueue'>;
  readonly chains: ActiveChainsView;
  readonly starter: ChainStarter;
}

/** Runs started per transaction. */
export const ENTRIES_PER_COMMIT = 200;

/**
 * The segment_entry trigger (domain/entries.ts; issue 17 part 6: membership grows with
 * the requests that change it, not by a nightly rebuild). SegmentsService tells, in the
 * transaction that adds members, which profiles are new; this enqueues
 * `chains.segment_entries` jobs (at most MAX_ENTRIES_PER_JOB profiles each) in that same
 * transaction, so an entry committed is an entry handed over. The job starts the
 * segment's chains for each profile; keys make a rerun start nothing twice.
 */
export class SegmentEntries {
  constructor(private readonly deps: SegmentEntriesDeps) {}

  /** The segments' entry listener (src/services.ts lists it). */
  listener(): SegmentEntryListener {
    return {
      name: 'chains.segment-entries',
      watches: (shopId) => this.deps.chains.mayHave(shopId, ['segment_entry']),
      entered: (trx, entry) => this.entered(trx, entry),
    };
  }

  private async entered(trx: Transaction<Database>, entry: SegmentEntry): Promise<void> {
    for (const profileIds of slicesOf(entry.profileIds, MAX_ENTRIES_PER_JOB)) {
      const job = { shopId: entry.shopId, segmentId: entry.segmentId, profileIds, at: entry.at };
      await this.deps.jobs.enqueue('chains.segment_entries', job, {
        executor: trx,
        idempotencyKey: `${entry.shopId}/${entry.segmentId}/${entry.at}/${profileIds[0]}`,
      });
    }
  }

  /** The `chains.segment_entries` job. */
  async run(job: JobMap['chains.segment_entries']): Promise<void> {
    const chains = chainsOfSegment(await this.deps.chains.of(job.shopId, 'segment_entry'), job.segmentId);
    if (chains.length === 0) return;
    const variables = { segment_id: job.segmentId };
    for (const profileIds of slicesOf(job.profileIds, ENTRIES_PER_COMMIT)) {
      await this.deps.db.db.transaction().execute(async (trx) => {
        for (const profileId of profileIds) {
          for (const chain of chains) {
            const key = entryFiringKey(job.segmentId, job.at, profileId);
            await this.deps.starter.startRun(trx, { shopId: job.shopId, chainId: chain.chainId, profileId, variables, key, at: job.at });
          }
        }
      });
    }
  }
}
