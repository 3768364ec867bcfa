import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { inAnyRange, isPublicAddress, parseAddressRange, type AddressRange } from './ip-ranges.js';
import { formatDuration, networkError, SafeFetchError, type SafeFetchFailure } from './safe-fetch.errors.js';

/**
 * The private-address guard every outbound connection of Patron goes through (feeds,
 * pictures, provider APIs, SMTP, HTTP/2 push): resolve the host here, judge every
 * address (net/ip-ranges.ts), and pin the socket to the judged address with
 * `pinnedLookup`, so that a DNS answer changing between check and connect (rebinding)
 * cannot redirect the connection.
 */

/**
 * Non-public addresses that may be reached (config PATRON_FETCH_ALLOW_PRIVATE): `true`
 * for all of them, or a list of addresses and CIDR ranges (`10.1.2.3`, `fd00::/8`).
 */
export type AllowPrivate = boolean | readonly string[];

/** One timer and one abort signal for a whole outbound call; the caller's signal cancels it too. */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = (): void => this.controller.abort(new SafeFetchError('aborted', `The ${this.what} was cancelled.`));

  /** `what` names the work in the reasons: 'download' for a fetched file, 'request' for an API call. */
  constructor(
    timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly what: 'download' | 'request' = 'download',
  ) {
    this.timer = setTimeout(
      () => this.controller.abort(new SafeFetchError('timeout', `The ${this.what} did not finish within ${formatDuration(timeoutMs)}.`)),
      timeoutMs,
    );
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The reason to report for `error`: once aborted, the abort's own reason wins over the socket's complaint. */
  failure(error: unknown): SafeFetchError {
    const reason: unknown = this.controller.signal.reason;
    if (this.controller.signal.aborted && reason instanceof SafeFetchError) return reason;
    return networkError(error);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}

export interface Address {
  readonly address: string;
  readonly family: 4 | 6;
}

const REFUSED_ADDRESS = 'The link points to a local or private network address, which is not allowed.';

/** `true`: every address; a list: public addresses and those ranges; otherwise public addresses only. */
export function allowedRanges(allowPrivate: AllowPrivate | undefined): true | readonly AddressRange[] {
  if (allowPrivate === true) return true;
  if (allowPrivate === undefined || allowPrivate === false) return [];
  return allowPrivate.map((text) => {
    const range = parseAddressRange(text);
    if (!range) throw new Error(`allowPrivate holds "${text}", which is not an address or CIDR range`);
    return range;
  });
}

export async function resolveAllowed(target: URL | string, allowed: true | readonly AddressRange[], signal: AbortSignal): Promise<Address> {
  const host = (typeof target === 'string' ? target : target.hostname).replace(/^\[(.*)\]$/, '$1');
  const literal = net.isIP(host);
  let candidates: Address[];
  if (literal !== 0) {
    candidates = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      const found = await abortable(dns.promises.lookup(host, { all: true, verbatim: true }), signal);
      candidates = found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
    } catch (error) {
      if (signal.aborted) throw error;
      throw new SafeFetchError('unresolvable', 'The host name of the link could not be resolved.');
    }
  }
  // Any public address will do: the connection is pinned to the one chosen here.
  const chosen =
    allowed === true
      ? candidates[0]
      : candidates.find((candidate) => isPublicAddress(candidate.address) || inAnyRange(candidate.address, allowed));
  if (!chosen) {
    throw new SafeFetchError(
      candidates.length === 0 ? 'unresolvable' : 'refused_address',
      candidates.length === 0 ? 'The host name of the link could not be resolved.' : REFUSED_ADDRESS,
    );
  }
  return chosen;
}

/** A lookup that answers with the address already checked, whatever the socket asks. */
export function pinnedLookup(pinned: Address): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** An address the guard allowed, for a protocol other than HTTP to connect to (and only to). */
export interface GuardedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * The guard of safeFetch for other protocols (SMTP): resolves `host` (a name or an IP
 * literal, brackets allowed) within `timeoutMs` and returns an address that is public or
 * in `allowPrivate`. The caller must connect to this address and nowhere else, naming
 * the host only for TLS (SNI and the certificate check), so that DNS cannot change the
 * answer between the check and the connection.
 */
export async function resolveGuardedHost(
  host: string,
  options: { readonly allowPrivate?: AllowPrivate; readonly signal?: AbortSignal; readonly timeoutMs: number },
): Promise<({ readonly ok: true } & GuardedAddress) | SafeFetchFailure> {
  const deadline = new Deadline(options.timeoutMs, options.signal, 'request');
  try {
    const target = new URL('http://placeholder');
    target.hostname = net.isIPv6(host) ? `[${host}]` : host;
    if (target.hostname === 'placeholder' && host !== 'placeholder') {
      throw new SafeFetchError('invalid_url', 'The host name is not valid.');
    }
    const chosen = await resolveAllowed(target, allowedRanges(options.allowPrivate), deadline.signal);
    return { ok: true, address: chosen.address, family: chosen.family };
  } catch (error) {
    return deadline.failure(error).toFailure();
  } finally {
    deadline.clear();
  }
}

/** True when the guard lets a connection reach `address` (an IP literal) under `allowPrivate`. */
export function isGuardAllowed(address: string, allowPrivate: AllowPrivate | undefined): boolean {
  const allowed = allowedRanges(allowPrivate);
  return allowed === true || isPublicAddress(address) || inAnyRange(address, allowed);
}
