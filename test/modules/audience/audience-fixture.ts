import { CHUNK_RECORDS } from '../../../src/modules/audience/domain/limits.js';
import type { AudienceImport } from '../../../src/modules/audience/audience.types.js';
import type { RecordChunk } from '../../../src/modules/audience/audience.service.js';
import type { Services } from '../../../src/services.js';

/** Records as the chunks an import stores (what the public route and the CLI hand over). */
export function toChunks(records: readonly unknown[], size = CHUNK_RECORDS): RecordChunk[] {
  const chunks: RecordChunk[] = [];
  for (let i = 0; i < records.length; i += size) {
    const slice = records.slice(i, i + size);
    chunks.push({ text: JSON.stringify(slice).slice(1, -1), records: slice.length });
  }
  return chunks;
}

/** Submits an import and runs its job to the end, as the worker would; returns the log entry. */
export async function importRecords(
  services: Pick<Services, 'audience'>,
  shopId: string,
  records: readonly unknown[],
  segmentId?: number,
): Promise<AudienceImport> {
  const submitted = await services.audience.submitImport(shopId, {
    chunks: toChunks(records),
    ...(segmentId === undefined ? {} : { segmentId }),
  });
  await services.audience.runImport({ shopId, importId: submitted.id });
  const done = await services.audience.getImport(shopId, submitted.id);
  if (!done) throw new Error(`import ${submitted.id} vanished`);
  return done;
}

/** `n` records with distinct emails (and phones), numbered from `from`. */
export function generatedRecords(n: number, from = 0): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    email: `customer${from + i}@example.org`,
    phone: `7900${String(from + i).padStart(7, '0')}`,
    first_name: `Name${from + i}`,
  }));
}
