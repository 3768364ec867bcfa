import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DbHandle } from '../../db/create-db.js';
import { groupWriteOf } from '../../db/group-write.js';
import type { JobQueue, JobClaim } from '../../jobs/queue.js';
import { HEARTBEATS_PER_LEASE } from '../../jobs/runner.js';
import { randomToken } from '../../random.js';
import * as repo from './messaging.repo.js';

/** A mark another sender left, as it was seen: replaced only if it has not moved since. */
export interface SeenMark {
  readonly token: string;
  readonly beat: number;
}

/**
 * Who may call the vendor for a delivery (docs/messaging.md, "Sending once"). A job's lease
 * says who runs the job, not who is sending: a lease runs out under a worker that is only
 * slow (a starved event loop, a clock that jumped ahead), and the worker that takes the
 * job over would send what the first one is still sending. So a send is marked on the
 * delivery row itself:
 *
 * - take: just before the vendor is called, one commit renews the job's lease (false when
 *   another claim took the job over: this run stops without sending) and marks the
 *   delivery with this claim's token, conditional on it having no mark (or the mark of a
 *   sender taken for dead, unchanged since it was seen);
 * - beating: while the vendor's answer is awaited, the sender beats on its mark, a counter
 *   rather than a time, so that no clock is trusted;
 * - awaitSender: a run that finds another sender's mark waits until that sender records
 *   its outcome, or until its mark has not beaten for a whole lease by this process's own
 *   monotonic clock: then it is taken for dead, and its mark may be taken over.
 *
 * The outcome is recorded conditional on the mark (messaging.repo.ts, updateQueuedDelivery),
 * which it clears.
 */
export class SendMarks {
  private readonly beatMs: number;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly jobs: Pick<JobQueue, 'renewLease'>;
      /** The job lease (PATRON_JOB_LEASE_SECONDS): a sender silent this long is taken for dead. */
      readonly leaseMs: number;
    },
  ) {
    this.beatMs = Math.max(1, Math.floor(deps.leaseMs / HEARTBEATS_PER_LEASE));
  }

  /**
   * Marks the delivery as sent by this run; its token, or undefined when it may not send:
   * its job went to another claim, or the delivery was marked or moved on meanwhile.
   * Without a claim (a channel's test send, which is no job) only the mark is taken.
   */
  async take(delivery: repo.QueuedDeliveryKey, seen: SeenMark | null, claim: JobClaim | undefined): Promise<string | undefined> {
    const token = claim ? `${claim.workerId}#${claim.id}.${claim.attempts}` : `send#${randomToken(8)}`;
    const taken = await groupWriteOf(this.deps.db).run(
      async (trx) => {
        if (claim && !(await this.deps.jobs.renewLease(claim, this.deps.leaseMs, { executor: trx }))) return false;
        return repo.markSending(trx, delivery, token, seen);
      },
      // Lost with the machine, the mark only lets the send happen again: what a crash does anyway.
      { durable: false },
    );
    return taken ? token : undefined;
  }

  /** Runs `send` while beating on the mark `token`, every quarter of a lease. */
  async beating<T>(delivery: repo.QueuedDeliveryKey, token: string, send: () => Promise<T>): Promise<T> {
    let beating = true;
    const beat = async () => {
      try {
        const held = await groupWriteOf(this.deps.db).run((trx) => repo.beatSending(trx, delivery, token), { durable: false });
        // Taken over (this sender was silent for a lease) or recorded: no reason to go on.
        if (!held) beating = false;
      } catch {
        // The database may be back before a lease has passed; the next beat tries again.
      }
    };
    const timer = setInterval(() => {
      if (beating) void beat();
    }, this.beatMs);
    try {
      return await send();
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * Waits out the sender whose mark the delivery has: 'settled' once the delivery moved on
   * (its outcome was recorded), or the mark to take over once the sender was silent for a
   * lease (it died, or froze for longer than a lease: the one case in which a message
   * goes out twice). Rejects when `signal` aborts (this run's own lease was lost, or the
   * runner stops): the job is run again, and waits again.
   */
  async awaitSender(
    delivery: repo.QueuedDeliveryKey,
    mark: SeenMark,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly settled: true } | { readonly settled: false; readonly seen: SeenMark | null }> {
    let seen = mark;
    let quietSince = performance.now();
    for (;;) {
      await sleep(this.beatMs, undefined, signal ? { signal } : {});
      const row = await repo.findSendMark(this.deps.db.db, delivery.shopId, delivery.code, delivery.seq);
      if (!row || row.status !== 'queued' || row.attempts !== delivery.attempts) return { settled: true };
      if (row.send_token === null) return { settled: false, seen: null };
      if (row.send_token !== seen.token || row.send_beat !== seen.beat) {
        seen = { token: row.send_token, beat: row.send_beat };
        quietSince = performance.now();
      } else if (performance.now() - quietSince >= this.deps.leaseMs) {
        return { settled: false, seen };
      }
    }
  }
}
