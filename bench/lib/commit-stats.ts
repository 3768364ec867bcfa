import { scrapeMetrics } from './scrape.js';

/**
 * The event group committer's totals, read from the server's /metrics (the
 * patron_event_commits_total and patron_events_committed_total counters): the bench
 * reports events per commit over the measured run, the figure that explains most of the
 * server's cost per event.
 */

export interface CommitTotals {
  readonly commits: number;
  readonly committed: number;
}

function counter(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) return undefined;
  const value = Number(line.slice(name.length + 1));
  return Number.isFinite(value) ? value : undefined;
}

/** The totals now, or undefined when the server does not report them (the bare app). */
export async function readCommitTotals(baseUrl: string): Promise<CommitTotals | undefined> {
  const text = await scrapeMetrics(baseUrl);
  if (text === undefined) return undefined;
  const commits = counter(text, 'patron_event_commits_total');
  const committed = counter(text, 'patron_events_committed_total');
  return commits === undefined || committed === undefined ? undefined : { commits, committed };
}

/** Events per commit between two readings; undefined without both or without a commit. */
export function eventsPerCommit(before: CommitTotals | undefined, after: CommitTotals | undefined): number | undefined {
  if (!before || !after) return undefined;
  const commits = after.commits - before.commits;
  return commits > 0 ? (after.committed - before.committed) / commits : undefined;
}
