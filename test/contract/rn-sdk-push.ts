/**
 * What the platform's app SDKs read of a push notification, rebuilt from what their
 * sources do (rn-sdk 4.0.x: lib/push/PushPayloadParser.js, lib/push/displayPush.js,
 * onClickPush and the message handlers of MainSDK.js; rees46/ios-sdk: PushPayloadParser
 * and NotificationService), so that a contract test can hold the payload Patron sent
 * against the fields an app takes from it. The SDKs' own code is not reproduced.
 *
 * - The React Native SDK reads everything from `remoteMessage.data` and
 *   `remoteMessage.messageId`: the code it reports is `data.id`, the type `data.type`,
 *   the shop it routes to `data.shop_id`; the notification it shows takes `data.title`,
 *   `data.body`, `data.icon` and `data.image` (or `data.image_url`); a tap opens the
 *   target of `data.event`, JSON text `{"type": "web"|"product"|"category", "uri"}`,
 *   looked up by `messageId` among the pushes it stored. It never reads FCM's
 *   `notification` block.
 * - On Android `data` is FCM's data map as sent. On iOS, React Native Firebase builds the
 *   remote message from the APNs payload: `gcm.message_id` (or `google.message_id`,
 *   `message_id`) becomes `messageId`, every other top-level key except `aps` and those
 *   starting with `gcm.` or `google.` goes into `data`; and it hands a notification to the
 *   app's JavaScript (shown in the foreground, tapped) only when `gcm.message_id` is there.
 * - The native iOS SDK reads the top level of the APNs payload: with an `event` it reports
 *   the event's type and `id`, else `type` and `id`; the alert it shows is Apple's `aps`.
 */

export interface RemoteMessage {
  readonly messageId: string | undefined;
  readonly data: Readonly<Record<string, unknown>>;
}

/** An FCM message as the React Native SDK receives it on Android; FCM names the message. */
export function remoteMessageFromFcm(message: { data?: Record<string, unknown> }, fcmName: string): RemoteMessage {
  return { messageId: fcmName, data: { ...message.data } };
}

/** The keys React Native Firebase takes out of an iOS payload rather than into `data`. */
const MESSAGE_KEYS = new Set(['message_type', 'collapse_key', 'from', 'to']);

/** An APNs payload as React Native Firebase hands it to the SDK on iOS; undefined when it would not hand it over. */
export function remoteMessageFromApns(userInfo: Readonly<Record<string, unknown>>): RemoteMessage | undefined {
  const messageId = userInfo['gcm.message_id'];
  if (messageId === undefined) return undefined;
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(userInfo)) {
    if (key === 'aps' || key === 'message_id' || MESSAGE_KEYS.has(key) || key.startsWith('gcm.') || key.startsWith('google.')) continue;
    data[key] = value;
  }
  return { messageId: typeof messageId === 'string' ? messageId : JSON.stringify(messageId), data };
}

export interface PushTarget {
  readonly type: string;
  readonly uri: string;
}

/** Every field the React Native SDK reads of one push. */
export interface SdkPushReading {
  readonly messageId: string | undefined;
  readonly shopId: unknown;
  /** What notificationDelivered / Opened / Clicked send as `code` and `type`. */
  readonly track: { readonly code: unknown; readonly type: unknown };
  readonly shown: { readonly title: unknown; readonly body: unknown; readonly icon: unknown; readonly image: unknown };
  /** The tap target, or undefined: the SDK opens nothing. */
  readonly target: PushTarget | undefined;
}

export function readPush(message: RemoteMessage): SdkPushReading {
  const data = message.data;
  const event = data.event;
  let target: PushTarget | undefined;
  if (typeof event === 'string' && event !== '') {
    const parsed = JSON.parse(event) as { type?: unknown; uri?: unknown };
    target = { type: String(parsed.type), uri: String(parsed.uri) };
  }
  return {
    messageId: message.messageId,
    shopId: data.shop_id,
    track: { code: data.id, type: data.type },
    shown: { title: data.title, body: data.body, icon: data.icon, image: data.image ?? data.image_url },
    target,
  };
}

/** The `type` and `code` the native iOS SDK reports for an APNs payload, or undefined when it takes it for no SDK push. */
export function iosSdkTrack(userInfo: Readonly<Record<string, unknown>>): { type: string; code: string } | undefined {
  const id = userInfo.id;
  if (typeof id !== 'string') return undefined;
  if (typeof userInfo.event === 'string') {
    const event = JSON.parse(userInfo.event) as { type?: unknown };
    if (typeof event.type === 'string') return { type: event.type, code: id };
  }
  return typeof userInfo.type === 'string' ? { type: userInfo.type, code: id } : undefined;
}
