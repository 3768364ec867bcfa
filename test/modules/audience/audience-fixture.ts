import { toChunks } from '../../../src/modules/audience/domain/chunks.js';
import type { AudienceImport } from '../../../src/modules/audience/audience.types.js';
import type { Services } from '../../../src/services.js';

export { toChunks };

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
