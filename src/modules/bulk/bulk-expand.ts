import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { JobQueue } from '../../jobs/queue.js';
import { mailingChannels, type MailingTemplates } from '../messaging/index.js';
import type { DeliveryPlan } from '../messaging/index.js';
import type { MessageWriter, NewMessage, WrittenMessage } from '../messaging/index.js';
import * as repo from './bulk.repo.js';
import { HELD, holdsRest, throttleSlot, variantOf, type AbSplit } from './domain/bulk-mailing.js';
import type { LimitsService, ShopLimits } from './limits.service.js';

/** Members per `bulk.expand` page: one transaction of messages, deliveries and jobs. */
export const PAGE_SIZE = 500;

interface Planned {
  readonly profileId: number;
  readonly variant: string;
  /** Undefined for a member held for the A/B winner. */
  readonly plan: DeliveryPlan | undefined;
}

/**
 * The `bulk.expand` job (docs/bulk.md, "Expansion"): one page of members (or of held
 * recipients, once the A/B winner is known) in profile id order after the stored cursor;
 * each gets a recipient row and, unless skipped, its message, deliveries and jobs, all
 * in one transaction with the cursor's advance and the next page's job. The advance is
 * conditional on the page count, so that a page run twice (a worker killed after the
 * commit, its lease expired) writes once; a page whose worker died before the commit is
 * run again from the same cursor.
 */
export class BulkExpansion {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly writer: Pick<MessageWriter, 'planMany' | 'writeMany'>;
      readonly limits: Pick<LimitsService, 'takeCaps' | 'limitsOf'>;
      readonly jobs: JobQueue;
      readonly pageSize?: number;
    },
  ) {}

  async runPage(payload: { readonly shopId: string; readonly mailingId: number; readonly page: number }): Promise<void> {
    const { shopId, mailingId, page } = payload;
    const db = this.deps.db.db;
    const row = await repo.findMailing(db, shopId, mailingId);
    if (!row || row.pages !== page || (row.stage !== 'members' && row.stage !== 'rest')) return;
    const size = this.deps.pageSize ?? PAGE_SIZE;
    const split = row.ab ? (JSON.parse(row.ab) as AbSplit) : null;
    const channels = mailingChannels(JSON.parse(row.templates) as MailingTemplates);
    const members = row.stage === 'members';
    const profileIds = members
      ? await repo.memberPage(db, shopId, JSON.parse(row.segment_ids) as number[], row.cursor, size)
      : await repo.heldPage(db, shopId, mailingId, row.cursor, size);
    // Plans are read before the transaction: on SQLite its connection is the only one.
    const variants = profileIds.map((_, i) => (members ? variantOf(row.position + i, split) : (row.winner ?? '')));
    const plans = await this.deps.writer.planMany(
      db,
      shopId,
      profileIds.filter((_, i) => variants[i] !== HELD),
      'bulk',
      channels,
    );
    const planned: Planned[] = profileIds.map((profileId, i) => ({ profileId, variant: variants[i] ?? '', plan: plans.get(profileId) }));

    const limits = await this.deps.limits.limitsOf(shopId);
    const now = this.deps.clock.now();
    const last = profileIds.length < size;
    const base = row.slot_count === 0 ? now : row.slot_base;
    await db
      .transaction()
      .execute(async (trx) => {
        let slot = row.slot_count;
        let latest = now;
        const settled: Settled[] = [];
        for (const p of planned) {
          const one = await this.settle(trx, limits, row, p, throttleSlot(base, slot, row.throttle_per_minute, now), now);
          if (one.message) {
            latest = Math.max(latest, throttleSlot(base, slot, row.throttle_per_minute, now));
            slot += 1;
          }
          settled.push(one);
        }
        const recipients = await this.writeMessages(trx, settled);
        const stage = !last ? row.stage : members && holdsRest(split) ? 'wait' : 'end';
        const advanced = await repo.advance(trx, shopId, mailingId, page, {
          pages: page + 1,
          cursor: profileIds.at(-1) ?? row.cursor,
          position: members ? row.position + profileIds.length : row.position,
          slot_base: base,
          slot_count: slot,
          stage,
          updated_at: now,
        });
        // Another run of this page committed first: roll back everything written here.
        if (!advanced) throw new PageTaken();
        if (members) await repo.insertRecipients(trx, recipients);
        else for (const r of recipients) await repo.settleHeld(trx, r);
        if (!last) {
          await this.deps.jobs.enqueue(
            'bulk.expand',
            { shopId, mailingId, page: page + 1 },
            { executor: trx, idempotencyKey: `${shopId}:${mailingId}:${page + 1}` },
          );
        } else if (stage === 'wait' && split) {
          const runAt = latest + split.after_hours * 3_600_000;
          await repo.setDecideAt(trx, shopId, mailingId, runAt);
          await this.deps.jobs.enqueue(
            'bulk.decide',
            { shopId, mailingId },
            { executor: trx, runAt, idempotencyKey: `${shopId}:${mailingId}:decide` },
          );
        }
      })
      .catch((error: unknown) => {
        if (!(error instanceof PageTaken)) throw error;
      });
    await this.deps.db.durable();
  }

  /** One member's outcome: held, skipped with its reason, or to be messaged within the caps (the message, written with the page's). */
  private async settle(
    trx: repo.Executor,
    limits: ShopLimits,
    row: repo.BulkMailingRow,
    p: Planned,
    at: number,
    now: number,
  ): Promise<Settled> {
    const rest = row.stage === 'rest' || p.variant === HELD ? 1 : 0;
    const key = { shop_id: row.shop_id, mailing_id: Number(row.id), profile_id: p.profileId, variant: p.variant, rest };
    if (!p.plan) return { recipient: { ...key, status: 'held', reason: null, code: null } };
    const { plan } = p;
    if (plan.send.length === 0 && plan.unconfigured.length === 0) {
      return {
        recipient: { ...key, status: 'skipped', reason: plan.unsubscribed.length > 0 ? 'unsubscribed' : 'unreachable', code: null },
      };
    }
    const allowed = await this.deps.limits.takeCaps(
      trx,
      limits,
      { shopId: row.shop_id, profileId: p.profileId },
      [...new Set(plan.send.map((a) => a.channel))],
      at,
    );
    const send = plan.send.filter((a) => allowed.has(a.channel));
    if (send.length === 0 && plan.unconfigured.length === 0)
      return { recipient: { ...key, status: 'skipped', reason: 'over_cap', code: null } };
    const message: NewMessage = {
      shopId: row.shop_id,
      profileId: p.profileId,
      type: 'bulk',
      campaignId: Number(row.id),
      templateRef: p.variant === '' ? String(row.id) : `${row.id}:${p.variant}`,
      variables: {},
      runAt: at,
      now,
      idempotencyKey: `bulk:${row.id}:${p.profileId}`,
    };
    return { recipient: { ...key, status: 'messaged', reason: null, code: null }, message: { message, plan: { ...plan, send } } };
  }

  /** The page's messages, deliveries and jobs in a few multi-row inserts; the recipients with their message codes. */
  private async writeMessages(trx: repo.Executor, settled: readonly Settled[]): Promise<repo.RecipientRow[]> {
    const messages = settled.flatMap((s) => (s.message ? [s.message] : []));
    const written = messages.length > 0 ? await this.deps.writer.writeMany(trx, messages) : [];
    let next = 0;
    return settled.map((s) => (s.message ? { ...s.recipient, code: (written[next++] as WrittenMessage).code } : s.recipient));
  }
}

/** A member settled: its recipient row, and its message when it is messaged. */
interface Settled {
  readonly recipient: repo.RecipientRow;
  readonly message?: { readonly message: NewMessage; readonly plan: DeliveryPlan };
}

class PageTaken extends Error {}
