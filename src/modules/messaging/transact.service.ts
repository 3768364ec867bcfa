import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AudienceService } from '../audience/audience.service.js';
import type { IdentityInput, IdentityService } from '../identity/identity.service.js';
import type { ChannelsService } from './channels.service.js';
import { mailingChannels } from './domain/mailing.js';
import { addressesOf, hasLineBreak, planDeliveries, type PlannedAddress, type RecipientFacts } from './domain/recipients.js';
import { checkVariables } from './domain/variables.js';
import { MAILING_NOT_FOUND, toMailing } from './mailings.service.js';
import * as repo from './messaging.repo.js';
import type { Channel } from './providers/provider.js';

export interface TransactRequest {
  readonly mailingCode: string;
  /** Normalised identifiers of the recipient, at least one. */
  readonly recipient: Omit<IdentityInput, 'did'>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly test: boolean;
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly idempotencyKey?: string;
}

export interface TransactResult {
  /** The message's code; also given for a test send, whose history and statistics are not kept. */
  readonly code: string;
  /** False when an Idempotency-Key matched an earlier message, whose code this is. */
  readonly created: boolean;
}

/** Addresses of a channel the core does not store (web push subscriptions, wallet passes). */
export type AddressSource = (shopId: string, profileId: number) => Promise<readonly string[]>;

/**
 * Transactional jobs are enqueued this far in the past: the queue claims due jobs by
 * run_at, so a transactional message sorts ahead of every bulk or chain job queued in
 * the last day and is never delayed behind them (docs/messaging.md, "Delivery").
 */
export const TRANSACTIONAL_LEAD_MS = 24 * 60 * 60 * 1000;
export const MAX_COPIES = 10;

/**
 * POST /transact (interface.md endpoint 3; docs/messaging.md "Transact"): the recipient
 * resolved (created when unknown), the message and one delivery per address stored with
 * their jobs in one transaction, made durable before the answer: what is acknowledged is
 * never lost. An Idempotency-Key already used returns the first message's code.
 */
export class TransactService {
  private readonly sources = new Map<Channel, AddressSource>();

  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly identity: Pick<IdentityService, 'resolveProfile' | 'getProfile'>;
      readonly audience: Pick<AudienceService, 'getCustomerAttributes'>;
      readonly channels: Pick<ChannelsService, 'configuredChannels'>;
      readonly jobs: JobQueue;
    },
  ) {}

  /** Registers where a channel's addresses come from (web push subscriptions, wallet passes). */
  useAddressSource(channel: Channel, source: AddressSource): void {
    this.sources.set(channel, source);
  }

  async transact(shopId: string, request: TransactRequest): Promise<TransactResult> {
    const db = this.deps.db.db;
    const mailingRow = await repo.findMailing(db, shopId, request.mailingCode);
    if (!mailingRow) throw new AppError('NOT_FOUND', MAILING_NOT_FOUND);
    const mailing = toMailing(mailingRow);
    checkRequest(request);
    if (request.idempotencyKey !== undefined) {
      const earlier = await repo.findMessageByKey(db, shopId, request.idempotencyKey);
      if (earlier) return { code: earlier.code, created: false };
    }

    const { profileId } = await this.deps.identity.resolveProfile(shopId, request.recipient);
    const channels = mailingChannels(mailing.templates);
    const facts = await this.recipientFacts(shopId, profileId, channels);
    const configured = await this.deps.channels.configuredChannels(shopId);
    const addresses = channels.flatMap((c) => addressesOf(c, facts).map((a) => a.address));
    const dead = await repo.deadAmong(db, shopId, addresses);
    const plan = planDeliveries(channels, facts, configured, dead);

    const now = this.deps.clock.now();
    const code = newMessageCode();
    const type = 'transactional' as const;
    const result = await db.transaction().execute(async (trx): Promise<TransactResult> => {
      const inserted = await repo.insertMessage(trx, {
        shop_id: shopId,
        code,
        type,
        mailing_id: mailing.id,
        mailing_code: mailing.code,
        profile_id: profileId,
        test: request.test ? 1 : 0,
        idempotency_key: request.idempotencyKey ?? null,
        variables: JSON.stringify(request.variables),
        cc: JSON.stringify(request.cc),
        bcc: JSON.stringify(request.bcc),
        created_at: now,
      });
      if (!inserted) {
        // A concurrent request with the same key committed first: its code is the answer.
        const earlier = await repo.findMessageByKey(trx, shopId, request.idempotencyKey ?? '');
        if (!earlier) throw new Error('A message with this idempotency key vanished');
        return { code: earlier.code, created: false };
      }
      const row = (p: PlannedAddress, seq: number, queued: boolean) => ({
        shop_id: shopId,
        code,
        seq,
        channel: p.channel,
        vendor: null,
        address: p.address,
        platform: p.platform,
        type,
        mailing_id: mailing.id,
        profile_id: profileId,
        test: request.test ? 1 : 0,
        status: queued ? ('queued' as const) : ('failed' as const),
        error: queued ? null : `Channel ${p.channel} is not configured for the shop.`,
        attempts: 0,
        created_at: now,
        updated_at: now,
      });
      const rows = [...plan.send.map((p, i) => row(p, i, true)), ...plan.unconfigured.map((p, i) => row(p, plan.send.length + i, false))];
      await repo.insertDeliveries(trx, rows);
      for (let seq = 0; seq < plan.send.length; seq += 1) {
        await this.deps.jobs.enqueue(
          'messaging.deliver',
          { shopId, code, seq },
          { executor: trx, runAt: now - TRANSACTIONAL_LEAD_MS, idempotencyKey: `${shopId}:${code}:${seq}:0` },
        );
      }
      return { code, created: true };
    });
    await this.deps.db.durable();
    return result;
  }

  private async recipientFacts(shopId: string, profileId: number, channels: readonly Channel[]): Promise<RecipientFacts> {
    const profile = await this.deps.identity.getProfile(shopId, profileId);
    const attributes = await this.deps.audience.getCustomerAttributes(shopId, profileId);
    const extra: Partial<Record<Channel, readonly string[]>> = {};
    for (const channel of channels) {
      const source = this.sources.get(channel);
      if (source) extra[channel] = await source(shopId, profileId);
    }
    return {
      email: profile?.email ?? null,
      phone: profile?.phone ?? null,
      telegramId: profile?.telegramId ?? null,
      emailTransactional: attributes?.fields.email_transactional,
      smsTransactional: attributes?.fields.sms_transactional,
      pushTokens: attributes?.pushTokens ?? [],
      extra,
    };
  }
}

function checkRequest(request: TransactRequest): void {
  const check = checkVariables(request.variables);
  if (!check.ok) throw new AppError('VALIDATION_FAILED', check.message, { field: 'variables' });
  for (const [field, list] of [['cc', request.cc], ['bcc', request.bcc]] as const) {
    if (list.length > MAX_COPIES) throw new AppError('VALIDATION_FAILED', `At most ${MAX_COPIES} addresses in \`${field}\`.`, { field });
    for (const address of list) {
      if (hasLineBreak(address) || !/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(address)) {
        throw new AppError('VALIDATION_FAILED', `Parameter \`${field}\` holds an address that is not valid.`, { field });
      }
    }
  }
}

/** 128 random bits, URL-safe: a message code cannot be guessed to read another's history. */
function newMessageCode(): string {
  return crypto.randomBytes(16).toString('base64url');
}
