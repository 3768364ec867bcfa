/**
 * The import log ("system logs" of interface.md endpoint 11; admin-api.md, "Import
 * logs"), pure. The counts are complete; the lists are bounded: the first 100 skipped
 * records with their reasons (`errors`), the first 100 dropped fields (`warnings`), up to
 * 100 unknown property codes with how many records carried each, and the status changes.
 */

export const MAX_LOG_ENTRIES = 100;
export const MAX_UNKNOWN_CODES = 100;
const MAX_HISTORY = 20;
const MAX_CODE_SHOWN = 64;
const MAX_MESSAGE = 500;

export type ImportStatus = 'receiving' | 'queued' | 'running' | 'done' | 'failed';

/** A skipped record, or where a failed import stopped (`reason` "stopped"). */
export interface LogError {
  /** Position of the record in the import, from 0 (`audience[index]`). */
  readonly index: number;
  readonly reason: string;
  readonly message: string;
}

/** A field dropped from a record that was imported, or an identifier it could not take. */
export interface LogWarning {
  readonly index: number;
  readonly field: string;
  readonly message: string;
}

export interface ImportLog {
  readonly errors: readonly LogError[];
  readonly warnings: readonly LogWarning[];
  readonly skipped_reasons: Readonly<Record<string, number>>;
  readonly dropped_fields: Readonly<Record<string, number>>;
  readonly unknown_properties: Readonly<Record<string, number>>;
  readonly history: readonly { readonly status: ImportStatus; readonly at: number }[];
}

export function emptyLog(): ImportLog {
  return { errors: [], warnings: [], skipped_reasons: {}, dropped_fields: {}, unknown_properties: {}, history: [] };
}

/** What one chunk adds to the log; indexes are positions in the import. */
export interface ChunkReport {
  readonly skipped: readonly LogError[];
  readonly warnings: readonly LogWarning[];
  /** Unknown property codes, once per record that carried them. */
  readonly unknown: readonly string[];
}

export function addChunk(log: ImportLog, chunk: ChunkReport): ImportLog {
  const skippedReasons = { ...log.skipped_reasons };
  for (const entry of chunk.skipped) skippedReasons[entry.reason] = (skippedReasons[entry.reason] ?? 0) + 1;
  const droppedFields = { ...log.dropped_fields };
  for (const entry of chunk.warnings) {
    const field = entry.field.replace(/\[\d+\]$/, '');
    droppedFields[field] = (droppedFields[field] ?? 0) + 1;
  }
  const unknown = { ...log.unknown_properties };
  for (const raw of chunk.unknown) {
    const code = raw.length > MAX_CODE_SHOWN ? `${raw.slice(0, MAX_CODE_SHOWN)}…` : raw;
    if (Object.hasOwn(unknown, code)) unknown[code] = (unknown[code] as number) + 1;
    else if (Object.keys(unknown).length < MAX_UNKNOWN_CODES) unknown[code] = 1;
  }
  return {
    ...log,
    errors: [...log.errors, ...chunk.skipped.slice(0, Math.max(0, MAX_LOG_ENTRIES - log.errors.length))],
    warnings: [...log.warnings, ...chunk.warnings.slice(0, Math.max(0, MAX_LOG_ENTRIES - log.warnings.length))],
    skipped_reasons: skippedReasons,
    dropped_fields: droppedFields,
    unknown_properties: unknown,
  };
}

export function addStatus(log: ImportLog, status: ImportStatus, at: number): ImportLog {
  return { ...log, history: [...log.history, { status, at }].slice(-MAX_HISTORY) };
}

/**
 * A failed import says where it stopped: the first record it did not import. The entry
 * goes after the first 100 errors, so it is never crowded out.
 */
export function addStop(log: ImportLog, index: number, message: string): ImportLog {
  const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
  return { ...log, errors: [...log.errors, { index, reason: 'stopped', message: text }] };
}

/** The stored JSON read back; missing parts (an older document) are empty. */
export function parseLog(text: string): ImportLog {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return emptyLog();
  }
  return { ...emptyLog(), ...(typeof value === 'object' && value !== null ? (value as Partial<ImportLog>) : {}) };
}
