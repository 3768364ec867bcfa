import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService, MergeParticipant } from '../identity/index.js';
import type { ChannelsService } from './channels.service.js';
import { generateVapidKeys } from './providers/vapid.provider.js';
import { endpointOfAddress, subscriptionAddress, type WebPushSubscription } from './domain/web-push-subscription.js';
import * as repo from './web-push.repo.js';

/** Browsers one profile's message goes to, at most: a bound on one message's deliveries. */
export const MAX_SUBSCRIPTIONS_PER_MESSAGE = 20;
export const WEB_PUSH_NOT_CONFIGURED = 'Web push is not configured for the shop.';

/** Whose browser: the device (with identifiers linked to it) or, for a caller with the shop's secret, identifiers alone. */
export interface SubscriberRef {
  readonly did?: string;
  readonly identifiers: Omit<IdentityInput, 'did'>;
}

/**
 * Browser push subscriptions (docs/messaging-push.md, "Web push subscriptions"): the public
 * endpoints store what a site's service worker got from pushManager.subscribe, and the
 * engine reads them back as web_push addresses (`addresses`, the MessageWriter's address
 * source of the channel). A subscription the push service declared gone is deleted
 * (`forgetAddress`, on the delivery's dead address).
 */
export class WebPushService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly identity: Pick<IdentityService, 'requireDevice' | 'resolveProfile'>;
      readonly channels: Pick<ChannelsService, 'settingsFor' | 'putChannel'>;
    },
  ) {}

  /** The merged profile's browser subscriptions are the survivor's. */
  mergeParticipant(): MergeParticipant {
    return { name: 'web push', merge: (trx, shopId, fromId, intoId) => repo.moveProfileSubscriptions(trx, shopId, fromId, intoId) };
  }

  /** The applicationServerKey a site's service worker subscribes with; never the private key. */
  async publicKey(shopId: string): Promise<string> {
    const settings = await this.deps.channels.settingsFor(shopId, 'web_push');
    const key = settings?.vendors.vapid?.vapid_public_key;
    if (typeof key !== 'string') throw new AppError('NOT_FOUND', WEB_PUSH_NOT_CONFIGURED);
    return key;
  }

  /**
   * A new VAPID key pair into the shop's web_push settings (vendor `vapid`), for a shop
   * that has none. A shop that has one is refused: a new public key ends every browser
   * subscription made with the old one; replacing it is a deliberate PUT of the channel.
   */
  async generateKeys(shopId: string, subject: string): Promise<Record<string, unknown>> {
    const settings = await this.deps.channels.settingsFor(shopId, 'web_push');
    if (settings?.vendors.vapid) {
      throw new AppError('CONFLICT', 'The shop has a VAPID key pair already: a new one would end every browser subscription.');
    }
    return this.deps.channels.putChannel(shopId, 'web_push', { ...settings?.vendors, vapid: { ...generateVapidKeys(), subject } });
  }

  async subscribe(shopId: string, subscriber: SubscriberRef, subscription: WebPushSubscription): Promise<void> {
    if (subscriber.did !== undefined) await this.deps.identity.requireDevice(shopId, subscriber.did);
    const input: IdentityInput = { ...subscriber.identifiers, ...(subscriber.did !== undefined && { did: subscriber.did }) };
    const db = this.deps.db.db;
    await db.transaction().execute(async (trx) => {
      const { profileId } = await this.deps.identity.resolveProfile(shopId, input, trx);
      await repo.upsertSubscription(trx, shopId, profileId, subscription, this.deps.clock.now());
    });
    await this.deps.db.durable();
  }

  /** True when the endpoint was subscribed. The endpoint is the browser's own secret URL: knowing it is the right to drop it. */
  async unsubscribe(shopId: string, endpoint: string): Promise<boolean> {
    const removed = await repo.deleteSubscription(this.deps.db.db, shopId, endpoint);
    await this.deps.db.durable();
    return removed > 0;
  }

  /** The engine's address source for web_push. */
  async addresses(shopId: string, profileId: number): Promise<string[]> {
    const rows = await repo.listSubscriptions(this.deps.db.db, shopId, profileId, MAX_SUBSCRIPTIONS_PER_MESSAGE);
    return rows.map(subscriptionAddress);
  }

  /** A delivery's dead address (the push service answered 404 or 410): the browser is not asked again. */
  async forgetAddress(shopId: string, address: string): Promise<void> {
    const endpoint = endpointOfAddress(address);
    if (endpoint !== undefined) await repo.deleteSubscription(this.deps.db.db, shopId, endpoint);
  }
}
