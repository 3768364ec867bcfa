import { createHash } from 'node:crypto';
import type { Clock } from '../../../clock.js';

/**
 * The bearer tokens of the push vendors (an FCM OAuth access token, an APNs provider
 * JWT), one per shop's credentials, kept until their refresh time. Concurrent sends for
 * the same credentials share one pending issue, so a burst of messages costs one token
 * exchange, not one per message. Bounded: the oldest credentials go first.
 */

export interface IssuedToken {
  readonly value: string;
  /** When the next send must issue a new token (ms since the epoch, by the injected clock). */
  readonly refreshAt: number;
  /** When it was issued: a vendor that limits how often tokens change (APNs) is judged by it. */
  readonly issuedAt: number;
}

export class PushTokenCache {
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly pending = new Map<string, Promise<IssuedToken>>();

  constructor(
    private readonly clock: Clock,
    private readonly max = 1000,
  ) {}

  /** The cached token of `key` while it is fresh, otherwise the one `issue` returns (once for all concurrent callers). */
  async get(key: string, issue: () => Promise<IssuedToken>): Promise<IssuedToken> {
    const cached = this.tokens.get(key);
    if (cached && cached.refreshAt > this.clock.now()) return cached;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const issuing = issue()
      .then((token) => {
        this.store(key, token);
        return token;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, issuing);
    return issuing;
  }

  /** Forgets `key`'s token if it is still `value`: the vendor refused it, the next send issues another. */
  drop(key: string, value: string): void {
    if (this.tokens.get(key)?.value === value) this.tokens.delete(key);
  }

  private store(key: string, token: IssuedToken): void {
    this.tokens.delete(key);
    this.tokens.set(key, token);
    if (this.tokens.size > this.max) {
      const oldest = this.tokens.keys().next();
      if (!oldest.done) this.tokens.delete(oldest.value);
    }
  }
}

/** A cache key for a set of credentials that does not keep the secret itself in memory as a key. */
export function credentialsKey(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('base64url');
}

/** A key pasted with literal "\\n" (as it sits in a JSON string or an environment variable) is read as PEM lines. */
export function pemText(key: string): string {
  return key.includes('\\n') ? key.replace(/\\n/g, '\n') : key;
}
