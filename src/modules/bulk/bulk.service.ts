import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { TtlCache } from '../../ttl-cache.js';
import { mailingChannels, type MailingTemplates } from '../messaging/index.js';
import { nextMessagingId } from '../messaging/index.js';
import type { TemplateRenderer } from '../messaging/index.js';
import type { ShopsService } from '../shops/index.js';
import * as repo from './bulk.repo.js';
import { checkSplit, holdsRest, pickWinner, templatesOfVariant, variantName, type AbSplit } from './domain/bulk-mailing.js';
import { addOutcomes, delivered, NO_OUTCOMES, progressOf, type Outcomes, type Progress } from './domain/progress.js';
import { unreachableReason } from './domain/reach.js';
import type { ReachService } from './reach.service.js';

export { MAX_SEGMENTS } from './reach.service.js';
export const MAX_THROTTLE_PER_MINUTE = 1_000_000;

export interface BulkMailingInput {
  readonly name: string;
  readonly segmentIds: readonly number[];
  readonly templates: MailingTemplates;
  readonly sendAt?: number;
  readonly throttlePerMinute?: number;
  readonly ab?: AbSplit;
}

export type BulkStatus = 'scheduled' | 'sending' | 'done';

export interface BulkMailingView {
  readonly id: number;
  readonly name: string;
  readonly status: BulkStatus;
  readonly segmentIds: number[];
  readonly sendAt: number;
  readonly throttlePerMinute: number | null;
  /** sent + skipped + failed: every member dealt with so far. */
  readonly recipients: number;
  readonly sent: number;
  readonly skipped: number;
  readonly failed: number;
  /** Messaged, not yet sent or failed (waiting for their slot, quiet hours or a retry). */
  readonly pending: number;
  /** Members waiting for the A/B winner. */
  readonly held: number;
  readonly skippedBy: { unreachable: number; unsubscribed: number; over_cap: number };
  readonly winner: string | null;
  readonly progress: Progress;
  readonly results: BulkResults;
}

/** Outcomes per test variant (a test group, or the one group of a mailing without a split), of the rest and in total. */
export interface BulkResults {
  readonly variants: ReadonlyArray<{ readonly variant: string; readonly share: number | null } & Outcomes>;
  /** The winner sent to the members held for it; null before (and without a rest). */
  readonly rest: ({ readonly variant: string } & Outcomes) | null;
  readonly total: Outcomes;
}

interface StoredMailing {
  readonly templates: MailingTemplates;
  readonly ab: AbSplit | null;
}

/**
 * Bulk mailings (admin-api.md, "Chains and bulk mailings"; docs/bulk.md): created with
 * their segments and templates checked, expanded by `bulk.expand` jobs page by page
 * (bulk-expand.ts), the A/B winner chosen by `bulk.decide`, and read back with what
 * became of every member. Its messages have type `bulk` and `campaign_id` = its id; the
 * delivery path finds their templates through `templateSource`.
 */
export class BulkService {
  private readonly stored: TtlCache<string, StoredMailing>;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly reach: Pick<ReachService, 'reach' | 'checkSegments'>;
      readonly renderer: Pick<TemplateRenderer, 'check'>;
      readonly jobs: JobQueue;
    },
  ) {
    this.stored = new TtlCache({ max: 1000, ttlMs: 60_000, clock: deps.clock });
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.stored.clear();
  }

  async create(shopId: string, input: BulkMailingInput): Promise<BulkMailingView> {
    await this.deps.shops.requireShop(shopId);
    const segmentIds = [...new Set(input.segmentIds)];
    await this.checkInput(shopId, { ...input, segmentIds });
    const channels = mailingChannels(input.templates);
    const now = this.deps.clock.now();
    const sendAt = Math.max(now, input.sendAt ?? now);
    const reach = await this.deps.reach.reach(shopId, segmentIds, channels, sendAt);
    const refusal = unreachableReason(reach, segmentIds, channels);
    if (refusal) throw new AppError('VALIDATION_FAILED', refusal, { field: 'segment_ids' });
    const db = this.deps.db.db;
    const id = await db.transaction().execute(async (trx) => {
      const next = await nextMessagingId(trx, shopId, 'bulk');
      await repo.insertMailing(trx, {
        shop_id: shopId,
        id: next,
        name: input.name,
        segment_ids: JSON.stringify(segmentIds),
        templates: JSON.stringify(input.templates),
        ab: input.ab ? JSON.stringify(input.ab) : null,
        throttle_per_minute: input.throttlePerMinute ?? null,
        send_at: sendAt,
        stage: 'members',
        pages: 0,
        cursor: 0,
        position: 0,
        slot_base: sendAt,
        slot_count: 0,
        winner: null,
        audience: reach.members,
        decide_at: null,
        created_at: now,
        updated_at: now,
      });
      await this.deps.jobs.enqueue(
        'bulk.expand',
        { shopId, mailingId: next, page: 0 },
        { executor: trx, runAt: sendAt, idempotencyKey: `${shopId}:${next}:0` },
      );
      return next;
    });
    await this.deps.db.durable();
    return this.get(shopId, id);
  }

  async get(shopId: string, id: number): Promise<BulkMailingView> {
    await this.deps.shops.requireShop(shopId);
    const row = Number.isSafeInteger(id) ? await repo.findMailing(this.deps.db.db, shopId, id) : undefined;
    if (!row) throw new AppError('NOT_FOUND', 'The bulk mailing does not exist.');
    return this.view(row);
  }

  /** A page of the mailings, newest first, after the mailing id `before`; `next` is the last id when more may follow. */
  async list(shopId: string, limit: number, before: number | null): Promise<{ mailings: BulkMailingView[]; next: number | null }> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listMailings(this.deps.db.db, shopId, limit + 1, before);
    const page = rows.slice(0, limit);
    const mailings: BulkMailingView[] = [];
    for (const row of page) mailings.push(await this.view(row));
    return { mailings, next: rows.length > limit ? Number(page.at(-1)?.id) : null };
  }

  /** DeliveryService's template source of `bulk` messages: `templateRef` is "<id>" or "<id>:<variant>". */
  async templateSource(shopId: string, templateRef: string): Promise<MailingTemplates | undefined> {
    const [idText, variant = ''] = templateRef.split(':');
    const stored = await this.storedMailing(shopId, Number(idText));
    return stored && templatesOfVariant(stored.templates, stored.ab, variant);
  }

  /**
   * The `bulk.decide` job: the variant with the best rate of opens (or clicks) wins and
   * the held members get it, by `bulk.expand` pages over them.
   */
  async decide(payload: { readonly shopId: string; readonly mailingId: number }): Promise<void> {
    const { shopId, mailingId } = payload;
    const db = this.deps.db.db;
    const row = await repo.findMailing(db, shopId, mailingId);
    if (!row || row.stage !== 'wait' || !row.ab) return;
    const split = JSON.parse(row.ab) as AbSplit;
    const { groups } = await repo.countRecipients(db, shopId, mailingId);
    // The rate of a variant: recipients who opened (clicked) over its messages delivered.
    const all = split.variants.map((_, i) => {
      const g = groups.find((r) => !r.rest && r.variant === variantName(i));
      return { variant: variantName(i), messaged: g ? delivered(g) : 0, hits: g ? (split.metric === 'opens' ? g.opened : g.clicked) : 0 };
    });
    const winner = pickWinner(all);
    const now = this.deps.clock.now();
    await db.transaction().execute(async (trx) => {
      if (!(await repo.startRest(trx, shopId, mailingId, { winner, cursor: 0, slot_base: now, slot_count: 0, updated_at: now }))) return;
      await this.deps.jobs.enqueue(
        'bulk.expand',
        { shopId, mailingId, page: row.pages },
        { executor: trx, idempotencyKey: `${shopId}:${mailingId}:${row.pages}` },
      );
    });
    await this.deps.db.durable();
  }

  private async checkInput(shopId: string, input: BulkMailingInput): Promise<void> {
    await this.deps.reach.checkSegments(shopId, input.segmentIds);
    if (mailingChannels(input.templates).length === 0) {
      throw new AppError('VALIDATION_FAILED', 'A bulk mailing needs the template of at least one channel.');
    }
    const problem = input.ab ? checkSplit(input.ab) : null;
    if (problem) throw new AppError('VALIDATION_FAILED', problem, { field: 'ab.variants' });
    const sets = [
      input.templates,
      ...(input.ab?.variants ?? []).map((_, i) => templatesOfVariant(input.templates, input.ab ?? null, variantName(i))),
    ];
    for (const set of sets) {
      const bad = this.deps.renderer.check(set);
      if (bad) throw new AppError('VALIDATION_FAILED', `Template ${bad.path} does not parse: ${bad.message}`, { field: bad.path });
    }
  }

  private async storedMailing(shopId: string, id: number): Promise<StoredMailing | undefined> {
    const key = `${shopId}:${id}`;
    const cached = this.stored.get(key);
    if (cached) return cached;
    const row = Number.isSafeInteger(id) ? await repo.findMailing(this.deps.db.db, shopId, id) : undefined;
    if (!row) return undefined;
    const stored = { templates: JSON.parse(row.templates) as MailingTemplates, ab: row.ab ? (JSON.parse(row.ab) as AbSplit) : null };
    this.stored.set(key, stored);
    return stored;
  }

  private async view(row: repo.BulkMailingRow): Promise<BulkMailingView> {
    const counts = await repo.countRecipients(this.deps.db.db, row.shop_id, Number(row.id));
    const skippedBy = {
      unreachable: counts.skipped.unreachable ?? 0,
      unsubscribed: counts.skipped.unsubscribed ?? 0,
      over_cap: counts.skipped.over_cap ?? 0,
    };
    const skipped = skippedBy.unreachable + skippedBy.unsubscribed + skippedBy.over_cap;
    const total = counts.groups.reduce<Outcomes>(addOutcomes, NO_OUTCOMES);
    const pending = counts.messaged - total.sent - total.failed;
    const now = this.deps.clock.now();
    const finished = row.stage === 'end' && pending === 0;
    const status: BulkStatus = finished
      ? 'done'
      : row.stage === 'members' && row.pages === 0 && row.send_at > now
        ? 'scheduled'
        : 'sending';
    const split = row.ab ? (JSON.parse(row.ab) as AbSplit) : null;
    return {
      id: Number(row.id),
      name: row.name,
      status,
      segmentIds: JSON.parse(row.segment_ids) as number[],
      sendAt: row.send_at,
      throttlePerMinute: row.throttle_per_minute,
      recipients: total.sent + skipped + total.failed,
      sent: total.sent,
      skipped,
      failed: total.failed,
      pending,
      held: counts.held,
      skippedBy,
      winner: row.winner,
      progress: progressOf({
        stage: row.stage,
        audience: row.audience === null ? null : Number(row.audience),
        rows: counts.held + counts.messaged + skipped,
        done: total.sent + skipped + total.failed,
        finished,
        split: split !== null,
        decideAt: row.decide_at === null ? null : Number(row.decide_at),
      }),
      results: resultsOf(counts.groups, split, row.winner, total),
    };
  }
}

function resultsOf(groups: readonly repo.GroupOutcome[], split: AbSplit | null, winner: string | null, total: Outcomes): BulkResults {
  const pick = (g: repo.GroupOutcome | undefined): Outcomes => (g ? { ...NO_OUTCOMES, ...outcomesOf(g) } : NO_OUTCOMES);
  const variants = split
    ? split.variants.map((v, i) => ({
        variant: variantName(i),
        share: v.share,
        ...pick(groups.find((g) => !g.rest && g.variant === variantName(i))),
      }))
    : [{ variant: '', share: null, ...pick(groups.find((g) => !g.rest)) }];
  const rest = groups.find((g) => g.rest);
  return {
    variants,
    rest: holdsRest(split) && winner !== null ? { variant: winner, ...pick(rest) } : null,
    total,
  };
}

function outcomesOf(g: repo.GroupOutcome): Outcomes {
  const { variant: _variant, rest: _rest, ...outcomes } = g;
  return outcomes;
}
