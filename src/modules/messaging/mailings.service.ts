import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { TtlCache } from '../../ttl-cache.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import type { ShopsService } from '../shops/index.js';
import { templatesFor, type MailingTemplates } from './domain/mailing.js';
import { checkVariables } from './domain/variables.js';
import * as repo from './messaging.repo.js';
import { RenderBudgetSpent, templateScope, type RenderedMessage, type TemplateRenderer } from './render.js';

export interface Mailing {
  readonly id: number;
  readonly code: string;
  readonly name: string | null;
  readonly templates: MailingTemplates;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface PreviewInput {
  readonly variables: Readonly<Record<string, unknown>>;
  readonly profile: Readonly<Record<string, unknown>>;
  readonly locale?: string;
}

export const MAILING_NOT_FOUND = 'Mailing is not found.';

/**
 * How long a mailing, as read for sending a message, may lag a change made through
 * another process on the same database: a PUT through this process takes effect at once
 * (it drops the cached mailing). Every /transact and every delivery needs its mailing,
 * and a mailing changes seldom.
 */
export const MAILING_CACHE_MS = 1_000;
const MAILING_CACHE_MAX = 10_000;
const mailingCaches = new WeakMap<DbHandle, TtlCache<string, Mailing | null>>();

function mailingCache(db: DbHandle, clock: Clock): TtlCache<string, Mailing | null> {
  let cache = mailingCaches.get(db);
  if (!cache) {
    cache = new TtlCache({ max: MAILING_CACHE_MAX, ttlMs: MAILING_CACHE_MS, clock });
    mailingCaches.set(db, cache);
  }
  return cache;
}

/** Drops the mailings cached for sending over `db`: an admin changed something (docs/settings-caches.md). */
export function forgetCachedMailings(db: DbHandle): void {
  mailingCaches.get(db)?.clear();
}

/** A transactional mailing by code for sending, as of at most MAILING_CACHE_MS ago; undefined when there is none. */
export async function findMailingForSend(db: DbHandle, clock: Clock, shopId: string, code: string): Promise<Mailing | undefined> {
  const cache = mailingCache(db, clock);
  const key = `${shopId}\u0000${code}`;
  let mailing = cache.get(key);
  if (mailing === undefined) {
    const row = await repo.findMailing(db.db, shopId, code);
    mailing = row ? toMailing(row) : null;
    cache.set(key, mailing);
  }
  return mailing ?? undefined;
}

/**
 * Transactional mailings by code (admin-api.md, "Messaging"): their templates, checked
 * by parsing when saved (a template that does not parse is refused, naming where), and
 * the admin's preview.
 */
export class MailingsService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly renderer: TemplateRenderer;
    },
  ) {}

  async putMailing(shopId: string, code: string, input: { name?: string | null; templates: MailingTemplates }): Promise<Mailing> {
    await this.deps.shops.requireShop(shopId);
    const problem = this.deps.renderer.check(input.templates);
    if (problem) {
      throw new AppError('VALIDATION_FAILED', `Template ${problem.path} does not parse: ${problem.message}`, { field: problem.path });
    }
    const db = this.deps.db.db;
    const now = this.deps.clock.now();
    const values = { name: input.name ?? null, templates: JSON.stringify(input.templates), updated_at: now };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await repo.findMailing(db, shopId, code)) {
        await repo.updateMailing(db, shopId, code, values);
        break;
      }
      try {
        await db.transaction().execute(async (trx) => {
          const id = await repo.nextId(trx, shopId, 'mailings');
          await repo.insertMailing(trx, { shop_id: shopId, code, id, kind: 'transactional', created_at: now, ...values });
        });
        break;
      } catch (error) {
        // A concurrent PUT of the same code created it: update it on the next turn.
        if (!isUniqueViolation(error) || attempt > 0) throw error;
      }
    }
    await this.deps.db.durable();
    mailingCache(this.deps.db, this.deps.clock).delete(`${shopId}\u0000${code}`);
    return this.getMailing(shopId, code);
  }

  async getMailing(shopId: string, code: string): Promise<Mailing> {
    await this.deps.shops.requireShop(shopId);
    const row = await repo.findMailing(this.deps.db.db, shopId, code);
    if (!row) throw new AppError('NOT_FOUND', MAILING_NOT_FOUND);
    return toMailing(row);
  }

  /** A page of the shop's mailings by code, those after `after`; `nextAfter` is the last code when more may follow. */
  async listMailings(
    shopId: string,
    page: { limit: number; after: string | null },
  ): Promise<{ mailings: Mailing[]; nextAfter: string | null }> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listMailings(this.deps.db.db, shopId, page.limit + 1, page.after);
    const mailings = rows.slice(0, page.limit).map(toMailing);
    return { mailings, nextAfter: rows.length > page.limit ? (mailings.at(-1)?.code ?? null) : null };
  }

  /**
   * Deletes a mailing: /transact refuses its code from then on (404), and a message of it
   * still queued fails with "The mailing no longer exists." Its sent messages, their
   * history and statistics stay.
   */
  async deleteMailing(shopId: string, code: string): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    const deleted = await repo.deleteMailing(this.deps.db.db, shopId, code);
    if (!deleted) throw new AppError('NOT_FOUND', MAILING_NOT_FOUND);
    await this.deps.db.durable();
    mailingCache(this.deps.db, this.deps.clock).delete(`${shopId}\u0000${code}`);
  }

  /** Renders every channel of a mailing for the given variables and profile fields, sending nothing. */
  async preview(shopId: string, code: string, input: PreviewInput): Promise<RenderedMessage> {
    const mailing = await this.getMailing(shopId, code);
    const check = checkVariables(input.variables);
    if (!check.ok) throw new AppError('VALIDATION_FAILED', check.message, { field: 'variables' });
    const set = templatesFor(mailing.templates, input.locale ?? stringOf(input.profile.locale));
    try {
      return await this.deps.renderer.renderAll(shopId, set, templateScope(input.variables, input.profile));
    } catch (error) {
      if (error instanceof RenderBudgetSpent)
        throw new AppError('RATE_LIMITED', error.message, { retryAfterSeconds: Math.ceil(error.waitMs / 1000) });
      throw new AppError('VALIDATION_FAILED', `The mailing does not render: ${error instanceof Error ? error.message : 'error'}`);
    }
  }
}

export function toMailing(row: repo.MailingRow): Mailing {
  return {
    id: Number(row.id),
    code: row.code,
    name: row.name,
    templates: JSON.parse(row.templates) as MailingTemplates,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
