import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { fetchFeed, formatOfFetched } from '../modules/catalog/catalog.fetch.js';
import type { FeedFormat, FeedImportResult } from '../modules/catalog/catalog.types.js';
import { createServices } from '../services.js';
import { openMigratedDatabase } from './database.js';
import { FeedProgress, formatBytes, type ProgressStream } from './progress.js';

/** A refusal to print as it is (exit 1): a file that cannot be read, a URL that does not answer. */
export class ImportFeedError extends Error {
  override readonly name = 'ImportFeedError';
}

interface OpenedSource {
  readonly body: Readable;
  readonly format: FeedFormat;
  readonly size: number | undefined;
}

async function openSource(source: string, format: FeedFormat | undefined, config: Config): Promise<OpenedSource> {
  if (/^https?:\/\//i.test(source)) {
    // The same bounds as the scheduled fetch: size, time, and no private addresses
    // unless PATRON_FETCH_ALLOW_PRIVATE says so.
    const fetched = await fetchFeed(source, config);
    if (!fetched.ok) throw new ImportFeedError(`The feed URL could not be fetched: ${fetched.reason}`);
    return { body: fetched.body, format: format ?? formatOfFetched(fetched.contentType, fetched.url), size: undefined };
  }
  let size: number;
  try {
    const stat = await fs.promises.stat(source);
    if (!stat.isFile()) throw new ImportFeedError(`${source} is not a file.`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ImportFeedError) throw error;
    throw new ImportFeedError(`Cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`);
  }
  const guessed: FeedFormat = path.extname(source).toLowerCase() === '.json' ? 'json' : 'yml';
  return { body: fs.createReadStream(source, { highWaterMark: 64 * 1024 }), format: format ?? guessed, size };
}

function describeResult(shopId: string, result: FeedImportResult, bytes: number): string {
  const lines = [
    `Imported ${formatBytes(bytes)} into shop ${shopId} (catalog generation ${result.generation}):`,
    `  products    ${result.products}`,
    `  categories  ${result.categories}`,
    `  locations   ${result.locations}`,
    `  skipped     ${result.skippedCount}`,
  ];
  if (result.skipped.length > 0) {
    lines.push(result.skippedCount > result.skipped.length ? `The first ${result.skipped.length} skipped:` : 'Skipped:');
    for (const entry of result.skipped) lines.push(`  ${entry.id === '' ? '(no id)' : entry.id}: ${entry.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `patron import feed FILE|URL --shop ID [--format yml|json]`: streams the document into
 * the same import as the admin API (source `cli`), with a progress line on stderr, and
 * returns the counts and skipped reasons to print.
 */
export async function importFeedCommand(
  config: Config,
  command: { readonly source: string; readonly shopId: string; readonly format?: FeedFormat },
  progressOut: ProgressStream = process.stderr,
): Promise<string> {
  const { db } = await openMigratedDatabase(config);
  let opened: OpenedSource | undefined;
  try {
    const services = createServices({ config, db, clock: systemClock });
    // The shop first, so that a typo in --shop does not cost a download.
    await services.shops.requireShop(command.shopId);
    opened = await openSource(command.source, command.format, config);
    const progress = new FeedProgress(progressOut, opened.size);
    let last = { bytes: 0, offers: 0 };
    const result = await services.catalog.importFeed({
      shopId: command.shopId,
      format: opened.format,
      body: opened.body,
      source: 'cli',
      onProgress: (p) => {
        last = p;
        progress.update(p);
      },
    });
    progress.finish(last);
    return describeResult(command.shopId, result, last.bytes);
  } finally {
    opened?.body.destroy();
    await db.destroy();
  }
}
