import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import * as repo from './webhooks.repo.js';

/** How long a process answers from its snapshot before it reads the endpoints again. */
export const TOPICS_TTL_MS = 5_000;

/**
 * Which event types each shop has an enabled endpoint for, as one in-memory snapshot of
 * the process, so that event sources ask synchronously (TrackingSubscriber.accepts, the
 * messaging outcome hook) and a shop without webhooks costs a map lookup. An endpoint
 * change in this process reloads it at once; other threads and processes reload it when
 * they see the settings version change (services.ts, docs/settings-caches.md), which
 * they read before each batch of events, claimed jobs or outcome. It is also read again,
 * in the background, on the first question after it is TOPICS_TTL_MS old, and once before
 * a process serves (app.ts onReady, main.ts runWorker).
 */
export class WebhookTopics {
  private snapshot = new Map<string, ReadonlySet<string>>();
  private loadedAt: number | undefined;
  private loading: Promise<void> | undefined;
  private started = 0;
  private applied = 0;

  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly ttlMs?: number }) {}

  wants(shopId: string, type: string): boolean {
    this.refreshIfStale();
    return this.snapshot.get(shopId)?.has(type) ?? false;
  }

  /** Reads the endpoints now; a reload started later wins over one that finishes later. */
  async reload(): Promise<void> {
    const mine = ++this.started;
    const at = this.deps.clock.now();
    const rows = await repo.enabledTopics(this.deps.db.db);
    if (mine < this.applied) return;
    const next = new Map<string, Set<string>>();
    for (const row of rows) {
      const types = next.get(row.shop_id) ?? new Set<string>();
      for (const type of JSON.parse(row.event_types) as string[]) types.add(type);
      next.set(row.shop_id, types);
    }
    this.applied = mine;
    this.snapshot = next;
    this.loadedAt = at;
  }

  /**
   * The first read before a process serves. A database that does not answer now is not
   * the start's failure (/ready reports it): the first question reads again.
   */
  async warmUp(): Promise<void> {
    try {
      await this.reload();
    } catch {
      // Left unloaded: refreshIfStale reads on the first question.
    }
  }

  private refreshIfStale(): void {
    if (this.loading) return;
    const now = this.deps.clock.now();
    if (this.loadedAt !== undefined && now - this.loadedAt < (this.deps.ttlMs ?? TOPICS_TTL_MS)) return;
    this.loading = this.reload()
      .catch(() => {
        // The database did not answer: keep the snapshot and ask again after the TTL.
        this.loadedAt = now;
      })
      .finally(() => {
        this.loading = undefined;
      });
  }
}
