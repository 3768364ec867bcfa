import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OffsetFileClock, processClock, systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';

describe('the test clock of a running process (PATRON_TEST_CLOCK_FILE)', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'patron-clock-')), 'offset');

  it('runs ahead by the file’s milliseconds, reading a change after its reread interval', async () => {
    fs.writeFileSync(file, String(3_600_000));
    const clock = new OffsetFileClock(file, 20);
    const ahead = clock.now() - Date.now();
    expect(ahead).toBeGreaterThanOrEqual(3_600_000 - 5);
    expect(ahead).toBeLessThanOrEqual(3_600_000 + 5);
    fs.writeFileSync(file, String(7_200_000));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(clock.now() - Date.now()).toBeGreaterThanOrEqual(7_200_000 - 5);
  });

  it('keeps the system time when the file is missing or holds no whole number', () => {
    const missing = new OffsetFileClock(path.join(path.dirname(file), 'absent'));
    expect(Math.abs(missing.now() - Date.now())).toBeLessThan(5);
    fs.writeFileSync(file, 'soon');
    expect(Math.abs(new OffsetFileClock(file).now() - Date.now())).toBeLessThan(5);
  });

  it('is used only when configured', () => {
    expect(processClock(undefined)).toBe(systemClock);
    expect(processClock(file)).toBeInstanceOf(OffsetFileClock);
    expect(loadConfig({}, '/srv').testClockFile).toBeUndefined();
    expect(loadConfig({ PATRON_TEST_CLOCK_FILE: 'clock' }, '/srv').testClockFile).toBe('/srv/clock');
  });
});
