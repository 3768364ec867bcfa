import type { Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { Database } from '../../db/types.js';
import { dayOf } from './domain/days.js';
import { DayCounts, SERIES, type FunnelCount } from './domain/series.js';
import type { DashboardRollups } from './rollups.js';
import * as backfillRepo from './backfill.repo.js';
import * as repo from './rollups.repo.js';

/** Rows read per commit: bounded memory and short write transactions, whatever the history. */
export const BACKFILL_BATCH = 5_000;

const PHASES = ['events', 'orders', 'members', 'ledger', 'deliveries', 'purchases', 'done'] as const;
type Phase = (typeof PHASES)[number];

interface BackfillState {
  readonly cutoff: number;
  readonly eventsUntil: number;
  readonly ledgerUntil: number;
  readonly phase: Phase;
  readonly cursor: string;
}

/**
 * The rollups of what a shop stored before they existed (docs/dashboards.md, "Upgrading"):
 * migration 0038 marks, per shop, the last event and ledger ids and the instant it ran;
 * this job counts everything up to those marks, one phase after another, a batch per
 * commit. Each commit adds its batch to the counters and moves the saved cursor with a
 * conditional UPDATE of the old cursor, so a job that dies resumes where the last commit
 * left it and two runs never count a batch twice.
 */
export class DashboardBackfill {
  constructor(
    private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly rollups: DashboardRollups; readonly batch?: number },
  ) {}

  /** Runs the shop's backfill to its end (or until aborted; the next run resumes). */
  async run(shopId: string, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    while (!options.signal?.aborted && (await this.step(shopId))) {
      // One batch per commit.
    }
  }

  /** One batch; false when the shop's backfill is done (or was never needed). */
  async step(shopId: string): Promise<boolean> {
    const row = await backfillRepo.readState(this.deps.db.db, shopId);
    if (!row || row.phase === 'done') return false;
    const state: BackfillState = { ...row, phase: row.phase as Phase };
    await this.deps.db.db.transaction().execute(async (trx) => {
      const zone = await this.deps.rollups.timezoneOf(trx, shopId);
      const next = await this.batch(trx, shopId, zone, state);
      // Another run moved it first: this batch's counts roll back with the error.
      if (!(await backfillRepo.advanceState(trx, shopId, state, next, this.deps.clock.now()))) {
        throw new Error(`The dashboards backfill of ${shopId} was advanced by another run`);
      }
    });
    await this.deps.db.durable();
    return true;
  }

  private get size(): number {
    return this.deps.batch ?? BACKFILL_BATCH;
  }

  /** Counts one batch of the phase; answers where the backfill goes next. */
  private async batch(
    trx: Transaction<Database>,
    shopId: string,
    zone: string,
    s: BackfillState,
  ): Promise<{ phase: Phase; cursor: string }> {
    const counts = new DayCounts();
    const funnels: FunnelCount[] = [];
    const day = (ms: number) => dayOf(ms, zone);
    const after = s.cursor;
    let last: string | undefined;

    switch (s.phase) {
      case 'events': {
        const rows = await backfillRepo.eventsAfter(trx, shopId, Number(after), s.eventsUntil, this.size);
        const active = new Map<string, { day: string; profileId: number }>();
        for (const r of rows) {
          const d = day(Number(r.time));
          counts.add(d, SERIES.events, r.event, 1);
          active.set(`${d}/${r.profile_id}`, { day: d, profileId: Number(r.profile_id) });
        }
        for (const { day: d } of await repo.insertActive(trx, shopId, [...active.values()])) counts.add(d, SERIES.active, '', 1);
        last = rows.length === this.size ? String(rows.at(-1)?.id) : undefined;
        break;
      }
      case 'orders': {
        const rows = await backfillRepo.ordersAfter(trx, shopId, Number(after), s.eventsUntil, this.size);
        for (const r of rows) {
          const d = day(Number(r.time));
          counts.add(d, SERIES.orders, '', 1);
          counts.add(d, SERIES.revenue, '', Number(r.order_price ?? r.items_total));
        }
        last = rows.length === this.size ? String(rows.at(-1)?.id) : undefined;
        break;
      }
      case 'members': {
        const rows = await backfillRepo.membersAfter(trx, shopId, Number(after), s.cutoff, this.size);
        for (const r of rows) counts.add(day(Number(r.created_at)), SERIES.members, '', 1);
        last = rows.length === this.size ? String(rows.at(-1)?.profile_id) : undefined;
        break;
      }
      case 'ledger': {
        const rows = await backfillRepo.ledgerAfter(trx, shopId, Number(after), s.ledgerUntil, this.size);
        for (const r of rows) {
          const amount = Number(r.amount);
          if (r.entry === 'credit') counts.add(day(Number(r.created_at)), SERIES.bonusesIssued, '', amount);
          else if (r.entry === 'debit' && r.kind === 'debit') counts.add(day(Number(r.created_at)), SERIES.bonusesSpent, '', -amount);
          else if (r.entry === 'hold' && r.status === 'confirmed' && Number(r.updated_at) < s.cutoff) {
            counts.add(day(Number(r.updated_at)), SERIES.bonusesSpent, '', -amount);
          }
        }
        last = rows.length === this.size ? String(rows.at(-1)?.id) : undefined;
        break;
      }
      case 'deliveries': {
        const key = after === '0' ? undefined : (JSON.parse(after) as [string, number]);
        const rows = await backfillRepo.deliveriesAfter(trx, shopId, key, s.cutoff, this.size);
        const before = (at: number | null) => at !== null && Number(at) < s.cutoff;
        for (const r of rows) {
          const funnel = { type: r.type, mailingId: Number(r.mailing_id), channel: r.channel };
          counts.add(day(Number(r.sent_at)), SERIES.sent, r.channel, 1);
          funnels.push({ ...funnel, sent: 1 });
          if (before(r.opened_at)) counts.add(day(Number(r.opened_at)), SERIES.opened, r.channel, 1);
          if (before(r.clicked_at)) counts.add(day(Number(r.clicked_at)), SERIES.clicked, r.channel, 1);
          funnels.push({
            ...funnel,
            delivered: before(r.delivered_at) ? 1 : 0,
            opened: before(r.opened_at) ? 1 : 0,
            clicked: before(r.clicked_at) ? 1 : 0,
            bounced: before(r.hard_bounced_at) ? 1 : 0,
          });
        }
        const end = rows.at(-1);
        last = rows.length === this.size && end ? JSON.stringify([end.code, end.seq]) : undefined;
        break;
      }
      case 'purchases': {
        // Once per message, as the live count: the value of the purchases is not stored
        // with the message, so the history counts purchases without their revenue.
        const rows = await backfillRepo.purchasesAfter(trx, shopId, after === '0' ? '' : after, s.cutoff, this.size);
        for (const r of rows) {
          counts.add(day(Number(r.at)), SERIES.attributedPurchases, '', 1);
          funnels.push({ type: r.type, mailingId: Number(r.mailing_id), channel: '', purchased: 1 });
        }
        last = rows.length === this.size ? rows.at(-1)?.code : undefined;
        break;
      }
      case 'done':
        return { phase: 'done', cursor: after };
    }
    await repo.addToDays(trx, shopId, counts.list());
    await repo.addToFunnels(trx, shopId, funnels);
    if (last !== undefined) return { phase: s.phase, cursor: last };
    return { phase: PHASES[PHASES.indexOf(s.phase) + 1] as Phase, cursor: '0' };
  }
}
