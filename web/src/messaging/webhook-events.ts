import type { MessageKey } from '../i18n/en';
import type { paths } from '../api/schema';

/** An event type an endpoint may receive, as the generated schema of POST …/webhooks/endpoints has it. */
export type EventType =
  paths['/admin/v1/shops/{shop_id}/webhooks/endpoints']['post']['requestBody']['content']['application/json']['event_types'][number];

/**
 * Each event type and the group the picker shows it in. A Record over the schema's union, so
 * that a type the server adds and this table lacks is a type error (docs/webhooks.md, "Events").
 */
const GROUP_OF: Readonly<Record<EventType, 'message' | 'tracking'>> = {
  'message.sent': 'message',
  'message.delivered': 'message',
  'message.opened': 'message',
  'message.clicked': 'message',
  'message.bounced': 'message',
  'message.complained': 'message',
  'message.unsubscribed': 'message',
  'tracking.view': 'tracking',
  'tracking.category': 'tracking',
  'tracking.search': 'tracking',
  'tracking.cart': 'tracking',
  'tracking.remove_from_cart': 'tracking',
  'tracking.wish': 'tracking',
  'tracking.remove_wish': 'tracking',
  'tracking.purchase': 'tracking',
  'tracking.recone_view': 'tracking',
  'tracking.recone_click': 'tracking',
  'tracking.custom': 'tracking',
};

const TYPES = Object.keys(GROUP_OF) as EventType[];

export const EVENT_GROUPS: readonly { readonly title: MessageKey; readonly types: readonly EventType[] }[] = [
  { title: 'messaging.webhooks.group.message', types: TYPES.filter((type) => GROUP_OF[type] === 'message') },
  { title: 'messaging.webhooks.group.tracking', types: TYPES.filter((type) => GROUP_OF[type] === 'tracking') },
];

/** The chosen values that are event types (a checkbox group hands back plain strings). */
export function eventTypesOf(values: readonly string[]): EventType[] {
  return TYPES.filter((type) => values.includes(type));
}
