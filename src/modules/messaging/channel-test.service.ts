import type { Clock } from '../../clock.js';
import type { DbHandle } from '../../db/create-db.js';
import { AppError } from '../../errors.js';
import { randomToken } from '../../random.js';
import type { ShopsService } from '../shops/index.js';
import { takeTestSend } from './channel-health.repo.js';
import { requireChannel, type ChannelsService } from './channels.service.js';
import type { DeliveryService } from './delivery.service.js';
import { testAddress, testContent } from './domain/channel-test.js';
import { buildOutgoing } from './domain/outgoing.js';
import * as repo from './messaging.repo.js';

/** Test sends a shop may make per window, over all its channels. */
export const TEST_SENDS_PER_WINDOW = 20;
export const TEST_SEND_WINDOW_MS = 60 * 60 * 1000;
/** The longest a test send waits for the vendor before it answers with the failure. */
export const TEST_SEND_TIMEOUT_MS = 20_000;

export interface TestSendResult {
  readonly code: string;
  readonly status: 'sent' | 'failed';
  /** The vendor's words, credentials redacted, when it failed. */
  readonly error: string | null;
}

/**
 * POST …/channels/{channel}/test (docs/messaging.md, "Channels in the admin API"): a short
 * fixed message through the channel's real vendor, to the address the admin typed. It is
 * a test message of the delivery log (no history, no statistics), sent at once rather than
 * queued, and its one attempt is final: the admin reads the vendor's answer in the reply.
 */
export class ChannelTestService {
  constructor(
    private readonly deps: {
      readonly db: DbHandle;
      readonly clock: Clock;
      readonly shops: Pick<ShopsService, 'requireShop'>;
      readonly channels: Pick<ChannelsService, 'settingsFor'>;
      readonly delivery: Pick<DeliveryService, 'sendAndRecord'>;
    },
  ) {}

  async testSend(shopId: string, channelName: string, to: string): Promise<TestSendResult> {
    const shop = await this.deps.shops.requireShop(shopId);
    const channel = requireChannel(channelName);
    if (!(await this.deps.channels.settingsFor(shopId, channel))) {
      throw new AppError('CONFLICT', `Channel ${channel} is not configured: set its provider with PUT …/channels/${channel} first.`, {
        field: 'channel',
      });
    }
    const address = testAddress(channel, to);
    if (!address.ok) throw new AppError('VALIDATION_FAILED', address.message, { field: 'to' });
    const now = this.deps.clock.now();
    if (!(await takeTestSend(this.deps.db.db, shopId, now, TEST_SENDS_PER_WINDOW, TEST_SEND_WINDOW_MS))) {
      throw new AppError('RATE_LIMITED', `A shop may make ${TEST_SENDS_PER_WINDOW} test sends an hour; try again later.`);
    }
    const code = randomToken(16);
    const row = {
      shop_id: shopId,
      code,
      seq: 0,
      channel,
      vendor: null,
      address: address.address,
      platform: address.platform,
      type: 'transactional' as const,
      mailing_id: 0,
      profile_id: 0,
      test: 1,
      status: 'queued' as const,
      error: null,
      attempts: 0,
      created_at: now,
      updated_at: now,
    };
    await this.deps.db.db.transaction().execute(async (trx) => {
      await repo.insertMessage(trx, {
        shop_id: shopId,
        code,
        type: 'transactional',
        mailing_id: 0,
        // No mailing's code is empty: the delivery log tells a channel test by it.
        mailing_code: '',
        profile_id: 0,
        test: 1,
        idempotency_key: null,
        variables: '{}',
        cc: '[]',
        bcc: '[]',
        created_at: now,
      });
      await repo.insertDeliveries(trx, [row]);
    });
    const delivery = await repo.findDelivery(this.deps.db.db, shopId, code, 0);
    const outgoing = buildOutgoing(
      { shopId, channel, address: address.address, platform: address.platform, code, seq: 0, type: 'transactional', cc: [], bcc: [] },
      testContent(channel, shop.name),
    );
    if (!delivery || !outgoing) throw new AppError('INTERNAL', 'The test message could not be built.');
    const html = outgoing.channel === 'email' ? outgoing.message.html : undefined;
    const result = await this.deps.delivery.sendAndRecord(delivery, outgoing, {
      html,
      test: true,
      signal: AbortSignal.timeout(TEST_SEND_TIMEOUT_MS),
    });
    await this.deps.db.durable();
    // Its delivery is this call's alone, so its send mark is always taken.
    if (!result) throw new AppError('INTERNAL', 'The test message could not be sent.');
    if (result.ok) return { code, status: 'sent', error: null };
    const stored = await repo.findDelivery(this.deps.db.db, shopId, code, 0);
    return { code, status: 'failed', error: stored?.error ?? result.message };
  }
}
