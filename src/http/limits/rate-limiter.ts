import type { Clock } from '../../clock.js';
import type { RateLimitConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { clientKey } from './client-key.js';
import { KeyedFailureWindows } from './failure-windows.js';
import { KeyedTokenBuckets } from './token-buckets.js';

/**
 * The abuse limits of one process (docs/limits.md), held in its memory: no shared store,
 * so with several API processes each enforces its own share. Each check throws a 429
 * AppError whose `retryAfterSeconds` detail becomes the Retry-After header in the
 * envelope of the scope that answers.
 *
 *  - address:     every request from one client address (token bucket)
 *  - shop:        every public request of one shop (token bucket)
 *  - devices:     devices GET /init creates for one client address (token bucket)
 *  - wallet_log:  device logs posted to one shop's wallet web service (token bucket)
 *  - shop_secret, admin_token: wrong credentials from one client address (fixed window);
 *  - admin_sign_in: wrong passwords at the admin UI's sign-in, per client address and per
 *    email (keyed `email:<address>`), so that neither one address nor many guess one account;
 *    once spent, every attempt with that kind of credential is refused until the window
 *    ends, a right one included, so that a guesser learns nothing from the answers.
 */
export const LIMIT_KINDS = ['address', 'shop', 'devices', 'wallet_log', 'shop_secret', 'admin_token', 'admin_sign_in'] as const;
type BucketKind = Extract<LimitKind, 'address' | 'shop' | 'devices' | 'wallet_log'>;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export type CredentialKind = Extract<LimitKind, 'shop_secret' | 'admin_token' | 'admin_sign_in'>;

export interface RateLimitStats {
  /** Requests refused with 429 since start, by limit. */
  readonly limited: Readonly<Record<LimitKind, number>>;
  /** Keys each limit holds in memory now. */
  readonly tracked: Readonly<Record<LimitKind, number>>;
}

/**
 * Keys one limit holds at most (about 100 bytes each: some 5 MB a limit). Beyond it the
 * least recently seen key is forgotten, which only ever makes that key's next request
 * look like its first.
 */
export const MAX_TRACKED_KEYS = 50_000;

/**
 * Device logs one shop's wallet web service takes a minute. Fixed rather than a setting:
 * Wallet posts a log only when it meets a problem with the service, and the endpoint
 * takes no credential, so this bounds what anyone can make the server log per shop.
 */
export const WALLET_LOGS_PER_MINUTE = 60;

const MESSAGES: Readonly<Record<LimitKind, string>> = {
  address: 'Too many requests from this address',
  shop: 'Too many requests for this shop',
  devices: 'Too many new devices from this address',
  wallet_log: 'Too many device logs for this shop',
  shop_secret: 'Too many wrong shop secrets from this address',
  admin_token: 'Too many wrong admin tokens from this address',
  admin_sign_in: 'Too many failed sign-ins',
};

export class RateLimiter {
  private readonly buckets: Readonly<Record<BucketKind, KeyedTokenBuckets>>;
  private readonly failures: Readonly<Record<CredentialKind, KeyedFailureWindows>>;
  private readonly limited: Record<LimitKind, number> = {
    address: 0,
    shop: 0,
    devices: 0,
    wallet_log: 0,
    shop_secret: 0,
    admin_token: 0,
    admin_sign_in: 0,
  };

  constructor(
    private readonly config: RateLimitConfig,
    private readonly clock: Clock,
    maxKeys: number = MAX_TRACKED_KEYS,
  ) {
    const perSecond = (rate: number) => ({ capacity: rate, perSecond: rate, maxKeys });
    this.buckets = {
      address: new KeyedTokenBuckets(perSecond(config.addressPerSecond)),
      shop: new KeyedTokenBuckets(perSecond(config.shopPerSecond)),
      devices: new KeyedTokenBuckets({
        capacity: config.devicesPerMinute,
        perSecond: config.devicesPerMinute / 60,
        maxKeys,
      }),
      wallet_log: new KeyedTokenBuckets({ capacity: WALLET_LOGS_PER_MINUTE, perSecond: WALLET_LOGS_PER_MINUTE / 60, maxKeys }),
    };
    const window = { limit: config.authFailures, windowMs: config.authFailureWindowSeconds * 1000, maxKeys };
    this.failures = {
      shop_secret: new KeyedFailureWindows(window),
      admin_token: new KeyedFailureWindows(window),
      admin_sign_in: new KeyedFailureWindows(window),
    };
  }

  /** Every request from `address` (the client address, behind trusted proxies resolved). */
  checkAddress(address: string): void {
    if (this.config.enabled) this.take('address', clientKey(address));
  }

  /** Every public request of a shop that exists. */
  checkShop(shopId: string): void {
    this.take('shop', shopId);
  }

  /** GET /init about to create a device for a caller at `address`. */
  checkDeviceCreation(address: string): void {
    if (this.config.enabled) this.take('devices', clientKey(address));
  }

  /** A device log posted to the wallet web service of a shop that has issued passes. */
  checkWalletLog(shopId: string): void {
    this.take('wallet_log', shopId);
  }

  /**
   * An early refusal for an address that spent its wrong credentials of `kind`, before
   * anything is read for the request. Not the limit itself: `attemptCredential` is.
   */
  checkCredentialAttempt(kind: CredentialKind, address: string): void {
    if (!this.config.enabled) return;
    const wait = this.failures[kind].blockedFor(clientKey(address), this.clock.now());
    if (wait > 0) this.refuse(kind, wait);
  }

  /**
   * Compares a credential of `kind` from `address` under the failure limit: refuses
   * (429) an address that spent its failures, otherwise runs `matches` and counts a
   * failure when it answers false. Check, comparison and count are one synchronous step,
   * so no other attempt of the process runs between them: with the stored secret read
   * beforehand (an await), N concurrent attempts would otherwise all pass the check
   * while the first ones were still reading, and all be compared.
   */
  attemptCredential(kind: CredentialKind, address: string, matches: () => boolean): boolean {
    if (!this.config.enabled) return matches();
    const key = clientKey(address);
    const now = this.clock.now();
    const wait = this.failures[kind].blockedFor(key, now);
    if (wait > 0) this.refuse(kind, wait);
    if (matches()) return true;
    this.failures[kind].recordFailure(key, now);
    return false;
  }

  stats(): RateLimitStats {
    return {
      limited: { ...this.limited },
      tracked: {
        address: this.buckets.address.size,
        shop: this.buckets.shop.size,
        devices: this.buckets.devices.size,
        wallet_log: this.buckets.wallet_log.size,
        shop_secret: this.failures.shop_secret.size,
        admin_token: this.failures.admin_token.size,
        admin_sign_in: this.failures.admin_sign_in.size,
      },
    };
  }

  private take(kind: BucketKind, key: string): void {
    if (!this.config.enabled) return;
    const wait = this.buckets[kind].take(key, this.clock.now());
    if (wait > 0) this.refuse(kind, wait);
  }

  private refuse(kind: LimitKind, seconds: number): never {
    this.limited[kind] += 1;
    const unit = seconds === 1 ? 'second' : 'seconds';
    throw new AppError('RATE_LIMITED', `${MESSAGES[kind]}; retry after ${seconds} ${unit}.`, {
      retryAfterSeconds: seconds,
      limit: kind,
    });
  }
}
