import type { LoadResult } from './load.js';
import type { StoredCheck } from './stored.js';

/** The bench's printed report: one block per target, then the targets of issue 3 part 7. */

export interface TargetRun {
  readonly name: 'bare' | 'sqlite' | 'postgres';
  readonly load: LoadResult;
  readonly peakRssMb: number | undefined;
  /** Server CPU time (user + system) per answered event during the measured run. */
  readonly cpuUsPerEvent: number | undefined;
  /** Events per group commit during the measured run (Patron only, from its /metrics). */
  readonly eventsPerCommit?: number | undefined;
  readonly stored?: StoredCheck;
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export function describeRun(run: TargetRun, ceiling: TargetRun | undefined): string {
  const { load } = run;
  const lines = [
    `${run.name}:`,
    `  events/s     ${fmt(load.eventsPerSec, 0)}  (${load.ok} answered 2xx in ${fmt(load.durationSec, 2)} s)`,
    `  latency      p50 ${fmt(load.p50Ms, 2)} ms, p99 ${fmt(load.p99Ms, 2)} ms`,
    `  non-2xx      ${load.non2xx}${load.non2xx > 0 ? `  ${JSON.stringify(load.statusCodes)}` : ''}; ` +
      `connection errors ${load.errors}, timeouts ${load.timeouts}`,
    `  peak RSS     ${run.peakRssMb === undefined ? 'n/a' : `${fmt(run.peakRssMb)} MB`}`,
    `  server CPU   ${run.cpuUsPerEvent === undefined ? 'n/a' : `${fmt(run.cpuUsPerEvent, 0)} µs per event`}`,
  ];
  if (run.eventsPerCommit !== undefined) lines.push(`  batches      ${fmt(run.eventsPerCommit)} events per commit`);
  if (ceiling && ceiling !== run) lines.push(`  ratio        ${fmt(load.eventsPerSec / ceiling.load.eventsPerSec, 3)} of bare`);
  if (run.stored) {
    const s = run.stored;
    lines.push(
      `  stored       ${s.storedAcknowledged} of ${s.acknowledged} acknowledged (${s.storedAcknowledged === s.acknowledged ? 'equal' : 'NOT EQUAL'}), ` +
        `${s.duplicates} stored twice, ${s.storedUnacknowledged} unanswered at the stop but committed (of ${s.cutOff} cut off)`,
    );
  }
  return lines.join('\n');
}

export interface TargetVerdict {
  readonly label: string;
  readonly pass: boolean;
}

/** The targets of issue 3 part 7 for one database run. */
export function verdicts(run: TargetRun, ceiling: TargetRun | undefined): TargetVerdict[] {
  const ratio = ceiling ? run.load.eventsPerSec / ceiling.load.eventsPerSec : Number.NaN;
  const out: TargetVerdict[] = [];
  if (run.name === 'sqlite') {
    out.push({ label: `sqlite ratio ${fmt(ratio, 3)} >= 0.7`, pass: ratio >= 0.7 });
    out.push({ label: `sqlite p99 ${fmt(run.load.p99Ms, 2)} ms < 15 ms`, pass: run.load.p99Ms < 15 });
  }
  if (run.name === 'postgres') out.push({ label: `postgres ratio ${fmt(ratio, 3)} >= 0.45`, pass: ratio >= 0.45 });
  if (run.name !== 'bare') {
    const rss = run.peakRssMb ?? Number.NaN;
    out.push({ label: `${run.name} peak RSS ${fmt(rss)} MB < 250 MB`, pass: rss < 250 });
  }
  return out;
}
