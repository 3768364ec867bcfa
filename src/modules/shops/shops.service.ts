import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { fromFlag, toFlag } from '../../db/dialect.js';
import { AppError } from '../../errors.js';
import * as customEvents from './custom-events.repo.js';
import {
  CURRENCY_PATTERN,
  CUSTOM_EVENT_CODE_PATTERN,
  dateInTimezone,
  isValidCalendarDate,
  isValidTimezone,
  SHOP_ID_PATTERN,
  shopServingState,
  type Shop,
  type ShopServingState,
} from './domain/shop.js';
import { generateSecret, generateShopId, hashSecret, secretMatches } from './secrets.js';
import * as repo from './shops.repo.js';
import { TtlCache } from '../../ttl-cache.js';

export interface CreateShopInput {
  name: string;
  currency?: string;
  timezone?: string;
}

export interface UpdateShopInput {
  active?: boolean;
  restricted?: boolean;
  paidTill?: string | null;
  name?: string;
}

export interface CustomEventCode {
  readonly code: string;
  readonly name: string | null;
  readonly createdAt: number;
}

/** A shop together with the hash of its secret, for credential checks only. */
export interface ShopWithCredentials {
  readonly shop: Shop;
  readonly secretHash: string;
}

export const DEFAULT_CURRENCY = 'RUB';
export const DEFAULT_TIMEZONE = 'Europe/Moscow';

function toShop(row: repo.ShopRow): Shop {
  return {
    shopId: row.shop_id,
    name: row.name,
    currency: row.currency,
    timezone: row.timezone,
    active: fromFlag(row.active),
    restricted: fromFlag(row.restricted),
    paidTill: row.paid_till,
    createdAt: row.created_at,
  };
}

/**
 * How long a process may serve a shop_id-only public request from its cached shop row.
 * A change made through this process is seen at once; one made through another process
 * (several API processes on PostgreSQL) within this time. Secrets are never cached.
 */
export const SHOP_CACHE_TTL_MS = 2_000;
const SHOP_CACHE_MAX = 10_000;

export class ShopsService {
  private readonly publicShops: TtlCache<string, Shop>;

  constructor(private readonly deps: { readonly db: DbHandle; readonly clock: Clock }) {
    this.publicShops = new TtlCache({ max: SHOP_CACHE_MAX, ttlMs: SHOP_CACHE_TTL_MS, clock: deps.clock });
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.publicShops.clear();
  }

  private get db() {
    return this.deps.db.db;
  }

  async createShop(input: CreateShopInput): Promise<{ shop: Shop; secret: string }> {
    const name = input.name.trim();
    const currency = input.currency ?? DEFAULT_CURRENCY;
    const timezone = input.timezone ?? DEFAULT_TIMEZONE;
    if (name === '' || name.length > 200) {
      throw new AppError('VALIDATION_FAILED', 'Field `name` must be 1 to 200 characters.', { field: 'name' });
    }
    if (!CURRENCY_PATTERN.test(currency)) {
      throw new AppError('VALIDATION_FAILED', 'Field `currency` must be a three-letter ISO 4217 code such as RUB.', {
        field: 'currency',
      });
    }
    if (!isValidTimezone(timezone)) {
      throw new AppError('VALIDATION_FAILED', 'Field `timezone` must be an IANA time zone such as Europe/Moscow.', {
        field: 'timezone',
      });
    }
    const now = this.deps.clock.now();
    const secret = generateSecret();
    const row: repo.ShopRow = {
      shop_id: generateShopId(),
      secret_hash: hashSecret(secret),
      name,
      currency,
      timezone,
      active: 1,
      restricted: 0,
      paid_till: null,
      created_at: now,
      updated_at: now,
    };
    await repo.insertShop(this.db, row);
    return { shop: toShop(row), secret };
  }

  async getShop(shopId: string): Promise<Shop | undefined> {
    if (!SHOP_ID_PATTERN.test(shopId)) return undefined;
    const row = await repo.findShopRow(this.db, shopId);
    return row ? toShop(row) : undefined;
  }

  async requireShop(shopId: string): Promise<Shop> {
    const shop = await this.getShop(shopId);
    if (!shop) throw new AppError('NOT_FOUND', 'Shop not found.');
    return shop;
  }

  async findShopWithCredentials(shopId: string): Promise<ShopWithCredentials | undefined> {
    const row = await repo.findShopRow(this.db, shopId);
    return row ? { shop: toShop(row), secretHash: row.secret_hash } : undefined;
  }

  /**
   * The shop for the public routes that take shop_id alone (/push and the other busy
   * storefront calls), cached for SHOP_CACHE_TTL_MS: two database reads per event are
   * the most expensive part of a request after the commit. Unknown ids are not cached, so
   * a shop created by another process serves at once.
   */
  async findShopForPublicRead(shopId: string): Promise<Shop | undefined> {
    const cached = this.publicShops.get(shopId);
    if (cached) return cached;
    const row = await repo.findShopRow(this.db, shopId);
    if (!row) return undefined;
    const shop = toShop(row);
    this.publicShops.set(shopId, shop);
    return shop;
  }

  /** Constant-time check of a presented secret against the stored hash. */
  verifySecret(credentials: ShopWithCredentials, presented: string): boolean {
    return secretMatches(presented, credentials.secretHash);
  }

  servingState(shop: Shop): ShopServingState {
    // Today's date matters only against a payment limit.
    const today = shop.paidTill === null ? '' : dateInTimezone(this.deps.clock.now(), shop.timezone);
    return shopServingState(shop, today);
  }

  async listShops(): Promise<Shop[]> {
    return (await repo.listShopRows(this.db)).map(toShop);
  }

  async updateShop(shopId: string, input: UpdateShopInput): Promise<Shop> {
    const patch: repo.ShopPatchRow = {};
    if (input.active !== undefined) patch.active = toFlag(input.active);
    if (input.restricted !== undefined) patch.restricted = toFlag(input.restricted);
    if (input.paidTill !== undefined) {
      if (input.paidTill !== null && !isValidCalendarDate(input.paidTill)) {
        throw new AppError('VALIDATION_FAILED', 'Field `paid_till` must be a date YYYY-MM-DD or null.', {
          field: 'paid_till',
        });
      }
      patch.paid_till = input.paidTill;
    }
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (name === '' || name.length > 200) {
        throw new AppError('VALIDATION_FAILED', 'Field `name` must be 1 to 200 characters.', { field: 'name' });
      }
      patch.name = name;
    }
    const row = SHOP_ID_PATTERN.test(shopId) ? await repo.updateShopRow(this.db, shopId, patch, this.deps.clock.now()) : undefined;
    this.publicShops.delete(shopId);
    if (!row) throw new AppError('NOT_FOUND', 'Shop not found.');
    return toShop(row);
  }

  /** Issues a new secret; the old one stops working with this commit. */
  async rotateSecret(shopId: string): Promise<string> {
    const secret = generateSecret();
    const updated =
      SHOP_ID_PATTERN.test(shopId) && (await repo.updateSecretHash(this.db, shopId, hashSecret(secret), this.deps.clock.now()));
    if (!updated) throw new AppError('NOT_FOUND', 'Shop not found.');
    return secret;
  }

  async createCustomEvent(shopId: string, input: { code: string; name?: string | null }): Promise<CustomEventCode> {
    await this.requireShop(shopId);
    if (!CUSTOM_EVENT_CODE_PATTERN.test(input.code) || input.code.length > 64) {
      throw new AppError('VALIDATION_FAILED', 'Field `code` must be 1 to 64 characters of a-z, 0-9 and _.', {
        field: 'code',
      });
    }
    const row: customEvents.CustomEventRow = {
      shop_id: shopId,
      code: input.code,
      name: input.name?.trim() || null,
      created_at: this.deps.clock.now(),
    };
    if (!(await customEvents.insertCustomEvent(this.db, row))) {
      throw new AppError('CONFLICT', `Custom event code \`${input.code}\` already exists.`, { field: 'code' });
    }
    return { code: row.code, name: row.name, createdAt: row.created_at };
  }

  async listCustomEvents(shopId: string): Promise<CustomEventCode[]> {
    await this.requireShop(shopId);
    const rows = await customEvents.listCustomEvents(this.db, shopId);
    return rows.map((r) => ({ code: r.code, name: r.name, createdAt: r.created_at }));
  }

  async hasCustomEvent(shopId: string, code: string): Promise<boolean> {
    return (await customEvents.findCustomEvent(this.db, shopId, code)) !== undefined;
  }

  async deleteCustomEvent(shopId: string, code: string): Promise<void> {
    await this.requireShop(shopId);
    if (!(await customEvents.deleteCustomEvent(this.db, shopId, code))) {
      throw new AppError('NOT_FOUND', `Custom event code \`${code}\` does not exist.`);
    }
  }
}
