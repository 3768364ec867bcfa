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

/**
 * The time a thread of the process has spent on a CPU so far, in seconds, from
 * /proc/<pid>/task/<tid>/schedstat (Linux): the scheduler's own nanoseconds, exact where
 * /proc/<pid>/stat counts clock ticks (a thread woken by timers is charged whole ticks).
 * The main thread's id is the process id: for Patron, the thread that answers requests.
 */
export function threadCpuSeconds(pid: number, tid: number = pid): number | undefined {
  try {
    const onCpuNs = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(onCpuNs) ? onCpuNs / 1e9 : undefined;
  } catch {
    return undefined;
  }
}

/** Measures the share of wall time a thread spends on a CPU between start and stop (0..1). */
export function threadBusy(pid: number, tid: number = pid): { stop(): number | undefined } {
  const before = threadCpuSeconds(pid, tid);
  const started = performance.now();
  return {
    stop() {
      const after = threadCpuSeconds(pid, tid);
      const seconds = (performance.now() - started) / 1000;
      return before === undefined || after === undefined || seconds <= 0 ? undefined : (after - before) / seconds;
    },
  };
}
