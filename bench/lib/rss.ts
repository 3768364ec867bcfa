import fs from 'node:fs';

/**
 * Resident memory of a process from /proc/<pid>/status (Linux): VmRSS sampled while the
 * load runs, and VmHWM (the kernel's own high-water mark, which catches peaks between
 * samples) read at the end.
 */

function readKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface RssSampler {
  /** Stops sampling; returns the peak in MB (VmHWM when available, else the largest sample). */
  stop(): number | undefined;
}

export function sampleRss(pid: number, intervalMs = 250): RssSampler {
  let peakKb = readKb(pid, 'VmRSS') ?? 0;
  const timer = setInterval(() => {
    peakKb = Math.max(peakKb, readKb(pid, 'VmRSS') ?? 0);
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const hwm = readKb(pid, 'VmHWM');
      const kb = Math.max(peakKb, hwm ?? 0);
      return kb > 0 ? kb / 1024 : undefined;
    },
  };
}

/** CPU time (user + system) the process has used so far, in seconds, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
