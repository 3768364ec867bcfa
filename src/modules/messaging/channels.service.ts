import { Value } from '@sinclair/typebox/value';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { TtlCache } from '../../ttl-cache.js';
import type { ShopsService } from '../shops/index.js';
import * as health from './channel-health.repo.js';
import {
  joinChannelBody,
  maskSecret,
  restoreMasked,
  secretFieldsOf,
  secretStates,
  splitChannelBody,
  type ChannelVendors,
  type VendorSettings,
} from './domain/channel-settings.js';
import * as repo from './messaging.repo.js';
import { CHANNELS, type Channel } from './providers/provider.js';
import type { ProviderRegistry } from './providers/registry.js';
import { SecretBox } from './secret-box.js';

/** A channel's settings as delivery uses them: secrets open, per vendor. */
export interface ChannelSettings {
  readonly vendors: ChannelVendors;
  readonly ratePerSecond: number | null;
}

/**
 * How long the settings delivery and /transact read may lag a change made through another
 * process on the same database; a PUT through this process takes effect at once. Each
 * message needs them, and opening the sealed secrets costs an AES-GCM decryption.
 */
export const CHANNEL_CACHE_MS = 1_000;
const CHANNEL_CACHE_MAX = 10_000;

/** A channel as the admin's channel list shows it: configured or not, its secrets set or not, its health. */
export interface ChannelOverview {
  readonly channel: Channel;
  readonly configured: boolean;
  /** Per configured vendor, whether each of its secrets is set; never a value. */
  readonly vendors: ReadonlyArray<{ readonly vendor: string; readonly secrets: Readonly<Record<string, 'set' | 'not_set'>> }>;
  readonly ratePerSecond: number | null;
  readonly updatedAt: number | null;
  /** The hour of now and the 23 before it (channel-health.repo.ts). */
  readonly health: {
    readonly since: number;
    readonly sent: number;
    readonly failed: number;
    readonly bounced: number;
    readonly lastError: { readonly at: number; readonly vendor: string; readonly message: string } | null;
  };
}

/** The vendor the email channel's core form (`{"smtp_url", "from"}`) means. */
const CORE_VENDOR: Partial<Record<Channel, string>> = { email: 'smtp' };

/**
 * A shop's provider settings per channel (admin-api.md, "Messaging"; docs/messaging.md):
 * validated by the vendor's settingsSchema, secrets sealed at rest (secret-box.ts) and
 * shown masked, never in full. A PUT that sends back the masked value of a secret keeps
 * the stored secret, so an admin screen can save what it loaded.
 */
export class ChannelsService {
  private readonly settings: TtlCache<string, ChannelSettings | null>;
  private readonly configured: TtlCache<string, Set<string>>;

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly registry: ProviderRegistry;
      readonly box: SecretBox;
    },
  ) {
    const options = { max: CHANNEL_CACHE_MAX, ttlMs: CHANNEL_CACHE_MS, clock: deps.clock };
    this.settings = new TtlCache(options);
    this.configured = new TtlCache(options);
  }

  /** Drops the cached admin settings: an admin changed something, maybe in another process (docs/settings-caches.md). */
  forgetCachedSettings(): void {
    this.settings.clear();
    this.configured.clear();
  }

  async putChannel(shopId: string, channel: string, body: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    await this.deps.shops.requireShop(shopId);
    const ch = requireChannel(channel);
    const split = splitChannelBody(body, this.deps.registry.vendors(ch), CORE_VENDOR[ch]);
    if (!split.ok) throw new AppError('VALIDATION_FAILED', split.message, { field: 'provider' });
    const stored = await this.load(shopId, ch);
    const sealed: Record<string, VendorSettings> = {};
    const open: ChannelVendors = {};
    for (const [vendor, settings] of Object.entries(split.vendors)) {
      const provider = this.deps.registry.find(ch, vendor);
      if (!provider) {
        const known = this.deps.registry.vendors(ch).join(', ') || 'none registered';
        throw new AppError('VALIDATION_FAILED', `Channel ${ch} has no vendor "${vendor}" (vendors: ${known}).`, {
          field: 'provider',
        });
      }
      const merged = keepMaskedSecrets(settings, stored?.vendors[vendor], provider.secretFields);
      if (!Value.Check(provider.settingsSchema, merged)) {
        const first = Value.Errors(provider.settingsSchema, merged).First();
        const where = first?.path ? `\`${first.path.slice(1).replace(/\//g, '.')}\`` : 'The settings';
        throw new AppError('VALIDATION_FAILED', `${where} of vendor ${vendor}: ${first?.message ?? 'invalid'}.`, {
          field: first?.path ?? vendor,
        });
      }
      open[vendor] = merged;
      sealed[vendor] = await this.sealSecrets(merged, provider.secretFields);
    }
    await repo.upsertChannel(this.deps.db.db, {
      shop_id: shopId,
      channel: ch,
      settings: JSON.stringify(sealed),
      rate_per_second: split.ratePerSecond,
      updated_at: this.deps.clock.now(),
    });
    await this.deps.db.durable();
    this.settings.delete(`${shopId}\u0000${ch}`);
    this.configured.delete(shopId);
    return this.masked({ vendors: open, ratePerSecond: split.ratePerSecond }, ch);
  }

  async getChannel(shopId: string, channel: string): Promise<Record<string, unknown>> {
    await this.deps.shops.requireShop(shopId);
    const ch = requireChannel(channel);
    const stored = await this.load(shopId, ch);
    if (!stored) throw new AppError('NOT_FOUND', `Channel ${ch} is not configured.`);
    return this.masked(stored, ch);
  }

  /**
   * The vendors a channel can use, each with its settings' JSON Schema and its declared
   * secret fields: what a settings form is drawn from (docs/messaging.md, "Channels in the
   * admin API"). The same for every shop; the shop is checked so that the route reads like its neighbours.
   */
  async vendorSchemas(
    shopId: string,
    channel: string,
  ): Promise<Array<{ readonly vendor: string; readonly secretFields: readonly string[]; readonly settingsSchema: unknown }>> {
    await this.deps.shops.requireShop(shopId);
    const ch = requireChannel(channel);
    return this.deps.registry.vendors(ch).map((vendor) => {
      const provider = this.deps.registry.find(ch, vendor);
      // JSON round trip: TypeBox's schema objects carry symbol keys a response must not.
      return {
        vendor,
        secretFields: [...(provider?.secretFields ?? [])],
        settingsSchema: JSON.parse(JSON.stringify(provider?.settingsSchema ?? {})) as unknown,
      };
    });
  }

  /** Every channel of the shop: configured or not, which secrets are set, and its health. Reads 3 small tables. */
  async overview(shopId: string): Promise<ChannelOverview[]> {
    await this.deps.shops.requireShop(shopId);
    const db = this.deps.db.db;
    const now = this.deps.clock.now();
    const [rows, counts, errors] = await Promise.all([
      repo.listChannels(db, shopId),
      health.countsSince(db, shopId, now),
      health.lastErrors(db, shopId),
    ]);
    const since = (Math.floor(now / health.HOUR_MS) - (health.STAT_SLOTS - 1)) * health.HOUR_MS;
    return CHANNELS.map((channel) => {
      const row = rows.find((r) => r.channel === channel);
      const count = counts.find((c) => c.channel === channel);
      const error = errors.find((e) => e.channel === channel);
      const vendors = row
        ? Object.entries(JSON.parse(row.settings) as ChannelVendors).map(([vendor, settings]) => ({
            vendor,
            // Stored sealed: the declared secrets, and the URLs that carried credentials when saved.
            secrets: secretStates(settings, [
              ...(this.deps.registry.find(channel, vendor)?.secretFields ?? []),
              ...Object.keys(settings).filter((k) => SecretBox.isSealed(settings[k])),
            ]),
          }))
        : [];
      return {
        channel,
        configured: row !== undefined,
        vendors,
        ratePerSecond: row?.rate_per_second ?? null,
        updatedAt: row ? Number(row.updated_at) : null,
        health: {
          since,
          sent: count?.sent ?? 0,
          failed: count?.failed ?? 0,
          bounced: count?.bounced ?? 0,
          lastError: error ? { at: error.at, vendor: error.vendor, message: error.error } : null,
        },
      };
    });
  }

  /** The settings with secrets open, for delivery, as of at most CHANNEL_CACHE_MS ago; undefined when the shop has none for the channel. */
  async settingsFor(shopId: string, channel: Channel): Promise<ChannelSettings | undefined> {
    const key = `${shopId}\u0000${channel}`;
    let settings = this.settings.get(key);
    if (settings === undefined) {
      settings = (await this.load(shopId, channel)) ?? null;
      this.settings.set(key, settings);
    }
    return settings ?? undefined;
  }

  /** Channels a shop has settings for (the transact's reachability check), as of at most CHANNEL_CACHE_MS ago. */
  async configuredChannels(shopId: string): Promise<ReadonlySet<string>> {
    let channels = this.configured.get(shopId);
    if (!channels) {
      channels = new Set((await repo.listChannels(this.deps.db.db, shopId)).map((r) => r.channel));
      this.configured.set(shopId, channels);
    }
    return channels;
  }

  private async load(shopId: string, channel: Channel): Promise<ChannelSettings | undefined> {
    const row = await repo.findChannel(this.deps.db.db, shopId, channel);
    if (!row) return undefined;
    const vendors: ChannelVendors = {};
    for (const [vendor, settings] of Object.entries(JSON.parse(row.settings) as ChannelVendors)) {
      const open: VendorSettings = {};
      for (const [field, value] of Object.entries(settings)) {
        open[field] = SecretBox.isSealed(value) ? JSON.parse(await this.deps.box.open(value)) : value;
      }
      vendors[vendor] = open;
    }
    return { vendors, ratePerSecond: row.rate_per_second };
  }

  private async sealSecrets(settings: VendorSettings, declared: readonly string[]): Promise<VendorSettings> {
    const out: VendorSettings = { ...settings };
    for (const field of secretFieldsOf(settings, declared)) out[field] = await this.deps.box.seal(JSON.stringify(settings[field]));
    return out;
  }

  private masked(settings: ChannelSettings, channel: Channel): Record<string, unknown> {
    const vendors: ChannelVendors = {};
    for (const [vendor, values] of Object.entries(settings.vendors)) {
      const declared = this.deps.registry.find(channel, vendor)?.secretFields ?? [];
      const secret = new Set(secretFieldsOf(values, declared));
      vendors[vendor] = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, secret.has(k) ? maskSecret(v) : v]));
    }
    return joinChannelBody(vendors, settings.ratePerSecond);
  }
}

export function requireChannel(channel: string): Channel {
  if (!(CHANNELS as readonly string[]).includes(channel)) {
    throw new AppError('NOT_FOUND', `Unknown channel "${channel}"; channels: ${CHANNELS.join(', ')}.`);
  }
  return channel as Channel;
}

/** A secret sent back as GET masked it means "unchanged": the stored value stays (restoreMasked). */
function keepMaskedSecrets(settings: VendorSettings, stored: VendorSettings | undefined, declared: readonly string[]): VendorSettings {
  if (!stored) return settings;
  const out: VendorSettings = { ...settings };
  for (const field of secretFieldsOf(stored, declared)) {
    if (out[field] !== undefined) out[field] = restoreMasked(out[field], stored[field]);
  }
  return out;
}
