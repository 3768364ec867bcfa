import { randomToken } from '../../random.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AudienceService } from '../audience/index.js';
import type { SubscriptionFlag } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';
import type { Profile } from '../identity/index.js';
import type { CustomerAttributes } from '../audience/index.js';
import type { ChannelsService } from './channels.service.js';
import { addressesOf, planDeliveries, type DeliveryPlan, type PlannedAddress, type RecipientFacts } from './domain/recipients.js';
import type { MessageType } from './history.service.js';
import * as repo from './messaging.repo.js';
import type { Channel } from './providers/provider.js';

/** Addresses of a channel the core does not store (web push subscriptions, wallet passes). */
export type AddressSource = (shopId: string, profileId: number) => Promise<readonly string[]>;

/** One message to one profile, as every kind (transactional, chain, bulk) writes it. */
export interface NewMessage {
  readonly shopId: string;
  readonly profileId: number;
  readonly type: MessageType;
  /** History's `campaign_id`: the transactional mailing's, the chain's or the bulk mailing's id. */
  readonly campaignId: number;
  /**
   * What the delivery renders from: a transactional mailing's code, or the reference that
   * the type's template source reads (DeliveryService's `templateSources`).
   */
  readonly templateRef: string;
  readonly variables: Readonly<Record<string, unknown>>;
  /** When the delivery jobs come due (the queue claims by it: docs/messaging.md, "Delivery"). */
  readonly runAt: number;
  readonly now: number;
  readonly test?: boolean;
  readonly cc?: readonly string[];
  readonly bcc?: readonly string[];
  /**
   * Unique per shop: a second write with the key finds the first message and writes
   * nothing (a retried POST /transact; a bulk or chain step run again after a crash).
   */
  readonly idempotencyKey?: string;
}

export interface WrittenMessage {
  readonly code: string;
  /** False when the idempotency key matched an earlier message, whose code this is. */
  readonly created: boolean;
}

/**
 * Where a message goes and how it is stored (docs/messaging.md, "Delivery"): the
 * recipient's addresses on the channels of its templates, less unsubscribed kinds and
 * dead addresses (plan), then the message, a delivery row per address and a
 * `messaging.deliver` job per address to send, in the caller's transaction (write), so
 * that what the caller commits is what gets sent.
 */
export class MessageWriter {
  constructor(
    private readonly deps: {
      readonly identity: Pick<IdentityService, 'getProfileOnly' | 'getProfilesMany'>;
      readonly audience: Pick<AudienceService, 'getLiveCustomerAttributes' | 'getCustomerAttributesMany'>;
      readonly channels: Pick<ChannelsService, 'configuredChannels'>;
      readonly jobs: JobQueue;
      /** Where the channels whose addresses the engine does not store find them (web push subscriptions, wallet passes). */
      readonly addressSources?: Partial<Record<Channel, AddressSource>>;
    },
  ) {}

  /** The addresses a message of `type` to the profile goes to, on the given channels. */
  async plan(db: repo.Executor, shopId: string, profileId: number, type: MessageType, channels: readonly Channel[]): Promise<DeliveryPlan> {
    const facts = await this.recipientFacts(shopId, profileId, type, channels);
    const configured = await this.deps.channels.configuredChannels(shopId);
    const addresses = channels.flatMap((c) => addressesOf(c, facts).map((a) => a.address));
    const dead = await repo.deadAmong(db, shopId, addresses);
    return planDeliveries(channels, facts, configured, dead);
  }

  /**
   * plan for many profiles at once (a page of a bulk mailing): profiles, attributes,
   * configured channels and dead addresses in a few queries rather than per profile.
   * A profile the shop does not have plans no address.
   */
  async planMany(
    db: repo.Executor,
    shopId: string,
    profileIds: readonly number[],
    type: MessageType,
    channels: readonly Channel[],
  ): Promise<Map<number, DeliveryPlan>> {
    const profiles = await this.deps.identity.getProfilesMany(shopId, profileIds);
    const attributes = await this.deps.audience.getCustomerAttributesMany(shopId, [...new Set([...profiles.values()].map((p) => p.id))]);
    const configured = await this.deps.channels.configuredChannels(shopId);
    const facts = new Map<number, RecipientFacts>();
    for (const id of profileIds) {
      const profile = profiles.get(id);
      const extra = profile ? await this.extraAddresses(shopId, profile.id, channels) : {};
      facts.set(id, factsOf(profile, profile && attributes.get(profile.id), extra, type));
    }
    const addresses = [...facts.values()].flatMap((f) => channels.flatMap((c) => addressesOf(c, f).map((a) => a.address)));
    const dead = await repo.deadAmong(db, shopId, addresses);
    return new Map([...facts].map(([id, f]) => [id, planDeliveries(channels, f, configured, dead)]));
  }

  /** Stores the message and its deliveries and enqueues their jobs in `trx`. */
  async write(trx: repo.Executor, message: NewMessage, plan: DeliveryPlan): Promise<WrittenMessage> {
    const { shopId } = message;
    const code = newMessageCode();
    const inserted = await repo.insertMessage(trx, messageRow(message, code));
    if (!inserted) return { code: await this.earlierCode(trx, message), created: false };
    await repo.insertDeliveries(trx, deliveryRows(message, code, plan));
    for (let seq = 0; seq < plan.send.length; seq += 1) {
      await this.deps.jobs.enqueue(
        'messaging.deliver',
        { shopId, code, seq },
        { executor: trx, runAt: message.runAt, idempotencyKey: `${shopId}:${code}:${seq}:0` },
      );
    }
    return { code, created: true };
  }

  /**
   * write for many messages in `trx` (a page of a bulk mailing): their messages,
   * deliveries and jobs each in one multi-row insert rather than three statements per
   * message. Answers in the order given.
   */
  async writeMany(
    trx: repo.Executor,
    items: ReadonlyArray<{ readonly message: NewMessage; readonly plan: DeliveryPlan }>,
  ): Promise<WrittenMessage[]> {
    const codes = items.map(() => newMessageCode());
    const inserted = await repo.insertMessages(
      trx,
      items.map(({ message }, i) => messageRow(message, codes[i] as string)),
    );
    const written: WrittenMessage[] = [];
    const deliveries: Array<ReturnType<typeof deliveryRows>[number]> = [];
    const jobs: Array<{ payload: { shopId: string; code: string; seq: number }; runAt: number; idempotencyKey: string }> = [];
    for (const [i, { message, plan }] of items.entries()) {
      const code = codes[i] as string;
      if (!inserted.has(code)) {
        written.push({ code: await this.earlierCode(trx, message), created: false });
        continue;
      }
      written.push({ code, created: true });
      deliveries.push(...deliveryRows(message, code, plan));
      for (let seq = 0; seq < plan.send.length; seq += 1) {
        jobs.push({
          payload: { shopId: message.shopId, code, seq },
          runAt: message.runAt,
          idempotencyKey: `${message.shopId}:${code}:${seq}:0`,
        });
      }
    }
    await repo.insertDeliveries(trx, deliveries);
    await this.deps.jobs.enqueueMany('messaging.deliver', jobs, { executor: trx });
    return written;
  }

  /** The code of the message the key is the shop's already for (a retry, or a concurrent writer that committed first). */
  private async earlierCode(trx: repo.Executor, message: NewMessage): Promise<string> {
    const earlier = await repo.findMessageByKey(trx, message.shopId, message.idempotencyKey ?? '');
    if (!earlier) throw new Error('A message with this idempotency key vanished');
    return earlier.code;
  }

  private async recipientFacts(
    shopId: string,
    profileId: number,
    type: MessageType,
    channels: readonly Channel[],
  ): Promise<RecipientFacts> {
    const profile = await this.deps.identity.getProfileOnly(shopId, profileId);
    const pushTokens = channels.includes('mobile_push');
    const attributes = profile && (await this.deps.audience.getLiveCustomerAttributes(shopId, profile.id, { pushTokens }));
    return factsOf(profile, attributes, await this.extraAddresses(shopId, profileId, channels), type);
  }

  private async extraAddresses(shopId: string, profileId: number, channels: readonly Channel[]): Promise<RecipientFacts['extra']> {
    const extra: Partial<Record<Channel, readonly string[]>> = {};
    for (const channel of channels) {
      const source = this.deps.addressSources?.[channel];
      if (source) extra[channel] = await source(shopId, profileId);
    }
    return extra;
  }
}

function factsOf(
  profile: Profile | undefined,
  attributes: CustomerAttributes | undefined,
  extra: RecipientFacts['extra'],
  type: MessageType,
): RecipientFacts {
  const flag = (name: SubscriptionFlag): boolean | undefined => attributes?.fields[name];
  return {
    email: profile?.email ?? null,
    phone: profile?.phone ?? null,
    telegramId: profile?.telegramId ?? null,
    emailFlag: flag(`email_${type}`),
    smsFlag: flag(`sms_${type}`),
    pushTokens: attributes?.pushTokens ?? [],
    extra,
  };
}

function messageRow(message: NewMessage, code: string) {
  return {
    shop_id: message.shopId,
    code,
    type: message.type,
    mailing_id: message.campaignId,
    mailing_code: message.templateRef,
    profile_id: message.profileId,
    test: message.test ? 1 : 0,
    idempotency_key: message.idempotencyKey ?? null,
    variables: JSON.stringify(message.variables),
    cc: JSON.stringify(message.cc ?? []),
    bcc: JSON.stringify(message.bcc ?? []),
    created_at: message.now,
  };
}

/** A delivery row per address: queued on the plan's channels to send, failed on the unconfigured ones. */
function deliveryRows(message: NewMessage, code: string, plan: DeliveryPlan) {
  const { shopId, profileId, type, now } = message;
  const test = message.test ? 1 : 0;
  const row = (p: PlannedAddress, seq: number, queued: boolean) => ({
    shop_id: shopId,
    code,
    seq,
    channel: p.channel,
    vendor: null,
    address: p.address,
    platform: p.platform,
    type,
    mailing_id: message.campaignId,
    profile_id: profileId,
    test,
    status: queued ? ('queued' as const) : ('failed' as const),
    error: queued ? null : `Channel ${p.channel} is not configured for the shop.`,
    attempts: 0,
    created_at: now,
    updated_at: now,
  });
  return [...plan.send.map((p, i) => row(p, i, true)), ...plan.unconfigured.map((p, i) => row(p, plan.send.length + i, false))];
}

/** 128 random bits, URL-safe: a message code cannot be guessed to read another's history. */
function newMessageCode(): string {
  return randomToken(16);
}
