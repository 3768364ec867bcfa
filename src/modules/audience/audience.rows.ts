import { fromFlag } from '../../db/dialect.js';
import * as repo from './audience.repo.js';
import type { AudienceImport } from './audience.types.js';
import type { RecordChunk } from './domain/chunks.js';
import { parseLog, type ImportLog } from './domain/import-log.js';
import { CHUNK_RECORDS } from './domain/limits.js';
import type { AudienceFields, Car, Kid } from './domain/record.js';

/** Rows of audience imports and customer attributes, to and from the service's shapes. */

export function newImportRow(
  shopId: string,
  id: number,
  source: 'api' | 'cli',
  segmentId: number | undefined,
  status: 'queued' | 'receiving',
  now: number,
  log: ImportLog,
): repo.ImportRow {
  return {
    shop_id: shopId,
    id,
    kind: 'audience',
    source,
    segment_id: segmentId ?? null,
    status,
    received: 0,
    chunks: 0,
    next_chunk: 0,
    processed: 0,
    imported: 0,
    skipped: 0,
    profiles_created: 0,
    log: JSON.stringify(log),
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
  };
}

export function chunkRows(
  shopId: string,
  importId: number,
  firstSeq: number,
  firstIndex: number,
  chunks: readonly RecordChunk[],
): repo.ChunkRow[] {
  let index = firstIndex;
  return chunks.map((chunk, i) => {
    if (chunk.records > CHUNK_RECORDS) throw new Error(`A chunk holds at most ${CHUNK_RECORDS} records`);
    const row = { shop_id: shopId, import_id: importId, seq: firstSeq + i, first_index: index, records: chunk.records, body: chunk.body };
    index += chunk.records;
    return row;
  });
}

export function toImport(row: repo.ImportRow): AudienceImport {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    segmentId: row.segment_id,
    status: row.status === 'receiving' ? 'queued' : row.status,
    received: row.received,
    processed: row.processed,
    imported: row.imported,
    skipped: row.skipped,
    profilesCreated: row.profiles_created,
    log: parseLog(row.log),
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export function toFields(row: repo.AttributesRow): AudienceFields {
  const fields: Record<string, unknown> = {};
  for (const column of repo.ATTRIBUTE_COLUMNS) {
    const value = row[column];
    if (value === null) continue;
    if (column === 'kids') fields.kids = JSON.parse(value as string) as Kid[];
    else if (column === 'auto') fields.auto = JSON.parse(value as string) as Car[];
    else if (column === 'bought_something' || column.startsWith('email_') || column.startsWith('sms_')) {
      fields[column] = fromFlag(value as number);
    } else fields[column] = value;
  }
  return fields;
}
