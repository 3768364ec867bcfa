/**
 * A progress line for long commands, on stderr so that stdout keeps only the result. On a
 * terminal one line is redrawn in place (at most ten times a second); otherwise (a log
 * file, CI) a plain line is written every few seconds, so the log neither floods nor
 * goes silent.
 */

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

const TTY_INTERVAL_MS = 100;
const LOG_INTERVAL_MS = 5_000;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export class FeedProgress {
  private last = Number.NEGATIVE_INFINITY;
  private drawn = false;

  constructor(
    private readonly out: ProgressStream,
    /** The size of the document when known (a file, a Content-Length). */
    private readonly total: number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  update(progress: { bytes: number; offers: number }, force = false): void {
    const now = this.now();
    const interval = this.out.isTTY ? TTY_INTERVAL_MS : LOG_INTERVAL_MS;
    if (!force && now - this.last < interval) return;
    this.last = now;
    const line = this.describe(progress);
    if (this.out.isTTY) {
      this.out.write(`\r${line}\x1b[K`);
      this.drawn = true;
    } else {
      this.out.write(`${line}\n`);
    }
  }

  /** The final state, and the end of the redrawn line. */
  finish(progress: { bytes: number; offers: number }): void {
    this.update(progress, true);
    if (this.drawn) this.out.write('\n');
  }

  private describe({ bytes, offers }: { bytes: number; offers: number }): string {
    const read =
      this.total !== undefined && this.total > 0
        ? `${formatBytes(bytes)} of ${formatBytes(this.total)} (${Math.min(100, Math.floor((bytes / this.total) * 100))}%)`
        : formatBytes(bytes);
    return `Importing feed: ${read}, ${offers.toLocaleString('en-US')} offers`;
  }
}
