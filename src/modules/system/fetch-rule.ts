import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { parseAddressRange } from '../../net/ip-ranges.js';
import { deleteSetting, listSettingsByPrefix, writeSetting } from './settings.repo.js';

/** How often a process says it still runs with its rule. */
export const FETCH_RULE_HEARTBEAT_MS = 30_000;
/** A process not heard of for this long is gone (three missed heartbeats). */
export const FETCH_RULE_ALIVE_MS = 90_000;

const KEY_PREFIX = 'fetch_rule:';

export type FetchRule = boolean | readonly string[];

/** A process refused to start: a live process on the database fetches under another rule. */
export class FetchRuleConflict extends Error {
  override readonly name = 'FetchRuleConflict';
}

interface Entry {
  /** The rule as a canonical text: equal rules give equal texts, however they were written. */
  readonly canonical: string;
  /** The rule as the operator wrote it, for the message. */
  readonly text: string;
}

/**
 * PATRON_FETCH_ALLOW_PRIVATE must be the same in every process on one database
 * (README, "Configuration"). Any process may run any job: a feed download,
 * a picture, a webhook, a message through an SMTP server or a vendor's API, each guarded
 * by the rule of the process that happens to claim it, so a process with a looser rule
 * would reach addresses the others refuse, for jobs the others enqueued.
 *
 * Each `patron serve` and `patron worker` records its rule in `settings` when it starts,
 * under a key of its own, and refreshes it every FETCH_RULE_HEARTBEAT_MS; it removes it
 * when it stops. A process whose rule differs from that of a process heard of within
 * FETCH_RULE_ALIVE_MS refuses to start. A change of the rule is therefore made by stopping
 * every process and starting them with the new value; a process killed without stopping
 * holds its rule for FETCH_RULE_ALIVE_MS more.
 */
export class FetchRuleAgreement {
  private readonly key = `${KEY_PREFIX}${crypto.randomUUID()}`;
  private readonly entry: Entry;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock; readonly rule: FetchRule }) {
    this.entry = describeRule(deps.rule);
  }

  /** Records this process's rule; throws FetchRuleConflict when a live process has another. */
  async join(): Promise<void> {
    const now = this.deps.clock.now();
    // Written before the others are read: of two processes starting at once, at least the
    // later reader sees the other.
    await this.beat();
    const entries = await listSettingsByPrefix(this.deps.db.db, KEY_PREFIX);
    const live = entries.filter((row) => row.key !== this.key && now - row.updated_at < FETCH_RULE_ALIVE_MS);
    for (const row of entries) {
      if (row.key !== this.key && now - row.updated_at >= FETCH_RULE_ALIVE_MS) await deleteSetting(this.deps.db.db, row.key);
    }
    const other = live.map((row) => parseEntry(row.value)).find((entry) => entry.canonical !== this.entry.canonical);
    if (other) {
      await deleteSetting(this.deps.db.db, this.key);
      throw new FetchRuleConflict(
        `PATRON_FETCH_ALLOW_PRIVATE is "${this.entry.text}" here, but "${other.text}" in another process running on this ` +
          'database: every process must have the same value (to change it, stop them all, then start them with the new one).',
      );
    }
    this.timer = setInterval(() => void this.beat().catch(() => undefined), FETCH_RULE_HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Says this process still runs with its rule (the timer's work; tests call it). */
  async beat(): Promise<void> {
    await writeSetting(this.deps.db.db, this.key, JSON.stringify(this.entry), this.deps.clock.now());
  }

  /** At a graceful stop: the others may start with another rule at once. */
  async leave(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await deleteSetting(this.deps.db.db, this.key);
  }
}

function describeRule(rule: FetchRule): Entry {
  if (typeof rule === 'boolean') return { canonical: String(rule), text: String(rule) };
  const ranges = rule.map((text) => {
    const range = parseAddressRange(text);
    return range ? `${Buffer.from(range.bytes).toString('hex')}/${range.prefix}` : text.trim().toLowerCase();
  });
  return { canonical: [...new Set(ranges)].sort().join(','), text: rule.join(',') };
}

function parseEntry(value: string): Entry {
  try {
    const parsed = JSON.parse(value) as Partial<Entry>;
    if (typeof parsed.canonical === 'string' && typeof parsed.text === 'string') return { canonical: parsed.canonical, text: parsed.text };
  } catch {
    // Not ours to read: counted as a rule of its own, so that it is never taken for agreement.
  }
  return { canonical: value, text: value };
}
