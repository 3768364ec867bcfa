/**
 * The cluster test's client: every request it sends ends in one of three outcomes, and
 * the invariants are judged on them. `ack` is an answer that says it was done (2xx and
 * the body's success mark); `refused` a clear refusal that did nothing (an answer of the
 * request's envelope saying it failed, e.g. 503 while PostgreSQL restarts); `unknown`
 * anything else (a reset connection, a balancer's 502), after which the request may or
 * may not have been done. An acknowledged request must be done exactly once, an unknown
 * one at most once, a refused one never... except that a refusal cannot prove nothing
 * was done either, so the checks treat refused like unknown and count them apart.
 */

export type Outcome = 'ack' | 'refused' | 'unknown';

export interface Answer {
  readonly outcome: Outcome;
  readonly status: number;
  readonly body: Record<string, unknown> | undefined;
  readonly text: string;
}

export interface Tally {
  ack: number;
  refused: number;
  unknown: number;
  /** Refusals whose envelope was not the one the endpoint answers with. */
  badEnvelopes: string[];
  /** Statuses of every answer that was not ack, with their counts. */
  statuses: Record<string, number>;
  /** The first few answers that were not ack, for a failure's message. */
  examples: string[];
}

export function newTally(): Tally {
  return { ack: 0, refused: 0, unknown: 0, badEnvelopes: [], statuses: {}, examples: [] };
}

/** Which envelope family an endpoint answers in (interface.md: two families). */
export type Envelope = 'status' | 'success';

function isAck(envelope: Envelope, body: Record<string, unknown>): boolean {
  return envelope === 'status' ? body.status === 'success' : body.success === true;
}

function isRefusal(envelope: Envelope, body: Record<string, unknown>): boolean {
  const payload = body.payload as Record<string, unknown> | undefined;
  const message = typeof payload?.message === 'string';
  return envelope === 'status' ? body.status === 'error' && message : body.success === false && message;
}

const TIMEOUT_MS = 30_000;

/** Sends one request and classifies its answer; never throws. */
export async function send(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  envelope: Envelope,
  body?: unknown,
  tally?: Tally,
): Promise<Answer> {
  let answer: Answer;
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed && isAck(envelope, parsed)) answer = { outcome: 'ack', status: response.status, body: parsed, text };
    else if (response.status === 503 && parsed && isRefusal(envelope, parsed))
      answer = { outcome: 'refused', status: response.status, body: parsed, text };
    else answer = { outcome: 'unknown', status: response.status, body: parsed, text };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    answer = { outcome: 'unknown', status: 0, body: undefined, text: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
  if (tally) {
    tally[answer.outcome] += 1;
    if (answer.outcome !== 'ack') {
      tally.statuses[String(answer.status)] = (tally.statuses[String(answer.status)] ?? 0) + 1;
      if (tally.examples.length < 5)
        tally.examples.push(`${new Date().toISOString()} ${method} ${path.split('?')[0]} ${answer.status}: ${answer.text.slice(0, 200)}`);
      if (answer.status >= 500 && answer.status !== 502 && answer.status !== 504 && answer.outcome !== 'refused')
        tally.badEnvelopes.push(`${method} ${path.split('?')[0]} ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
  }
  return answer;
}

/** An admin API call of the setup (below /admin/v1): the JSON answer, or an error naming the call. */
export async function admin(baseUrl: string, token: string, method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/admin/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** Runs `work(i)` for i in [0, count) with at most `concurrency` at a time. */
export async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) {
      const i = next;
      next += 1;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** Runs `work(i)` for i = 0, 1, … with `concurrency` lanes until `until()` turns true. */
export async function stream(concurrency: number, until: () => boolean, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (!until()) {
      const i = next;
      next += 1;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return next;
}
