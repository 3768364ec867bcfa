import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import type { SubscriptionFlag, SubscriptionFlagsService } from '../audience/index.js';
import type { IdentityService } from '../identity/index.js';
import type { DashboardRollups } from '../dashboards/index.js';
import { orderTotals, type StoredEvent, type TrackingSubscriber } from '../tracking/index.js';
import { parseDsn } from './domain/dsn.js';
import { afterOutcome, countMarked, markOutcomeHooked, type OutcomeHook } from './outcome-hook.js';
import { countOutcome } from './channel-health.repo.js';
import { redirectTarget, trackingUrls, verifyLinkSignature, type LinkKind, type TrackingUrls } from './domain/tracking-links.js';
import * as repo from './messaging.repo.js';
import * as outcomes from './outcomes.repo.js';
import type { SecretBox } from './secret-box.js';
import { constantTimeEqual } from '../../constant-time.js';

/** A purchase within this time of a click on a message counts for that message, unless configured. */
export const DEFAULT_ATTRIBUTION_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const ATTRIBUTION_SUBSCRIBER = 'messaging.attribution';

export type SdkOutcome = 'delivered' | 'opened' | 'clicked';
export type BounceType = 'hard' | 'soft' | 'complaint';

/** A message's address in links: the shop and the code, as codes are unique per shop only. */
interface LinkToken {
  readonly shopId: string;
  readonly code: string;
}

const TOKEN = /^([0-9a-f]{1,64})\.([A-Za-z0-9_-]{1,64})$/;
const MESSAGE_ID = /^<?([A-Za-z0-9_-]{1,64})\.(\d{1,9})@[^\s<>@]{1,255}>?$/;
const UNSUBSCRIBE_FLAG: Record<string, SubscriptionFlag> = {
  transactional: 'email_transactional',
  bulk: 'email_bulk',
  chain: 'email_chain',
};

/**
 * What became of a sent message (docs/messaging.md, "Tracking"): the signed links of an
 * email (open pixel, click redirect, unsubscribe), the mobile SDK's reports, bounces and
 * complaints (a JSON webhook and DSN reports), and purchases attributed to a message.
 * Every outcome is a timestamp set once on the delivery (outcomes.repo.ts).
 */
export class OutcomesService {
  private keys = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly box: Pick<SecretBox, 'deriveKey'>;
      readonly publicUrl: string;
      readonly flags: Pick<SubscriptionFlagsService, 'turnOff'>;
      readonly identity: Pick<IdentityService, 'currentProfileId'>;
      readonly attributionWindowMs?: number;
      /** Told of each outcome in its recording transaction (outbound webhooks). */
      readonly outcomeHook?: OutcomeHook;
      /** The dashboards' rollups: outcomes and attributed purchases, counted in their recording transaction. */
      readonly rollups?: Pick<DashboardRollups, 'messageOutcome' | 'purchaseAttributed'>;
    },
  ) {}

  /** The signed links of an email of the message. */
  async emailLinks(shopId: string, code: string): Promise<TrackingUrls> {
    return trackingUrls(await this.key('tracking-links'), this.deps.publicUrl, `${shopId}.${code}`);
  }

  /** The open pixel: false when the link is not one this server signed. */
  async opened(token: string, signature: string): Promise<boolean> {
    const message = await this.verified(token, 'open', '', signature);
    if (message) await this.mark(message, 'email', ['opened_at']);
    return message !== undefined;
  }

  /**
   * A click: where to redirect (the target as a Location header holds it), or null when
   * the signature does not cover the target or the target is no place to send a browser
   * (a control character, in a link rendered before targets were checked). Only a
   * click that redirects is marked.
   */
  async clicked(token: string, target: string, signature: string): Promise<string | null> {
    const location = redirectTarget(target);
    if (location === null) return null;
    const message = await this.verified(token, 'click', target, signature);
    if (!message) return null;
    await this.mark(message, 'email', ['opened_at', 'clicked_at']);
    return location;
  }

  /** The unsubscribe page: whether its link is valid and names a sent email. */
  async canUnsubscribe(token: string, signature: string): Promise<boolean> {
    const message = await this.verified(token, 'unsubscribe', '', signature);
    return message !== undefined && (await outcomes.sentDeliveries(this.deps.db.db, message.shopId, message.code, 'email')).length > 0;
  }

  /** The one-click unsubscribe: turns off the flag of the message's type and marks it unsubscribed. */
  async unsubscribe(token: string, signature: string): Promise<boolean> {
    const message = await this.verified(token, 'unsubscribe', '', signature);
    if (!message) return false;
    const deliveries = await outcomes.sentDeliveries(this.deps.db.db, message.shopId, message.code, 'email');
    const [first] = deliveries;
    if (!first) return false;
    const flag = UNSUBSCRIBE_FLAG[first.type];
    if (flag) await this.deps.flags.turnOff(message.shopId, first.profileId, [flag]);
    await this.mark(message, 'email', ['unsubscribed_at']);
    return true;
  }

  /** The mobile SDK's report on a push (POST /track/*); false when the shop sent no such push. */
  async sdkReport(shopId: string, code: string, outcome: SdkOutcome): Promise<boolean> {
    const columns: outcomes.Outcome[] =
      outcome === 'delivered'
        ? ['delivered_at']
        : outcome === 'opened'
          ? ['delivered_at', 'opened_at']
          : ['delivered_at', 'opened_at', 'clicked_at'];
    return (await this.mark({ shopId, code }, 'mobile_push', columns)) > 0;
  }

  /**
   * A bounce or complaint of an email, by the message code or our Message-ID: hard marks
   * hard_bounced and puts the address on the dead list, soft marks soft_bounced, a
   * complaint marks complained and turns email_bulk off. False when nothing matched.
   */
  async bounce(
    shopId: string,
    input: { code?: string; messageId?: string; email?: string; type: BounceType; reason?: string },
  ): Promise<boolean> {
    const fromId = input.messageId === undefined ? undefined : MESSAGE_ID.exec(input.messageId.trim());
    const code = input.code ?? fromId?.[1];
    if (code === undefined) return false;
    const now = this.deps.clock.now();
    const email = input.email?.trim().toLowerCase();
    const deliveries = (await outcomes.sentDeliveries(this.deps.db.db, shopId, code, 'email')).filter(
      (d) =>
        (email === undefined || d.address.toLowerCase() === email) &&
        (fromId === undefined || fromId === null || d.seq === Number(fromId[2])),
    );
    if (deliveries.length === 0) return false;
    const column = input.type === 'hard' ? 'hard_bounced_at' : input.type === 'soft' ? 'soft_bounced_at' : 'complained_at';
    await this.deps.outcomeHook?.prepare?.();
    await this.deps.db.db.transaction().execute(async (trx) => {
      for (const d of deliveries) {
        // Set once per delivery: a repeated report sets nothing and counts nothing, in the channel's health or the rollups.
        const first = await outcomes.markFirst(trx, { shopId, code, channel: 'email', seq: d.seq }, column, now);
        if (first.length > 0 && input.type !== 'complaint') await countOutcome(trx, shopId, 'email', 'bounced', now);
        await countMarked(trx, this.deps.rollups, shopId, column, first, now);
        await afterOutcome(trx, this.deps.outcomeHook, { shopId, code, channel: 'email', seq: d.seq }, [column], now);
        if (input.type === 'hard') {
          const reason = (input.reason ?? 'Hard bounce reported').slice(0, 1000);
          await repo.insertDeadAddress(trx, { shop_id: shopId, channel: 'email', address: d.address, reason, created_at: now });
        }
      }
    });
    if (input.type === 'complaint') {
      for (const profileId of new Set(deliveries.map((d) => d.profileId))) await this.deps.flags.turnOff(shopId, profileId, ['email_bulk']);
    }
    await this.deps.db.durable();
    return true;
  }

  /** An RFC 3464 report (or a plain-text bounce): each failed recipient is a bounce of the original message. */
  async dsn(shopId: string, raw: string): Promise<{ recognised: boolean; bounces: number }> {
    const report = parseDsn(raw);
    if (!report.ok || report.originalMessageId === undefined) return { recognised: false, bounces: 0 };
    let bounces = 0;
    for (const r of report.recipients) {
      if (r.action !== 'failed' && r.action !== 'delayed') continue;
      const type: BounceType = r.hard && r.action === 'failed' ? 'hard' : 'soft';
      const reason = `${r.status}${r.diagnostic ? ` ${r.diagnostic}` : ''}`;
      if (await this.bounce(shopId, { messageId: report.originalMessageId, email: r.recipient, type, reason })) bounces += 1;
    }
    return { recognised: true, bounces };
  }

  /** The shop's secret of the bounce webhook: derived, so nothing is stored, and it changes with the secret key. */
  async webhookSecret(shopId: string): Promise<string> {
    return crypto
      .createHmac('sha256', await this.key('messaging-webhook'))
      .update(shopId)
      .digest('base64url');
  }

  /** Where the shop's bounce webhooks are: `<base>/bounce` (JSON) and `<base>/dsn` (a raw report). */
  webhookBase(shopId: string): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}/webhooks/messaging/${encodeURIComponent(shopId)}`;
  }

  async verifyWebhookSecret(shopId: string, given: string): Promise<boolean> {
    return constantTimeEqual(given, await this.webhookSecret(shopId));
  }

  /** Purchases attributed to a message: `recommended_code` naming one, or the customer's last click within the window. */
  trackingSubscriber(): TrackingSubscriber {
    return {
      name: ATTRIBUTION_SUBSCRIBER,
      accepts: (event) => !event.custom && event.event === 'purchase',
      handle: (event) => this.attribute(event),
    };
  }

  private async attribute(event: StoredEvent): Promise<void> {
    const db = this.deps.db.db;
    const at = event.time;
    const named = event.params.recommended_code;
    if (typeof named === 'string' && named.length <= 64 && (await this.markPurchased(event, named, at))) return;
    const window = this.deps.attributionWindowMs ?? DEFAULT_ATTRIBUTION_WINDOW_MS;
    if (window <= 0) return;
    const current = (await this.deps.identity.currentProfileId(event.shopId, event.profileId)) ?? event.profileId;
    const [clicked] = await outcomes.lastClickSince(db, event.shopId, [...new Set([current, event.profileId])], at - window, at);
    if (clicked) await this.markPurchased(event, clicked.code, at);
  }

  /**
   * Marks the message purchased, and with the rollups counts the purchase and its value
   * once per message in the same transaction; false when it was marked already (or unknown).
   */
  private async markPurchased(event: StoredEvent, code: string, at: number): Promise<boolean> {
    const rollups = this.deps.rollups;
    const value = purchaseValue(event);
    if (!rollups) return (await outcomes.markPurchased(this.deps.db.db, event.shopId, code, at, value)).length > 0;
    return this.deps.db.db.transaction().execute(async (trx) => {
      const [first] = await outcomes.markPurchased(trx, event.shopId, code, at, value);
      if (!first) return false;
      await rollups.purchaseAttributed(trx, event.shopId, first, value ?? 0, at);
      return true;
    });
  }

  private async verified(token: string, kind: LinkKind, target: string, signature: string): Promise<LinkToken | undefined> {
    const parts = TOKEN.exec(token);
    const [, shopId, code] = parts ?? [];
    if (shopId === undefined || code === undefined) return undefined;
    if (!verifyLinkSignature(await this.key('tracking-links'), kind, token, target, signature)) return undefined;
    return { shopId, code };
  }

  private async mark(message: LinkToken, channel: string, columns: readonly outcomes.Outcome[]): Promise<number> {
    const target = { ...message, channel };
    const count = await markOutcomeHooked(
      this.deps.db.db,
      this.deps.outcomeHook,
      target,
      columns,
      this.deps.clock.now(),
      this.deps.rollups,
    );
    if (count > 0) await this.deps.db.durable();
    return count;
  }

  private key(label: string): Promise<Buffer> {
    let key = this.keys.get(label);
    if (!key) {
      key = this.deps.box.deriveKey(label);
      this.keys.set(label, key);
    }
    return key;
  }
}

/** The revenue of a purchase in minor units: its order_price when given, else the sum of its items (as the order store counts it). */
function purchaseValue(event: StoredEvent): number | null {
  const price = event.params.order_price;
  const totals = orderTotals(event.items, typeof price === 'number' ? price : undefined);
  if (!totals.ok) return null;
  return totals.orderPrice ?? totals.itemsTotal;
}
