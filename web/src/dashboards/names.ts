import type { MessageKey } from '../i18n/en';
import type { Translate } from '../i18n/i18n';

/** The push events (docs/tracking.md) and channels (docs/messaging.md) that have a name in words. */
const EVENTS = ['view', 'category', 'search', 'cart', 'remove_from_cart', 'wish', 'remove_wish', 'purchase', 'recone_view', 'recone_click'];
const CHANNELS = ['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet'];

/** A push event in words; a custom event's code as the shop wrote it. */
export function eventName(t: Translate, type: string): string {
  return EVENTS.includes(type) ? t(`dashboards.event.${type}` as MessageKey) : type;
}

/** A channel in words; one Patron has no name for as it is. */
export function channelName(t: Translate, channel: string): string {
  return CHANNELS.includes(channel) ? t(`dashboards.channel.${channel}` as MessageKey) : channel;
}
