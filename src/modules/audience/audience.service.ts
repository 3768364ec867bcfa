import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { isTransientConflict, refreshPlannerStatistics } from '../../db/dialect.js';
import { AppError, isAppError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { IdentityService, MergeParticipant } from '../identity/index.js';
import { dateInTimezone } from '../shops/index.js';
import type { ShopsService } from '../shops/index.js';
import { checkBatch, storeBatch } from './audience.import-run.js';
import { mergeAudienceData } from './audience.merge.js';
import * as repo from './audience.repo.js';
import { chunkRows, newImportRow, toFields, toImport } from './audience.rows.js';
import type { AudienceImport, CustomerAttributes } from './audience.types.js';
import type { CustomPropertiesService } from './custom-properties.service.js';
import { addChunk, addStatus, addStop, emptyLog, parseLog, type ImportLog } from './domain/import-log.js';
import type { RecordChunk } from './domain/chunks.js';
import { BATCH_CHUNKS, BATCH_RECORDS } from './domain/limits.js';
import type { PushPlatform, RecordContext } from './domain/record.js';
import { segmentNotFound, type SegmentsService } from './segments.service.js';
import * as segmentsRepo from './segments.repo.js';

export type { RecordChunk } from './domain/chunks.js';

export interface ImportRunOptions {
  /** Aborted when the run should stop (the job's lease is lost, the process stops). */
  readonly signal?: AbortSignal;
  /** The last attempt of the job: a failure now fails the import for good. */
  readonly finalAttempt?: boolean;
  /** Called after each batch is committed (a progress bar). */
  readonly onProgress?: (progress: { readonly processed: number; readonly received: number }) => void;
}

/** Imports in one list answer. */
export const MAX_IMPORTS_LISTED = 100;
/** A CLI upload that was not sealed for this long was abandoned by a process that died. */
const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;
/** Records a run imports between two refreshes of the planner's statistics of profiles (PostgreSQL). */
const STATISTICS_EVERY_RECORDS = 25_000;
/** Tries of one batch that lost to a concurrent writer before the run gives up (the job retries later). */
const CHUNK_ATTEMPTS = 5;

type Deps = {
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly identity: IdentityService;
  readonly jobs: JobQueue;
  readonly shops: Pick<ShopsService, 'requireShop'>;
  readonly segments: SegmentsService;
  readonly properties: CustomPropertiesService;
};

/**
 * Audience import (interface.md endpoint 11, docs/audience.md): the records of a request
 * are stored durably as chunks before the request is answered, then an `audience.import`
 * job processes them in batches of whole chunks. Each batch is one transaction that also
 * moves the import's cursor, so a run that stops anywhere resumes at the first chunk not written
 * and nothing is imported twice.
 */
export class AudienceService {
  constructor(private readonly deps: Deps) {}

  /** Moves the merged profile's attributes and segment memberships (audience.merge.ts). */
  mergeParticipant(): MergeParticipant {
    return {
      name: 'audience',
      merge: (trx, shopId, fromId, intoId) => mergeAudienceData(trx, shopId, fromId, intoId, this.deps.clock.now()),
    };
  }

  private get db() {
    return this.deps.db.db;
  }

  /**
   * Stores an import and queues its job in one transaction, durably (the answer to the
   * client promises the records are safe). An unknown segment: NOT_FOUND.
   */
  async submitImport(
    shopId: string,
    input: { readonly segmentId?: number; readonly chunks: readonly RecordChunk[] },
  ): Promise<AudienceImport> {
    await this.requireSegment(shopId, input.segmentId);
    const now = this.deps.clock.now();
    const received = input.chunks.reduce((n, c) => n + c.records, 0);
    const row = await this.db.transaction().execute(async (trx) => {
      const id = await segmentsRepo.allocateId(trx, shopId, 'imports');
      const log = addStatus(emptyLog(), 'queued', now);
      const row = newImportRow(shopId, id, 'api', input.segmentId, 'queued', now, log);
      await repo.insertImport(trx, { ...row, received, chunks: input.chunks.length });
      await repo.insertChunks(trx, chunkRows(shopId, id, 0, 0, input.chunks));
      await this.deps.jobs.enqueue('audience.import', { shopId, importId: id }, { executor: trx, idempotencyKey: `${shopId}/${id}` });
      return { ...row, received, chunks: input.chunks.length };
    });
    await this.deps.db.durable();
    return toImport(row);
  }

  /** A CLI upload: an import that takes chunks until it is sealed (not listed before). */
  async beginUpload(shopId: string, input: { readonly segmentId?: number }): Promise<number> {
    await this.requireSegment(shopId, input.segmentId);
    const now = this.deps.clock.now();
    await repo.deleteStaleUploads(this.db, shopId, now - STALE_UPLOAD_MS);
    return this.db.transaction().execute(async (trx) => {
      const id = await segmentsRepo.allocateId(trx, shopId, 'imports');
      await repo.insertImport(trx, newImportRow(shopId, id, 'cli', input.segmentId, 'receiving', now, emptyLog()));
      return id;
    });
  }

  /** Appends chunks to an upload, in one transaction. */
  async appendUpload(shopId: string, importId: number, chunks: readonly RecordChunk[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findImport(trx, shopId, importId);
      if (row?.status !== 'receiving') throw new AppError('CONFLICT', `Import ${importId} is not receiving records.`);
      await repo.insertChunks(trx, chunkRows(shopId, importId, row.chunks, row.received, chunks));
      await repo.updateImport(trx, shopId, importId, {
        chunks: row.chunks + chunks.length,
        received: row.received + chunks.reduce((n, c) => n + c.records, 0),
        updated_at: this.deps.clock.now(),
      });
    });
  }

  /**
   * Seals an upload: it becomes a queued import with its job. `runAt` delays the job, for
   * a caller that processes the import itself (the CLI): the job then only finishes an
   * import that caller left unfinished.
   */
  async sealUpload(shopId: string, importId: number, options: { readonly runAt?: number } = {}): Promise<void> {
    const now = this.deps.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findImport(trx, shopId, importId);
      if (row?.status !== 'receiving') throw new AppError('CONFLICT', `Import ${importId} is not receiving records.`);
      const log = addStatus(parseLog(row.log), 'queued', now);
      await repo.updateImport(trx, shopId, importId, { status: 'queued', log: JSON.stringify(log), created_at: now, updated_at: now });
      await this.deps.jobs.enqueue(
        'audience.import',
        { shopId, importId },
        { executor: trx, idempotencyKey: `${shopId}/${importId}`, ...(options.runAt === undefined ? {} : { runAt: options.runAt }) },
      );
    });
    await this.deps.db.durable();
  }

  /** Drops an upload that will not be sealed (the CLI failed to read its file). */
  async abandonUpload(shopId: string, importId: number): Promise<void> {
    await repo.deleteImport(this.db, shopId, importId);
  }

  /** The import log, newest first (admin-api.md, "Import logs"); with `before` (an id), the page older than it. */
  async listImports(shopId: string, limit = MAX_IMPORTS_LISTED, before?: number): Promise<AudienceImport[]> {
    await this.deps.shops.requireShop(shopId);
    const rows = await repo.listImports(this.db, shopId, Math.min(Math.max(1, limit), MAX_IMPORTS_LISTED), before);
    return rows.map(toImport);
  }

  async getImport(shopId: string, id: number): Promise<AudienceImport | undefined> {
    const row = Number.isSafeInteger(id) ? await repo.findImport(this.db, shopId, id) : undefined;
    return row && row.status !== 'receiving' ? toImport(row) : undefined;
  }

  /** What imports stored about a profile (a merged id leads to its survivor). */
  async getCustomerAttributes(shopId: string, profileId: number): Promise<CustomerAttributes | undefined> {
    const id = await this.deps.identity.currentProfileId(shopId, profileId);
    if (id === undefined) return undefined;
    return this.getLiveCustomerAttributes(shopId, id);
  }

  /**
   * getCustomerAttributes of a live profile id (one that identity.getProfileOnly answered),
   * without following merges again; `pushTokens: false` leaves the tokens unread (empty),
   * for a caller that sends no mobile push.
   */
  async getLiveCustomerAttributes(shopId: string, id: number, options: { pushTokens?: boolean } = {}): Promise<CustomerAttributes> {
    const row = await repo.findAttributes(this.db, shopId, id);
    const tokens = options.pushTokens === false ? [] : await repo.listPushTokens(this.db, shopId, id);
    return {
      fields: row ? toFields(row) : {},
      pushTokens: tokens.map((t) => ({ token: t.token, platform: t.platform })),
    };
  }

  /** getCustomerAttributes of many live profile ids (merges already followed), in two queries. */
  async getCustomerAttributesMany(shopId: string, profileIds: readonly number[]): Promise<Map<number, CustomerAttributes>> {
    const { rows, tokens } = await repo.findAttributesMany(this.db, shopId, profileIds);
    const fields = new Map(rows.map((row) => [Number(row.profile_id), toFields(row)]));
    const out = new Map(
      profileIds.map((id) => [id, { fields: fields.get(id) ?? {}, pushTokens: [] as { token: string; platform: PushPlatform }[] }]),
    );
    for (const t of tokens) out.get(Number(t.profile_id))?.pushTokens.push({ token: t.token, platform: t.platform });
    return out;
  }

  /**
   * The `audience.import` job: processes the import from its cursor to the end. A
   * failure on the final attempt marks the import failed, saying where it stopped;
   * before that the job is retried and resumes where it stopped.
   */
  async runImport(payload: { readonly shopId: string; readonly importId: number }, options: ImportRunOptions = {}): Promise<void> {
    const { shopId, importId } = payload;
    const row = await repo.findImport(this.db, shopId, importId);
    if (!row || row.status === 'done' || row.status === 'failed' || row.status === 'receiving') return;
    const now = this.deps.clock.now();
    const log = addStatus(parseLog(row.log), 'running', now);
    await repo.updateImport(
      this.db,
      shopId,
      importId,
      { status: 'running', started_at: row.started_at ?? now, updated_at: now, log: JSON.stringify(log) },
      ['queued', 'running'],
    );
    try {
      const shop = await this.deps.shops.requireShop(shopId);
      const context = {
        properties: await this.deps.properties.propertyTypes(shopId),
        today: dateInTimezone(now, shop.timezone),
      };
      let sinceStatistics = Number.POSITIVE_INFINITY;
      for (;;) {
        options.signal?.throwIfAborted();
        if (sinceStatistics >= STATISTICS_EVERY_RECORDS) {
          await refreshPlannerStatistics(this.db, this.deps.db.dialect, 'profiles');
          sinceStatistics = 0;
        }
        const step = await this.processNextBatch(shopId, importId, context);
        if (step === 'finished') return;
        if (step) {
          sinceStatistics += step.records;
          options.onProgress?.(step);
        }
        // SQLite answers synchronously, so without this turn the whole import would run
        // in microtasks and the process would serve no request until it ended.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      await this.recordFailure(shopId, importId, error, options.finalAttempt === true);
      throw error;
    }
  }

  private async processNextBatch(
    shopId: string,
    importId: number,
    context: RecordContext,
  ): Promise<'finished' | { processed: number; received: number; records: number } | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      const row = await repo.findImport(this.db, shopId, importId);
      // `queued` while this run is alive: another run of the same import failed meanwhile.
      if (row?.status !== 'running' && row?.status !== 'queued') return 'finished';
      if (row.next_chunk >= row.chunks) return this.finish(row);
      const batch = takeBatch(await repo.findChunkSizes(this.db, shopId, importId, row.next_chunk, BATCH_CHUNKS));
      const chunks = await repo.findChunks(this.db, shopId, importId, row.next_chunk, row.next_chunk + batch);
      if (batch === 0 || chunks.length !== batch || chunks[0]?.seq !== row.next_chunk) {
        throw new Error(`Chunks from ${row.next_chunk} of import ${importId} are missing`);
      }
      // Checked outside the transaction, so that the database is held only for the writes.
      const checked = checkBatch(chunks, context);
      try {
        return await this.db.transaction().execute(async (trx) => {
          const now = this.deps.clock.now();
          const current = await repo.advanceCursor(trx, shopId, importId, row.next_chunk, row.next_chunk + chunks.length, now);
          // Another run wrote these chunks meanwhile: nothing to do here.
          if (!current) return undefined;
          const stored = await storeBatch(trx, shopId, checked, {
            identity: this.deps.identity,
            segments: this.deps.segments,
            now,
            segmentId: current.segment_id,
          });
          const skipped = stored.report.skipped.length;
          await repo.updateImport(trx, shopId, importId, {
            processed: current.processed + checked.records,
            imported: current.imported + (checked.records - skipped),
            skipped: current.skipped + skipped,
            profiles_created: current.profiles_created + stored.profilesCreated,
            log: JSON.stringify(addChunk(parseLog(current.log), stored.report)),
          });
          return { processed: current.processed + checked.records, received: current.received, records: checked.records };
        });
      } catch (error) {
        const transient = isTransientConflict(error) || (isAppError(error) && error.code === 'CONFLICT');
        if (!transient || attempt >= CHUNK_ATTEMPTS) throw error;
      }
    }
  }

  private async finish(row: repo.ImportRow): Promise<'finished'> {
    const now = this.deps.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const log = addStatus(parseLog(row.log), 'done', now);
      const done = await repo.updateImport(
        trx,
        row.shop_id,
        row.id,
        { status: 'done', finished_at: now, updated_at: now, log: JSON.stringify(log) },
        ['running', 'queued'],
      );
      if (done) await repo.deleteChunks(trx, row.shop_id, row.id);
    });
    return 'finished';
  }

  /** The job gave up without a last run of its own (runner onGiveUp): the import failed where it stood. */
  async recordGaveUp(payload: { readonly shopId: string; readonly importId: number }, error: string): Promise<void> {
    await this.recordFailure(payload.shopId, payload.importId, new Error(error), true);
  }

  private async recordFailure(shopId: string, importId: number, error: unknown, final: boolean): Promise<void> {
    const row = await repo.findImport(this.db, shopId, importId).catch(() => undefined);
    if (row?.status !== 'running') return;
    const now = this.deps.clock.now();
    const message = error instanceof Error ? error.message : String(error);
    let log: ImportLog = parseLog(row.log);
    if (final) log = addStatus(addStop(log, row.processed, message), 'failed', now);
    else log = addStatus(log, 'queued', now);
    await repo
      .updateImport(
        this.db,
        shopId,
        importId,
        final
          ? { status: 'failed', finished_at: now, updated_at: now, log: JSON.stringify(log) }
          : { status: 'queued', updated_at: now, log: JSON.stringify(log) },
        ['running'],
      )
      .catch(() => undefined);
  }

  private async requireSegment(shopId: string, segmentId: number | undefined): Promise<void> {
    await this.deps.shops.requireShop(shopId);
    if (segmentId !== undefined && !(await this.deps.segments.hasSegment(shopId, segmentId))) {
      throw segmentNotFound(segmentId);
    }
  }
}

/** How many of these consecutive chunks make up at most BATCH_RECORDS records (at least one). */
function takeBatch(chunks: readonly repo.ChunkSize[]): number {
  let taken = 0;
  let records = 0;
  for (const chunk of chunks) {
    if (taken > 0 && records + chunk.records > BATCH_RECORDS) break;
    taken += 1;
    records += chunk.records;
  }
  return taken;
}
