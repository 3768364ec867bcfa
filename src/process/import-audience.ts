import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import type { AudienceImport } from '../modules/audience/audience.types.js';
import { CsvError, CsvReader, csvRecord } from '../modules/audience/domain/csv.js';
import { ChunkBuilder, type RecordChunk } from '../modules/audience/domain/chunks.js';
import { createServices } from '../services.js';
import { openMigratedDatabase } from './database.js';
import { formatBytes, type ProgressStream } from './progress.js';

/** A refusal to print as it is (exit 1): a file that cannot be read or is not CSV / JSON Lines. */
export class ImportAudienceError extends Error {
  override readonly name = 'ImportAudienceError';
}

export type AudienceFileFormat = 'csv' | 'jsonl';

export interface ImportAudienceCommand {
  readonly file: string;
  readonly shopId: string;
  readonly segmentId?: number;
  readonly format?: AudienceFileFormat;
}

/** Longest JSON line accepted: a bound on memory for a file without line breaks. */
const MAX_LINE = 16 * 1024 * 1024;
/** Chunks stored per transaction while the file is read. */
const CHUNKS_PER_APPEND = 4;
/**
 * The import's job is queued this far ahead: this command imports the records itself,
 * and a worker only finishes what it left (the command was killed).
 */
const FALLBACK_DELAY_MS = 10 * 60 * 1000;

/**
 * `patron import audience FILE --shop ID [--segment N] [--format csv|jsonl]`: streams the
 * file into an import (source `cli`) with the same checks as POST /import/audience, then
 * runs the import in this process, with a progress bar on stderr, and returns the
 * summary. A file that is not valid CSV or JSON Lines is refused whole, as a body that is
 * not JSON is; bad records in a valid file are skipped with their reasons.
 */
export async function importAudienceCommand(
  config: Config,
  command: ImportAudienceCommand,
  progressOut: ProgressStream = process.stderr,
): Promise<string> {
  const size = await fileSize(command.file);
  const format = command.format ?? guessFormat(command.file);
  const { db } = await openMigratedDatabase(config);
  const stop = new AbortController();
  const onSignal = () => stop.abort(new ImportAudienceError('Interrupted.'));
  process.once('SIGINT', onSignal);
  try {
    const services = createServices({ config, db, clock: systemClock });
    const { audience } = services;
    const importId = await audience.beginUpload(command.shopId, {
      ...(command.segmentId === undefined ? {} : { segmentId: command.segmentId }),
    });
    const progress = new ProgressBar(progressOut);
    let received = 0;
    try {
      let pending: RecordChunk[] = [];
      for await (const chunk of readChunks(command.file, format, (bytes) =>
        progress.update('Reading', bytes, size, `${received} records`),
      )) {
        stop.signal.throwIfAborted();
        pending.push(chunk);
        received += chunk.records;
        if (pending.length >= CHUNKS_PER_APPEND) {
          await audience.appendUpload(command.shopId, importId, pending);
          pending = [];
        }
      }
      if (pending.length > 0) await audience.appendUpload(command.shopId, importId, pending);
      progress.finish('Reading', size, size, `${received} records`);
    } catch (error) {
      await audience.abandonUpload(command.shopId, importId);
      throw error;
    }
    await audience.sealUpload(command.shopId, importId, { runAt: systemClock.now() + FALLBACK_DELAY_MS });
    try {
      await audience.runImport(
        { shopId: command.shopId, importId },
        { signal: stop.signal, onProgress: (p) => progress.update('Importing', p.processed, p.received, 'records') },
      );
    } catch (error) {
      if (!stop.signal.aborted) throw error;
      throw new ImportAudienceError(`Interrupted: import ${importId} is stored and a worker (patron serve or patron worker) finishes it.`);
    }
    const result = await audience.getImport(command.shopId, importId);
    if (!result) throw new Error(`Import ${importId} vanished`);
    progress.finish('Importing', result.processed, result.received, 'records');
    if (result.status !== 'done') throw new ImportAudienceError(`Import ${importId} ended ${result.status}.`);
    return describe(command, result);
  } finally {
    process.removeListener('SIGINT', onSignal);
    await db.destroy();
  }
}

async function fileSize(file: string): Promise<number> {
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new ImportAudienceError(`${file} is not a file.`);
    return stat.size;
  } catch (error) {
    if (error instanceof ImportAudienceError) throw error;
    throw new ImportAudienceError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
  }
}

function guessFormat(file: string): AudienceFileFormat {
  const extension = path.extname(file).toLowerCase();
  return extension === '.jsonl' || extension === '.ndjson' || extension === '.json' ? 'jsonl' : 'csv';
}

/** The records of the file as chunks, read as a stream: the file is never in memory whole. */
async function* readChunks(file: string, format: AudienceFileFormat, onBytes: (bytes: number) => void): AsyncGenerator<RecordChunk> {
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const csv = new CsvReader();
  let header: string[] | undefined;
  let carry = '';
  let lineNumber = 0;
  const builder = new ChunkBuilder();
  let first = true;
  const take = function* (records: unknown[]): Generator<RecordChunk> {
    for (const record of records) {
      const chunk = builder.add(JSON.stringify(record));
      if (chunk) yield chunk;
    }
  };
  const fromCsv = (rows: { cells: string[]; line: number }[]): unknown[] => {
    const records: unknown[] = [];
    for (const row of rows) {
      if (!header) header = row.cells.map((name) => name.trim());
      else records.push(csvRecord(header, row.cells));
    }
    return records;
  };
  const fromLines = (text: string): unknown[] =>
    text.split('\n').flatMap((line) => {
      lineNumber += 1;
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line) as unknown];
      } catch {
        throw new ImportAudienceError(`Line ${lineNumber} is not valid JSON.`);
      }
    });
  try {
    for await (const piece of stream as AsyncIterable<string>) {
      let text = piece;
      // A byte order mark, which spreadsheets write before UTF-8 text.
      if (first && text.startsWith('\uFEFF')) text = text.slice(1);
      first = false;
      onBytes(stream.bytesRead);
      if (format === 'csv') {
        yield* take(fromCsv(csv.push(text)));
      } else {
        const lines = carry + text;
        const cut = lines.lastIndexOf('\n');
        carry = lines.slice(cut + 1);
        if (carry.length > MAX_LINE) throw new ImportAudienceError(`Line ${lineNumber + 1} is longer than ${MAX_LINE} characters.`);
        if (cut >= 0) yield* take(fromLines(lines.slice(0, cut)));
      }
    }
    yield* take(format === 'csv' ? fromCsv(csv.end()) : fromLines(carry));
  } catch (error) {
    if (error instanceof CsvError) throw new ImportAudienceError(`${file} is not valid CSV: ${error.message}`);
    throw error;
  } finally {
    stream.destroy();
  }
  if (format === 'csv' && header === undefined) throw new ImportAudienceError(`${file} has no header row.`);
  const last = builder.flush();
  if (last) yield last;
}

function describe(command: ImportAudienceCommand, result: AudienceImport): string {
  const lines = [
    `Imported ${command.file} into shop ${command.shopId} (import ${result.id}${result.segmentId === null ? '' : `, segment ${result.segmentId}`}):`,
    `  received          ${result.received}`,
    `  imported          ${result.imported}`,
    `  skipped           ${result.skipped}`,
    `  new profiles      ${result.profilesCreated}`,
  ];
  const skipped = result.log.errors;
  if (skipped.length > 0) {
    lines.push(
      result.skipped > skipped.length
        ? `The first ${skipped.length} skipped (record numbers count from 1):`
        : 'Skipped (record numbers count from 1):',
    );
    for (const entry of skipped) lines.push(`  record ${entry.index + 1}: ${entry.reason}: ${entry.message}`);
  }
  const unknown = Object.keys(result.log.unknown_properties);
  if (unknown.length > 0) lines.push(`Unknown properties, not stored: ${unknown.join(', ')}`);
  if (result.log.warnings.length > 0) {
    lines.push(
      `Fields dropped: ${Object.entries(result.log.dropped_fields)
        .map(([field, n]) => `${field} ${n}`)
        .join(', ')} (details: GET /admin/v1/shops/${command.shopId}/imports)`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const BAR_WIDTH = 30;
const TTY_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 5_000;

/**
 * `Reading   [##########--------------------]  33% 12.0 MiB of 36.0 MiB` on stderr: redrawn
 * in place on a terminal, a plain line every few seconds otherwise (a log, CI).
 */
class ProgressBar {
  private last = Number.NEGATIVE_INFINITY;
  private drawn = false;

  constructor(private readonly out: ProgressStream) {}

  update(stage: string, done: number, total: number, detail: string, force = false): void {
    const now = Date.now();
    if (!force && now - this.last < (this.out.isTTY ? TTY_INTERVAL_MS : LOG_INTERVAL_MS)) return;
    this.last = now;
    const ratio = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(ratio * BAR_WIDTH);
    const amounts = stage === 'Reading' ? `${formatBytes(done)} of ${formatBytes(total)}, ${detail}` : `${done} of ${total} ${detail}`;
    const line = `${stage.padEnd(9)} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${amounts}`;
    if (this.out.isTTY) {
      this.out.write(`\r${line}\x1b[K`);
      this.drawn = true;
    } else {
      this.out.write(`${line}\n`);
    }
  }

  finish(stage: string, done: number, total: number, detail: string): void {
    this.update(stage, done, total, detail, true);
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
    this.last = Number.NEGATIVE_INFINITY;
  }
}
