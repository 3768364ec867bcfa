import { redactCredentials } from '../../observability/redact-credentials.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { SafeFetchError } from '../../net/safe-fetch.js';
import * as repo from './catalog.repo.js';
import type { FeedStager } from './catalog.staging.js';
import type { CatalogLandedListener, FeedImportInput, FeedImportResult } from './catalog.types.js';
import { resolveCategories, type ResolvedCategory } from './domain/categories.js';
import { FeedDecoder } from './domain/feed-decoder.js';
import { JsonFeedParser } from './domain/feed-json-parser.js';
import { FeedFormatError, type FeedItem } from './domain/feed-types.js';
import { YmlFeedParser } from './domain/feed-yml-parser.js';

/** A string or Buffer body is fed to the parser in slices of this many characters or bytes. */
const STRING_SLICE = 64 * 1024;
const WIDGET_PASS_PAGE = 2_000;

export interface ImportContext {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly listeners: readonly CatalogLandedListener[];
  readonly defaultRefreshMinutes: number;
  /**
   * An import whose catalog row has not moved for this long died with its process
   * (config importLeaseMs); a live one moves it far more often (ImportHeartbeat).
   */
  readonly leaseMs: number;
}

interface Parser {
  write(chunk: string): void;
  end(): void;
  drain(): FeedItem[];
}

/**
 * Takes the shop's next generation with one conditional UPDATE of last_generation, and
 * records the import as running. A second import of a shop while one runs is refused
 * (409): two feeds racing to land would leave the loser's work wasted and the order of
 * the winners arbitrary. An import that stopped heartbeating is taken to be dead.
 */
export async function beginImport(ctx: ImportContext, shopId: string, source: FeedImportInput['source']): Promise<number> {
  const now = ctx.clock.now();
  await repo.ensureCatalogRow(ctx.db, shopId, ctx.defaultRefreshMinutes, now);
  return ctx.db.transaction().execute(async (trx) => {
    const catalog = await repo.findCatalog(trx, shopId);
    if (catalog === undefined) throw new AppError('NOT_FOUND', 'Shop not found.');
    const last = Number(catalog.last_generation);
    const latest = last > 0 ? await repo.findImport(trx, shopId, last) : undefined;
    if (latest?.status === 'running' && Number(catalog.updated_at) > now - ctx.leaseMs) {
      throw new AppError('CONFLICT', "An import of this shop's feed is already running.");
    }
    if (!(await repo.takeGeneration(trx, shopId, last, now))) {
      throw new AppError('CONFLICT', "An import of this shop's feed is already running.");
    }
    const generation = last + 1;
    await repo.failAbandonedImports(trx, shopId, generation, now);
    await repo.insertImport(trx, {
      shop_id: shopId,
      generation,
      source,
      status: 'running',
      products: 0,
      categories: 0,
      locations: 0,
      skipped_count: 0,
      skipped: '[]',
      error: null,
      started_at: now,
      finished_at: null,
    });
    return generation;
  });
}

async function* chunksOf(body: FeedImportInput['body']): AsyncIterable<Buffer | string> {
  if (typeof body === 'string') {
    for (let i = 0; i < body.length; i += STRING_SLICE) yield body.slice(i, i + STRING_SLICE);
  } else if (Buffer.isBuffer(body)) {
    // In pieces, so that the parser's output (and the memory it takes) stays per piece.
    for (let i = 0; i < body.length; i += STRING_SLICE) yield body.subarray(i, i + STRING_SLICE);
  } else {
    yield* body;
  }
}

/** Reads the whole document into the stager; throws FeedFormatError for a document that is not a feed. */
export async function stageFeed(
  ctx: ImportContext,
  input: FeedImportInput,
  stager: FeedStager,
  maxBytes: number | undefined,
): Promise<void> {
  const parser: Parser = input.format === 'yml' ? new YmlFeedParser() : new JsonFeedParser();
  const decoder = new FeedDecoder(input.format, input.charset);
  let bytes = 0;
  const take = async (): Promise<void> => {
    for (const item of parser.drain()) stager.add(item);
    if (stager.shouldFlush) await stager.flush();
  };
  for await (const chunk of chunksOf(input.body)) {
    const isText = typeof chunk === 'string';
    bytes += isText ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (maxBytes !== undefined && bytes > maxBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The feed is larger than ${maxBytes} bytes.`, { field: 'feed', limit: maxBytes });
    }
    parser.write(isText ? chunk : decoder.decode(chunk));
    await take();
    input.onProgress?.({ bytes, offers: stager.offersRead });
  }
  parser.write(decoder.end());
  parser.end();
  await take();
  await stager.flush();
  await stager.settle();
  input.onProgress?.({ bytes, offers: stager.offersRead });
}

/** Stable internal ids: each external id keeps the id it got first; new ones count up from the shop's largest. */
async function allocateCategoryIds(
  db: Kysely<Database>,
  shopId: string,
  categories: readonly ResolvedCategory[],
): Promise<Map<string, number>> {
  const externalIds = categories.map((c) => c.externalId);
  const ids = await repo.findCategoryIds(db, shopId, externalIds);
  const missing = externalIds.filter((id) => !ids.has(id));
  if (missing.length === 0) return ids;
  let next = (await repo.maxCategoryId(db, shopId)) + 1;
  const rows = missing.map((external) => {
    const row = { shop_id: shopId, external_id: external, id: next };
    ids.set(external, next);
    next += 1;
    return row;
  });
  await db.transaction().execute((trx) => repo.insertCategoryIds(trx, rows));
  return ids;
}

/** Categories (with their counts), locations, and the late widgetable pass, under the import's generation. */
export async function stageTree(
  ctx: ImportContext,
  shopId: string,
  generation: number,
  stager: FeedStager,
): Promise<{ categories: number; locations: number }> {
  const resolved = resolveCategories(stager.categories);
  for (const note of resolved.notes) stager.skip(note.id, note.reason);
  const ids = await allocateCategoryIds(ctx.db, shopId, resolved.categories);
  const locationIds = [...stager.locations.keys()];
  const categoryRows: repo.CategoryRow[] = resolved.categories.map((c) => {
    const stats = stager.stats.statsOf(c.externalId, locationIds);
    return {
      shop_id: shopId,
      generation,
      external_id: c.externalId,
      id: ids.get(c.externalId) ?? 0,
      parent_external_id: c.parentExternalId,
      name: c.name,
      url: c.url,
      level: c.level,
      product_count: stats.productCount,
      discount_product_count: stats.discountProductCount,
      location_ids: JSON.stringify(stats.locationIds),
      discount_location_ids: JSON.stringify(stats.discountLocationIds),
    };
  });
  const locationRows: repo.LocationRow[] = [...stager.locations.values()].map((l) => ({
    shop_id: shopId,
    generation,
    id: l.id,
    name: l.name ?? null,
    type: l.type ?? null,
    parent_id: l.parentId ?? null,
  }));
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertCategories(trx, categoryRows);
    await repo.insertLocations(trx, locationRows);
  });
  if (stager.needsWidgetPass) await widgetPass(ctx.db, shopId, generation, stager.isKnownCategory);
  return { categories: categoryRows.length, locations: locationRows.length };
}

/** Offers that came before their categories: judged again now that every category is known. */
async function widgetPass(
  db: Kysely<Database>,
  shopId: string,
  generation: number,
  isKnownCategory: (id: string) => boolean,
): Promise<void> {
  let after = '';
  for (;;) {
    const page = await repo.findWidgetCandidates(db, shopId, generation, after, WIDGET_PASS_PAGE);
    if (page.length === 0) return;
    const ids = page.filter((row) => (JSON.parse(row.category_ids) as string[]).some(isKnownCategory)).map((row) => row.id);
    await repo.markWidgetable(db, shopId, generation, ids);
    after = page[page.length - 1]?.id ?? after;
  }
}

/**
 * Lands the import in one transaction: serves the generation (only if no later import
 * took one), runs the landed listeners while the older rows still exist, and records the
 * import as done. The older rows are deleted after, outside it (see deleteOlder).
 */
export async function landImport(ctx: ImportContext, shopId: string, generation: number, result: FeedImportResult): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const previous = Number((await repo.findCatalog(trx, shopId))?.generation ?? 0);
    if (!(await repo.landGeneration(trx, shopId, generation, now))) {
      throw new AppError('CONFLICT', "A later import of this shop's feed replaced this one.");
    }
    const landing = { shopId, previousGeneration: previous, generation, now };
    for (const listener of ctx.listeners) await listener.onLanded(trx, landing);
    await repo.finishImport(trx, shopId, generation, { status: 'done', ...countsOf(result), error: null }, now);
  });
}

export function countsOf(result: Omit<FeedImportResult, 'generation'>): {
  products: number;
  categories: number;
  locations: number;
  skipped_count: number;
  skipped: string;
} {
  return {
    products: result.products,
    categories: result.categories,
    locations: result.locations,
    skipped_count: result.skippedCount,
    skipped: JSON.stringify(result.skipped),
  };
}

/**
 * Rows of generations older than the one served. Readers never see them (they read the
 * served generation), so deleting in small batches after the landing keeps the swap
 * transaction short; rows a crash leaves behind go with the next import.
 */
export async function deleteOlder(ctx: ImportContext, shopId: string, generation: number): Promise<void> {
  await repo.deleteGenerations(ctx.db, shopId, { below: generation });
}

/** A failed import: its staged rows go, the served generation stays, the log says why. */
export async function failImport(
  ctx: ImportContext,
  shopId: string,
  generation: number,
  stager: FeedStager,
  error: unknown,
): Promise<void> {
  const message = failureMessage(error);
  await repo.deleteGenerations(ctx.db, shopId, { only: generation });
  await repo.finishImport(
    ctx.db,
    shopId,
    generation,
    {
      status: 'failed',
      ...countsOf({ products: stager.products, categories: 0, locations: 0, skippedCount: stager.skippedCount, skipped: stager.skipped }),
      error: message,
    },
    ctx.clock.now(),
  );
}

/** A failure described for the admin by Patron itself (a feed URL that could not be fetched). */
export class ImportFailure extends Error {
  override readonly name = 'ImportFailure';
}

/** Stored as `error` of a failed import in place of any message not written for a reader. */
export const UPLOAD_BROKE_OFF = 'The upload of the feed broke off before it was complete.';
export const INTERNAL_IMPORT_FAILURE = 'The import failed on an unexpected error; the server log has the details.';

/**
 * What the import log (and the admin API's `last_import.error`) says about a failure:
 * the sentence of a feed that is not a feed, of a refusal Patron made (AppError) or of
 * a download that broke off (SafeFetchError: written for the admin), and never an internal message (a TypeError, a driver error, a path), which only the
 * server log gets.
 */
export function failureMessage(error: unknown): string {
  if (error instanceof FeedFormatError || error instanceof AppError || error instanceof SafeFetchError || error instanceof ImportFailure) {
    // A feed URL may carry user info or a token, and a download's failure may quote it.
    return redactCredentials(error.message).slice(0, 1000);
  }
  // An upload whose client went away: the request stream's own error says only "aborted".
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || (error instanceof Error && error.message === 'aborted')) return UPLOAD_BROKE_OFF;
  return INTERNAL_IMPORT_FAILURE;
}

/**
 * A feed body an import can read: a string, a Buffer or a byte stream. Anything else (no
 * body at all) is refused before an import is begun, so nothing is logged for it.
 */
export function assertReadableBody(body: unknown): void {
  const stream = typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
  if (typeof body !== 'string' && !Buffer.isBuffer(body) && !stream) {
    throw new AppError('VALIDATION_FAILED', 'The request has no feed: send the feed document as the body.', { field: 'feed' });
  }
}

/** Errors of the document become 422; others (a body too large, a conflict) pass as they are. */
export function asAppError(error: unknown): unknown {
  if (error instanceof FeedFormatError) return new AppError('VALIDATION_FAILED', error.message, { field: 'feed' });
  return error;
}
