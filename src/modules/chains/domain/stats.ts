import type { Step } from './definition.js';

/**
 * A chain version's statistics per step (docs/chains.md, "Statistics"), from the counts of
 * its runs by current step and status and of its messages by send step. Pure.
 *
 * Steps only go forward, and a run's `step` is the step it is at (the last one it reached
 * once it ended): so a run at step k entered every step up to k, and the runs that entered
 * step i are those whose step is i or later.
 */

export interface RunCount {
  readonly step: number;
  readonly status: 'waiting' | 'done' | 'exited';
  readonly count: number;
}

export interface SendCount {
  readonly step: number;
  readonly sent: number;
  readonly opened: number;
  readonly clicked: number;
}

export interface StepStats {
  readonly index: number;
  readonly kind: string;
  /** Runs that reached the step. */
  readonly entered: number;
  /** Runs at the step now, waiting for it to come due. */
  readonly waiting: number;
  /** Runs that ended `exited` at the step (a false condition, an exit step, a purchase). */
  readonly exited: number;
  /** Runs that ended `done` at the step (its last step). */
  readonly done: number;
  /** Send steps: deliveries sent, and of them opened and clicked. */
  readonly sent?: number;
  readonly opened?: number;
  readonly clicked?: number;
}

export function stepStats(steps: readonly Step[], runs: readonly RunCount[], sends: readonly SendCount[]): StepStats[] {
  const at = (index: number, status: RunCount['status']) =>
    runs.filter((r) => r.step === index && r.status === status).reduce((sum, r) => sum + r.count, 0);
  return steps.map((step, index) => {
    const kind = Object.keys(step)[0] ?? 'exit';
    const base = {
      index,
      kind,
      entered: runs.filter((r) => r.step >= index).reduce((sum, r) => sum + r.count, 0),
      waiting: at(index, 'waiting'),
      exited: at(index, 'exited'),
      done: at(index, 'done'),
    };
    if (!('send' in step)) return base;
    const send = sends.find((s) => s.step === index);
    return { ...base, sent: send?.sent ?? 0, opened: send?.opened ?? 0, clicked: send?.clicked ?? 0 };
  });
}
