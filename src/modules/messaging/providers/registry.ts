import { CHANNELS, type Channel, type MessageByChannel, type Provider } from './provider.js';

/** Any vendor class of any channel. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProvider = Provider<Channel, any>;

/**
 * Which messages a provider can carry, when a channel has several vendors at once: on
 * mobile_push, FCM takes android tokens and APNs takes ios tokens. Without a predicate
 * a provider accepts every message of its channel.
 */
export type Accepts<C extends Channel> = (message: MessageByChannel[C]) => boolean;

interface Entry {
  readonly provider: AnyProvider;
  readonly accepts: ((message: unknown) => boolean) | undefined;
}

/**
 * Maps channel → vendors (STYLE.md, "Providers"). Built in providers/vendors.ts from the list of
 * vendor instances; the engine asks it for a vendor by name (validating settings) or for
 * the first configured vendor that accepts a message, and never names vendors itself.
 */
export class ProviderRegistry {
  private readonly byChannel = new Map<Channel, Entry[]>();

  constructor(providers: readonly AnyProvider[] = []) {
    for (const channel of CHANNELS) this.byChannel.set(channel, []);
    for (const provider of providers) this.add(provider);
  }

  /** Registers a vendor; a second vendor of the same name on one channel is a programming error. */
  add<C extends Channel>(provider: Provider<C, unknown>, options: { accepts?: Accepts<C> } = {}): this {
    const entries = this.entries(provider.channel);
    if (entries.some((e) => e.provider.vendor === provider.vendor)) {
      throw new Error(`Provider ${provider.vendor} is already registered on channel ${provider.channel}`);
    }
    entries.push({ provider: provider as AnyProvider, accepts: options.accepts as Entry['accepts'] });
    return this;
  }

  /**
   * Registers `provider` in place of the vendor of the same name on its channel (or adds
   * it): how a test puts a recording vendor where a real one is, and how an embedding
   * deployment could ship its own class for a vendor name.
   */
  replace<C extends Channel>(provider: Provider<C, unknown>, options: { accepts?: Accepts<C> } = {}): this {
    const entries = this.entries(provider.channel);
    const at = entries.findIndex((e) => e.provider.vendor === provider.vendor);
    const entry = { provider: provider as AnyProvider, accepts: options.accepts as Entry['accepts'] };
    if (at === -1) entries.push(entry);
    else entries[at] = entry;
    return this;
  }

  /** The vendor of a channel by name, or undefined when none is registered. */
  find(channel: Channel, vendor: string): AnyProvider | undefined {
    return this.entries(channel).find((e) => e.provider.vendor === vendor)?.provider;
  }

  vendors(channel: Channel): string[] {
    return this.entries(channel).map((e) => e.provider.vendor);
  }

  /**
   * The vendor to carry `message`: the first registered one that the shop configured
   * (`configured`, the vendor names of its settings) and that accepts the message.
   */
  pick<C extends Channel>(channel: C, configured: readonly string[], message: MessageByChannel[C]): AnyProvider | undefined {
    return this.entries(channel).find((e) => configured.includes(e.provider.vendor) && (e.accepts === undefined || e.accepts(message)))
      ?.provider;
  }

  async close(): Promise<void> {
    for (const entries of this.byChannel.values()) {
      for (const { provider } of entries) await provider.close?.();
    }
  }

  private entries(channel: Channel): Entry[] {
    const entries = this.byChannel.get(channel);
    if (!entries) throw new Error(`Unknown channel ${channel}`);
    return entries;
  }
}
