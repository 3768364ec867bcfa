import type { Kysely } from 'kysely';
import { inDisposableTransaction, toFlag, type Dialect } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import { hashLink } from '../images/index.js';
import * as repo from './catalog.repo.js';
import type { SkippedOffer } from './catalog.types.js';
import { CategoryStatsCollector } from './domain/categories.js';
import { isWidgetable, normalizeOffer, type ProductDraft } from './domain/feed-offer.js';
import type { FeedItem, RawCategory, RawLocation } from './domain/feed-types.js';

/** The first skipped entries kept with an import (feed_imports.skipped and the answer). */
export const MAX_SKIPPED_KEPT = 100;
/**
 * Staged products are written 200 at a time (one statement: MAX_PARAMS of the repo): a batch waiting to be written
 * keeps its rows alive across V8's young-generation collections, and larger batches
 * made a 100,000-offer import inflate the heap by 100 MB and more. Commits stay cheap
 * because staging commits need not wait for the disk (inDisposableTransaction). A batch
 * is also written once its text reaches FLUSH_CHARS, whatever its number of rows.
 */
const FLUSH_ROWS = 200;
const FLUSH_CHARS = 4 * 1024 * 1024;
/** Batches written at once (flush). */
export const MAX_WRITES: Record<Dialect, number> = { sqlite: 1, postgres: 3 };

/**
 * One import's staging area: takes what a parser reads, applies the offer rules, and
 * writes products under the import's generation in multi-row inserts, a few hundred
 * rows per transaction. Categories and locations (bounded in number) are kept until the
 * end, when the tree can be resolved.
 */
export class FeedStager {
  readonly categories: RawCategory[] = [];
  readonly locations = new Map<string, RawLocation>();
  readonly stats = new CategoryStatsCollector();
  readonly skipped: SkippedOffer[] = [];
  skippedCount = 0;
  products = 0;
  offersRead = 0;

  private readonly knownCategories = new Set<string>();
  private readonly seenOffers = new Set<string>();
  private buffer: repo.ProductRow[] = [];
  /** The batches being written, oldest first (flush). */
  private writing: Promise<void>[] = [];
  private bufferedChars = 0;
  /** Staged products that a category arriving after them could still make widgetable. */
  private waitingForCategory = 0;
  private categoriesAfterOffers = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly shopId: string,
    private readonly generation: number,
    private readonly dialect: Dialect,
    private readonly heartbeat: (trx: repo.Executor) => Promise<void>,
  ) {}

  /** True when products came before categories that may make them widgetable. */
  get needsWidgetPass(): boolean {
    return this.categoriesAfterOffers && this.waitingForCategory > 0;
  }

  isKnownCategory = (id: string): boolean => this.knownCategories.has(id);

  skip(id: string, reason: string): void {
    this.skippedCount += 1;
    if (this.skipped.length < MAX_SKIPPED_KEPT) this.skipped.push({ id, reason });
  }

  add(item: FeedItem): void {
    switch (item.kind) {
      case 'category':
        if (this.products > 0) this.categoriesAfterOffers = true;
        this.categories.push(item.category);
        this.knownCategories.add(item.category.id);
        return;
      case 'location':
        if (this.locations.has(item.location.id)) this.skip(item.location.id, 'location id appears twice; the later one is ignored');
        else this.locations.set(item.location.id, item.location);
        return;
      case 'note':
        this.skip(item.id, item.reason);
        return;
      case 'offer':
        this.addOffer(item);
        return;
    }
  }

  private addOffer(item: Extract<FeedItem, { kind: 'offer' }>): void {
    this.offersRead += 1;
    const outcome = normalizeOffer(item.offer);
    if (!outcome.ok) {
      this.skip(outcome.id, outcome.reason);
      return;
    }
    const product = outcome.product;
    if (this.seenOffers.has(product.id)) {
      this.skip(product.id, 'offer id appears twice; the later one is skipped');
      return;
    }
    this.seenOffers.add(product.id);
    this.stats.add(product);
    const widgetable = isWidgetable(product, this.isKnownCategory);
    if (!widgetable && product.price !== null && product.name !== null && product.url !== null) this.waitingForCategory += 1;
    const row = this.toRow(product, widgetable);
    this.buffer.push(row);
    this.bufferedChars += (product.description?.length ?? 0) + row.params.length + 256;
    this.products += 1;
  }

  get shouldFlush(): boolean {
    return this.buffer.length >= FLUSH_ROWS || this.bufferedChars >= FLUSH_CHARS;
  }

  /**
   * Hands the buffered rows to a write and returns without waiting for it, once fewer
   * than MAX_WRITES batches are being written: the feed's next batch is parsed while the
   * last ones are written. On PostgreSQL three batches are written at once, each in its
   * own transaction on its own connection, so that the database works while this process
   * parses and sends (one in flight left a third of both cores idle: 15.7k offers/s
   * against 21k; two left a quarter idle, and three imported 100,000 offers in 4.06 s
   * against 4.37 s; four, 3.95 s, but would hold a fourth connection of the pool). SQLite
   * has one connection, so one. A failed write fails the next flush() or settle().
   */
  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const rows = this.buffer;
    this.buffer = [];
    this.bufferedChars = 0;
    while (this.writing.length >= MAX_WRITES[this.dialect]) await this.writing.shift();
    const writing = this.write(rows);
    // Reported by flush() or settle(); without a handler now, a failure before then would count as unhandled.
    writing.catch(() => undefined);
    this.writing.push(writing);
  }

  /**
   * Resolves once every batch handed to flush() is written; rejects with the first
   * write's failure, but only once every write has ended, so that nothing is staged
   * after a failing import has deleted what it staged.
   */
  async settle(): Promise<void> {
    const writing = this.writing;
    this.writing = [];
    const outcomes = await Promise.allSettled(writing);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async write(rows: readonly repo.ProductRow[]): Promise<void> {
    // Staged rows are worthless after a crash (the import is abandoned), so their
    // commits need not wait for the disk; the landing commit is fully durable.
    await inDisposableTransaction(this.db, this.dialect, async (trx) => {
      await repo.insertProducts(trx, rows);
      await this.heartbeat(trx);
    });
  }

  private toRow(p: ProductDraft, widgetable: boolean): repo.ProductRow {
    return {
      shop_id: this.shopId,
      generation: this.generation,
      id: p.id,
      group_id: p.groupId,
      available: toFlag(p.available),
      name: p.name,
      description: p.description,
      url: p.url,
      price: p.price,
      oldprice: p.oldprice,
      currency_id: p.currencyId,
      category_ids: JSON.stringify(p.categoryIds),
      pictures: JSON.stringify(p.pictures),
      picture_hash: p.pictures[0] === undefined ? null : hashLink(p.pictures[0]),
      vendor: p.vendor,
      model: p.model,
      vendor_code: p.vendorCode,
      barcode: p.barcode,
      params: JSON.stringify(p.params),
      location_ids: JSON.stringify(p.locationIds),
      deeplink_android: p.deeplinkAndroid,
      deeplink_ios: p.deeplinkIos,
      sales_rate: p.salesRate,
      ignored: toFlag(p.ignored),
      widgetable: toFlag(widgetable),
    };
  }
}
