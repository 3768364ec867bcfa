import fs from 'node:fs';

/** Time is injected so that expiry, limits, sessions and backoff are exact in tests. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The system clock moved on by a number of milliseconds kept in a file
 * (PATRON_TEST_CLOCK_FILE): the browser and process tests make a running server live
 * through a chain's hour-long wait in a second, from outside the process and in its job
 * thread alike. The file is read at most every `rereadMs`; a missing or unreadable file
 * means no offset. Never set in production (docs/admin-ui.md, "Testing it").
 */
export class OffsetFileClock implements Clock {
  private offset = 0;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly file: string,
    private readonly rereadMs = 200,
  ) {}

  now(): number {
    const real = Date.now();
    if (real - this.readAt >= this.rereadMs) {
      this.readAt = real;
      this.offset = readOffset(this.file);
    }
    return real + this.offset;
  }
}

function readOffset(file: string): number {
  try {
    const value = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(value) ? value : 0;
  } catch {
    return 0;
  }
}

/** The clock a server or worker process runs on: the system's, or the test offset's when configured. */
export function processClock(testClockFile: string | undefined): Clock {
  return testClockFile === undefined ? systemClock : new OffsetFileClock(testClockFile);
}

/** A clock for tests: starts at a fixed instant and moves only when told. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
