import type { MailingTemplates } from './domain/mailing.js';
import type { MessageType } from './history.service.js';
import type { Channel, MessageByChannel } from './providers/provider.js';

/** What the delivery service (delivery.service.ts) is given by the modules around it. */

/**
 * Runs before a channel's message is handed to its vendor; a throw is a temporary failure
 * (the send is retried). The wallet's hook stores the pass text the update push makes the
 * device fetch.
 */
export type BeforeSendHook<C extends Channel = Channel> = (
  shopId: string,
  profileId: number,
  message: MessageByChannel[C],
) => Promise<void>;
/**
 * The templates of a message that is not a transactional mailing's: a chain step's or a
 * bulk mailing's, found by the message's `templateRef` (MessageWriter); undefined when
 * they are gone (the delivery fails permanently, saying so).
 */
export type TemplateSource = (shopId: string, templateRef: string) => Promise<MailingTemplates | undefined>;
/**
 * When a message of a type other than transactional may go on a channel: `now`, or a
 * later instant (quiet hours, docs/bulk.md), at which the delivery is tried again.
 */
export type SendGate = (shopId: string, channel: Channel, type: Exclude<MessageType, 'transactional'>, now: number) => Promise<number>;
/** Runs after a delivery's address was recorded dead: the channel's own store drops it (a web push subscription, a wallet registration). */
export type DeadAddressHook = (shopId: string, address: string) => Promise<void>;
