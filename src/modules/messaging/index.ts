/**
 * What the messaging module offers the other modules: they import it from here, never
 * from its files (eslint.config.js, "module-boundaries").
 */
export type { SendGate, TemplateSource } from './delivery.service.js';
export {
  ChatTemplateSchema,
  EmailTemplateSchema,
  MailingTemplatesSchema,
  PushTemplateSchema,
  SmsTemplateSchema,
  mailingChannels,
} from './domain/mailing.js';
export type { ChannelTemplates, MailingTemplates, TemplateChannel } from './domain/mailing.js';
export type { DeliveryPlan } from './domain/recipients.js';
export type { HistoryService, MessageType, SentKey, SentMessage } from './history.service.js';
export type { MessageWriter, NewMessage, WrittenMessage } from './message-writer.js';
// Messaging's per-shop id sequences by kind (mailings, bulk mailings, chains and their runs), one upsert each.
export { nextId as nextMessagingId } from './messaging.repo.js';
export type { HookedOutcome, OutcomeHook } from './outcome-hook.js';
export type { SentDelivery } from './outcomes.repo.js';
export { retryAfterMs } from './providers/api-outcome.js';
export type { Channel } from './providers/provider.js';
export type { TemplateRenderer } from './render.js';
export type { SecretBox } from './secret-box.js';
