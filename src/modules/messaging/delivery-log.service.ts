import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { IdentityService } from '../identity/index.js';
import type { ShopsService } from '../shops/index.js';
import * as log from './delivery-log.repo.js';
import * as repo from './messaging.repo.js';

export type { LogSearch, OutcomeFilter } from './delivery-log.repo.js';

/** The customer of a delivery log search: one of these. */
export interface CustomerKey {
  readonly profileId?: number;
  readonly email?: string;
  readonly phone?: string;
}

/** What became of a delivery after it was sent: each outcome's time, or null. */
export interface DeliveryOutcomes {
  readonly delivered: number | null;
  readonly opened: number | null;
  readonly clicked: number | null;
  readonly unsubscribed: number | null;
  readonly hardBounced: number | null;
  readonly softBounced: number | null;
  readonly complained: number | null;
  readonly purchased: number | null;
}

export interface LogEntry {
  readonly code: string;
  readonly seq: number;
  readonly channel: string;
  readonly vendor: string | null;
  readonly type: string;
  readonly profileId: number;
  readonly to: string;
  readonly status: 'queued' | 'sent' | 'failed';
  readonly error: string | null;
  readonly test: boolean;
  readonly attempts: number;
  readonly createdAt: number;
  readonly sentAt: number | null;
  readonly outcomes: DeliveryOutcomes;
}

export interface DeliveryDetail extends LogEntry {
  readonly providerMessageId: string | null;
  /** What was sent: an email's subject, text and HTML (before tracking links); a push's title as subject; an SMS or chat text as text. */
  readonly content: {
    readonly subject: string | null;
    readonly text: string | null;
    readonly html: string | null;
    readonly url: string | null;
    readonly icon: string | null;
    readonly picture: string | null;
  };
  readonly tries: ReadonlyArray<{
    readonly attempt: number;
    readonly at: number;
    readonly vendor: string | null;
    readonly outcome: string;
    readonly answer: string | null;
    readonly durationMs: number;
  }>;
}

export interface MessageDetail {
  readonly code: string;
  readonly type: string;
  /** The mailing's code; empty for a channel's test send. */
  readonly mailingCode: string;
  readonly campaignId: number;
  readonly profileId: number;
  readonly test: boolean;
  readonly createdAt: number;
  readonly deliveries: readonly DeliveryDetail[];
}

/**
 * The admin's delivery log (docs/messaging.md, "The delivery log"): a keyset search of
 * deliveries, and one message whole: what each delivery sent, each try, each outcome.
 */
export class DeliveryLogService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly identity: Pick<IdentityService, 'findProfiles'>;
    },
  ) {}

  /**
   * Deliveries newest first. `customer` names the recipient by profile id, email or phone:
   * an identifier matches the deliveries of the profiles that hold it and those sent to it
   * as an address (a profile merged since, a test send).
   */
  async search(shopId: string, search: Omit<log.LogSearch, 'customer'>, customer?: CustomerKey): Promise<LogEntry[]> {
    await this.deps.shops.requireShop(shopId);
    let who: log.LogSearch['customer'];
    if (customer?.profileId !== undefined) who = { profileIds: [customer.profileId] };
    else if (customer?.email !== undefined || customer?.phone !== undefined) {
      const key = customer.email !== undefined ? { email: customer.email } : { phone: customer.phone ?? '' };
      const profiles = await this.deps.identity.findProfiles(shopId, key);
      const address = customer.email ?? customer.phone?.replace(/[^0-9]/g, '');
      who = { profileIds: profiles.map((p) => p.id), ...(address && { address }) };
    }
    const rows = await log.searchLog(this.deps.db.db, shopId, { ...search, ...(who && { customer: who }) });
    return rows.map(toEntry);
  }

  async message(shopId: string, code: string): Promise<MessageDetail> {
    await this.deps.shops.requireShop(shopId);
    const db = this.deps.db.db;
    const message = await repo.findMessage(db, shopId, code);
    if (!message) throw new AppError('NOT_FOUND', 'Message is not found.');
    const [deliveries, attempts, html] = await Promise.all([
      repo.listDeliveriesOf(db, shopId, code),
      log.listAttempts(db, shopId, code),
      log.findHtml(db, shopId, code),
    ]);
    return {
      code: message.code,
      type: message.type,
      mailingCode: message.mailing_code,
      campaignId: Number(message.mailing_id),
      profileId: Number(message.profile_id),
      test: message.test === 1,
      createdAt: Number(message.created_at),
      deliveries: deliveries.map((d) => ({
        ...toEntry(d),
        providerMessageId: d.provider_message_id,
        content: {
          subject: d.subject,
          text: d.body,
          html: html.get(d.seq) ?? null,
          url: d.url,
          icon: d.icon,
          picture: d.picture,
        },
        tries: attempts
          .filter((a) => a.seq === d.seq)
          .map((a) => ({
            attempt: a.attempt,
            at: Number(a.at),
            vendor: a.vendor,
            outcome: a.outcome,
            answer: a.answer,
            durationMs: a.duration_ms,
          })),
      })),
    };
  }
}

const time = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toEntry(d: log.DeliveryLogRow): LogEntry {
  return {
    code: d.code,
    seq: d.seq,
    channel: d.channel,
    vendor: d.vendor,
    type: d.type,
    profileId: Number(d.profile_id),
    to: d.address,
    status: d.status,
    error: d.error,
    test: d.test === 1,
    attempts: d.attempts,
    createdAt: Number(d.created_at),
    sentAt: time(d.sent_at),
    outcomes: {
      delivered: time(d.delivered_at),
      opened: time(d.opened_at),
      clicked: time(d.clicked_at),
      unsubscribed: time(d.unsubscribed_at),
      hardBounced: time(d.hard_bounced_at),
      softBounced: time(d.soft_bounced_at),
      complained: time(d.complained_at),
      purchased: time(d.purchased_at),
    },
  };
}
