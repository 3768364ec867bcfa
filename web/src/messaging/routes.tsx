import type { RouteObject } from 'react-router';

/** Messaging: the channels with their settings, health and test send; the delivery log and a message; webhook endpoints. */
export const messagingRoutes: RouteObject[] = [
  { path: 'shops/:shopId/channels', lazy: async () => ({ Component: (await import('./channels.screen')).ChannelsScreen }) },
  { path: 'shops/:shopId/channels/:channel', lazy: async () => ({ Component: (await import('./channel.screen')).ChannelScreen }) },
  { path: 'shops/:shopId/messages', lazy: async () => ({ Component: (await import('./delivery-log.screen')).DeliveryLogScreen }) },
  { path: 'shops/:shopId/messages/:code', lazy: async () => ({ Component: (await import('./message.screen')).MessageScreen }) },
  { path: 'shops/:shopId/webhooks', lazy: async () => ({ Component: (await import('./webhooks.screen')).WebhooksScreen }) },
  { path: 'shops/:shopId/webhooks/:endpointId', lazy: async () => ({ Component: (await import('./webhook.screen')).WebhookScreen }) },
];
