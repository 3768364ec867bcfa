import fs from 'node:fs';
import os from 'node:os';

/**
 * A thread's scheduling priority (its nice value), on Linux, where each thread has one
 * of its own: `setpriority` on a thread id changes that thread alone, and a thread may
 * lower its own priority without privileges. Elsewhere nothing changes.
 */

/** This thread's kernel id, from /proc/thread-self (a link to `<pid>/task/<tid>`); undefined off Linux. */
function threadId(): number | undefined {
  try {
    const link = fs.readlinkSync('/proc/thread-self');
    const tid = Number(link.slice(link.lastIndexOf('/') + 1));
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** This thread's nice value as the kernel has it (/proc/thread-self/stat, field 19); undefined off Linux. */
export function threadNice(): number | undefined {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const nice = Number(fields[19 - 3]);
    return Number.isInteger(nice) ? nice : undefined;
  } catch {
    return undefined;
  }
}

export type PriorityOutcome = { readonly applied: true; readonly nice: number } | { readonly applied: false; readonly reason: string };

/**
 * Gives the calling thread the nice value `nice` (0 to 19; 0 leaves it as it is), so that
 * the process's other threads come first when the cores are all busy. Only ever lowers
 * the priority: a thread already at `nice` or beyond (a process started under `nice`)
 * is left as it is. Never fails: a platform without per-thread priorities, or a refusal,
 * is reported, not thrown.
 */
export function lowerThreadPriority(nice: number): PriorityOutcome {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new RangeError(`nice must be an integer from 0 to 19, got ${nice}`);
  if (nice === 0) return { applied: false, reason: 'not asked for' };
  const tid = threadId();
  if (tid === undefined) return { applied: false, reason: 'no per-thread priorities on this platform' };
  const current = threadNice();
  if (current !== undefined && current >= nice) return { applied: false, reason: `already at nice ${current}` };
  try {
    os.setPriority(tid, nice);
  } catch (error) {
    return { applied: false, reason: error instanceof Error ? error.message : String(error) };
  }
  return { applied: true, nice: threadNice() ?? nice };
}
