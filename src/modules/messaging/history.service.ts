import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import * as history from './history.repo.js';
import * as repo from './messaging.repo.js';

export type { SentKey } from './history.repo.js';

export type MessageType = 'bulk' | 'chain' | 'transactional';
export const MESSAGE_TYPES: readonly MessageType[] = ['bulk', 'chain', 'transactional'];

export interface Statistics {
  readonly opened: boolean;
  readonly clicked: boolean;
  readonly hard_bounced: boolean;
  readonly soft_bounced: boolean;
  readonly complained: boolean;
  readonly unsubscribed: boolean;
  readonly purchased: boolean;
}

/** One sent message of the history (interface.md, "Sent message"), in module terms. */
export interface SentMessage {
  readonly type: MessageType;
  readonly campaignId: number;
  readonly code: string;
  readonly channel: string;
  readonly sentAt: number;
  readonly subject: string | null;
  readonly body: string | null;
  readonly url: string | null;
  readonly icon: string | null;
  readonly picture: string | null;
  readonly statistics: Statistics;
}

export interface Counters {
  readonly sent: number;
  readonly opened: number;
  readonly clicked: number;
}

/** One delivery in the admin's log (admin-api.md, "Messaging"). */
export interface DeliveryLogEntry {
  readonly code: string;
  readonly channel: string;
  readonly type: string;
  readonly status: 'queued' | 'sent' | 'failed';
  readonly error: string | null;
  readonly to: string;
  readonly test: boolean;
  readonly attempts: number;
  readonly createdAt: number;
  readonly sentAt: number | null;
}

export interface MessageStatus {
  readonly code: string;
  readonly type: MessageType;
  readonly campaignId: number;
  readonly createdAt: number;
  readonly deliveries: ReadonlyArray<DeliveryLogEntry & { readonly statistics: Statistics }>;
}

export interface HistoryQuery {
  readonly customer: IdentityInput;
  readonly types?: readonly MessageType[];
  readonly channels?: readonly string[];
  readonly sentFrom?: number;
}

/**
 * The message history (interface.md endpoints 15 and 16; contract-notes "Messaging"):
 * a customer's sent messages with their statistics, the counters, one message by code,
 * and the admin's delivery log. Test sends are in the log only.
 */
export class HistoryService {
  constructor(private readonly deps: { readonly db: DbHandle; readonly identity: Pick<IdentityService, 'findProfiles'> }) {}

  async listSent(shopId: string, query: HistoryQuery, page: { page: number; limit: number }): Promise<SentMessage[]> {
    const filter = await this.filterOf(shopId, query);
    const rows = await history.listSent(this.deps.db.db, shopId, filter, { limit: page.limit, offset: (page.page - 1) * page.limit });
    return rows.map(toSentMessage);
  }

  /** A page of the sent messages of these profile ids (one customer's), newest first, after `after`. */
  async sentPage(
    shopId: string,
    profileIds: readonly number[],
    after: history.SentKey | null,
    limit: number,
  ): Promise<{ items: Array<SentMessage & { readonly seq: number }>; more: boolean }> {
    const rows = await history.listProfileSent(this.deps.db.db, shopId, profileIds, after, limit + 1);
    return { items: rows.slice(0, limit).map((row) => ({ ...toSentMessage(row), seq: row.seq })), more: rows.length > limit };
  }

  /** Counters per channel and type; a pair without messages is absent. */
  async counters(shopId: string, query: HistoryQuery): Promise<history.CounterRow[]> {
    return history.countSent(this.deps.db.db, shopId, await this.filterOf(shopId, query));
  }

  /** One message by code with each delivery's status and statistics; test sends are not found here. */
  async messageStatus(shopId: string, code: string): Promise<MessageStatus> {
    const message = await repo.findMessage(this.deps.db.db, shopId, code);
    if (!message || message.test === 1) throw new AppError('NOT_FOUND', 'Message is not found.');
    const deliveries = await repo.listDeliveriesOf(this.deps.db.db, shopId, code);
    return {
      code,
      type: message.type,
      campaignId: Number(message.mailing_id),
      createdAt: message.created_at,
      deliveries: deliveries.map((d) => ({ ...toLogEntry(d), statistics: statisticsOf(d) })),
    };
  }

  async deliveryLog(shopId: string, filter: { email?: string; phone?: string; code?: string; limit: number }): Promise<DeliveryLogEntry[]> {
    const addresses = [filter.email, filter.phone].filter((a): a is string => a !== undefined);
    let profileIds: number[] | undefined;
    if (addresses.length > 0) {
      const who: Record<string, string> = {};
      if (filter.email !== undefined) who.email = filter.email;
      if (filter.phone !== undefined) who.phone = filter.phone;
      profileIds = (await this.deps.identity.findProfiles(shopId, who)).map((p) => p.id);
    }
    const rows = await history.listLog(this.deps.db.db, shopId, {
      ...(filter.code !== undefined && { code: filter.code }),
      ...(addresses.length > 0 && { addresses }),
      ...(profileIds && { profileIds }),
      limit: filter.limit,
    });
    return rows.map(toLogEntry);
  }

  private async filterOf(shopId: string, query: HistoryQuery): Promise<history.HistoryFilter> {
    const profiles = await this.deps.identity.findProfiles(shopId, query.customer);
    return {
      profileIds: profiles.map((p) => p.id),
      ...(query.types && { types: query.types }),
      ...(query.channels && { channels: query.channels }),
      ...(query.sentFrom !== undefined && { sentFrom: query.sentFrom }),
    };
  }
}

function statisticsOf(row: repo.DeliveryRow): Statistics {
  return {
    opened: row.opened_at !== null,
    clicked: row.clicked_at !== null,
    hard_bounced: row.hard_bounced_at !== null,
    soft_bounced: row.soft_bounced_at !== null,
    complained: row.complained_at !== null,
    unsubscribed: row.unsubscribed_at !== null,
    purchased: row.purchased_at !== null,
  };
}

function toSentMessage(row: repo.DeliveryRow): SentMessage {
  return {
    type: row.type,
    campaignId: Number(row.mailing_id),
    code: row.code,
    channel: row.channel,
    sentAt: row.sent_at ?? row.created_at,
    subject: row.subject,
    body: row.body,
    url: row.url,
    icon: row.icon,
    picture: row.picture,
    statistics: statisticsOf(row),
  };
}

function toLogEntry(row: repo.DeliveryRow): DeliveryLogEntry {
  return {
    code: row.code,
    channel: row.channel,
    type: row.type,
    status: row.status,
    error: row.error,
    to: row.address,
    test: row.test === 1,
    attempts: row.attempts,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}
