import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { groupWriteOf } from '../../db/group-write.js';
import { AppError } from '../../errors.js';
import type { IdentityInput, IdentityService } from '../identity/index.js';
import { mailingChannels } from './domain/mailing.js';
import { hasLineBreak } from './domain/recipients.js';
import { checkVariables } from './domain/variables.js';
import { findMailingForSend, MAILING_NOT_FOUND } from './mailings.service.js';
import type { MessageWriter } from './message-writer.js';
import * as repo from './messaging.repo.js';

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
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly identity: Pick<IdentityService, 'resolveProfile'>;
      readonly writer: Pick<MessageWriter, 'plan' | 'write'>;
    },
  ) {}

  async transact(shopId: string, request: TransactRequest): Promise<TransactResult> {
    const db = this.deps.db.db;
    const mailing = await findMailingForSend(this.deps.db, this.deps.clock, shopId, request.mailingCode);
    if (!mailing) throw new AppError('NOT_FOUND', MAILING_NOT_FOUND);
    checkRequest(request);
    if (request.idempotencyKey !== undefined) {
      const earlier = await repo.findMessageByKey(db, shopId, request.idempotencyKey);
      if (earlier) return { code: earlier.code, created: false };
    }

    // The recipient's resolution shares a group write too: creating an unknown recipient in a
    // transaction of its own cost a commit (a WAL append of the profile's table and index
    // pages) per request. Not awaited to disk: the message's durable commit comes after it.
    const { profileId } = await groupWriteOf(this.deps.db).run((trx) => this.deps.identity.resolveProfile(shopId, request.recipient, trx), {
      durable: false,
    });
    const plan = await this.deps.writer.plan(db, shopId, profileId, 'transactional', mailingChannels(mailing.templates));
    const now = this.deps.clock.now();
    // Shared with the other messages of the moment (db/group-write.ts); resolves once on disk.
    return groupWriteOf(this.deps.db).run((trx) =>
      this.deps.writer.write(
        trx,
        {
          shopId,
          profileId,
          type: 'transactional',
          campaignId: mailing.id,
          templateRef: mailing.code,
          variables: request.variables,
          runAt: now - TRANSACTIONAL_LEAD_MS,
          now,
          test: request.test,
          cc: request.cc,
          bcc: request.bcc,
          ...(request.idempotencyKey !== undefined && { idempotencyKey: request.idempotencyKey }),
        },
        plan,
      ),
    );
  }
}

function checkRequest(request: TransactRequest): void {
  const check = checkVariables(request.variables);
  if (!check.ok) throw new AppError('VALIDATION_FAILED', check.message, { field: 'variables' });
  for (const [field, list] of [
    ['cc', request.cc],
    ['bcc', request.bcc],
  ] as const) {
    if (list.length > MAX_COPIES) throw new AppError('VALIDATION_FAILED', `At most ${MAX_COPIES} addresses in \`${field}\`.`, { field });
    for (const address of list) {
      if (hasLineBreak(address) || !/^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(address)) {
        throw new AppError('VALIDATION_FAILED', `Parameter \`${field}\` holds an address that is not valid.`, { field });
      }
    }
  }
}
