import { CHUNK_BYTES, CHUNK_RECORDS } from './limits.js';

/**
 * Records of one import as a stored chunk: their JSON texts separated by commas in UTF-8
 * (the inside of a JSON array, so that a request's bytes are stored as sent: a view of
 * the body, neither decoded nor copied to add brackets), and how many records that is.
 */
export interface RecordChunk {
  readonly body: Buffer;
  readonly records: number;
}

/** Cuts records (each as its JSON text) into chunks of at most CHUNK_RECORDS records and CHUNK_BYTES of text. */
export class ChunkBuilder {
  private parts: string[] = [];
  private length = 0;

  /** Adds a record; returns the chunk it completed, if any. */
  add(json: string): RecordChunk | undefined {
    const full = this.parts.length >= CHUNK_RECORDS || (this.parts.length > 0 && this.length + json.length > CHUNK_BYTES);
    const chunk = full ? this.flush() : undefined;
    this.parts.push(json);
    this.length += json.length + 1;
    return chunk;
  }

  /** The records not yet in a chunk, as one. */
  flush(): RecordChunk | undefined {
    if (this.parts.length === 0) return undefined;
    const chunk = { body: Buffer.from(this.parts.join(','), 'utf8'), records: this.parts.length };
    this.parts = [];
    this.length = 0;
    return chunk;
  }
}

/** Records as chunks, all at once (a form body, tests). */
export function toChunks(records: readonly unknown[]): RecordChunk[] {
  const builder = new ChunkBuilder();
  const chunks: RecordChunk[] = [];
  for (const record of records) {
    const chunk = builder.add(JSON.stringify(record) ?? 'null');
    if (chunk) chunks.push(chunk);
  }
  const last = builder.flush();
  if (last) chunks.push(last);
  return chunks;
}
