/**
 * A bulk mailing's progress and results (docs/bulk.md, "Progress and results"): pure
 * sums over the counts the repository reads per mailing.
 */

export type AbPhase = 'testing' | 'waiting' | 'sending_winner' | 'done';

export interface Progress {
  /** Members to deal with: those counted at creation until the expansion has seen them all, then every recipient row. */
  readonly toSend: number;
  /** Members dealt with: sent + skipped + failed. */
  readonly done: number;
  /** done / toSend in whole percent, 100 once nothing is left. */
  readonly percent: number;
  /** Null without an A/B split. */
  readonly abPhase: AbPhase | null;
  readonly decideAt: number | null;
}

/** The outcome counters of a group of messages (a variant, the rest, or all). */
export interface Outcomes {
  readonly messaged: number;
  readonly sent: number;
  readonly failed: number;
  readonly bounced: number;
  readonly opened: number;
  readonly clicked: number;
  readonly unsubscribed: number;
  readonly purchases: number;
  /** Minor units. */
  readonly revenue: number;
}

export const NO_OUTCOMES: Outcomes = {
  messaged: 0,
  sent: 0,
  failed: 0,
  bounced: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  purchases: 0,
  revenue: 0,
};

export function addOutcomes(a: Outcomes, b: Outcomes): Outcomes {
  return {
    messaged: a.messaged + b.messaged,
    sent: a.sent + b.sent,
    failed: a.failed + b.failed,
    bounced: a.bounced + b.bounced,
    opened: a.opened + b.opened,
    clicked: a.clicked + b.clicked,
    unsubscribed: a.unsubscribed + b.unsubscribed,
    purchases: a.purchases + b.purchases,
    revenue: a.revenue + b.revenue,
  };
}

/** Sent minus bounced: the messages that reached their recipient, the base of the rates. */
export function delivered(o: Outcomes): number {
  return o.sent - o.bounced;
}

/** hits / delivered, 0 with nothing delivered; rounded to 4 decimals for the answer. */
export function rate(hits: number, base: number): number {
  return base > 0 ? Math.round((hits / base) * 10_000) / 10_000 : 0;
}

export function progressOf(input: {
  readonly stage: 'members' | 'wait' | 'rest' | 'end';
  readonly audience: number | null;
  /** Recipient rows written so far: held + messaged + skipped. */
  readonly rows: number;
  readonly done: number;
  readonly finished: boolean;
  readonly split: boolean;
  readonly decideAt: number | null;
}): Progress {
  const toSend = input.stage === 'members' ? Math.max(input.audience ?? 0, input.rows) : input.rows;
  const percent = input.finished || toSend === 0 ? 100 : Math.min(99, Math.floor((input.done * 100) / toSend));
  const phases: Record<typeof input.stage, AbPhase> = { members: 'testing', wait: 'waiting', rest: 'sending_winner', end: 'done' };
  return {
    toSend,
    done: input.done,
    percent,
    abPhase: input.split ? phases[input.stage] : null,
    decideAt: input.split ? input.decideAt : null,
  };
}
