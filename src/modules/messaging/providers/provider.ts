import type { TObject } from '@sinclair/typebox';

/**
 * The seam between the messaging engine and delivery vendors (STYLE.md, "Providers"):
 * one small class per vendor in `providers/<vendor>.provider.ts`, implementing its
 * channel's `Provider`, registered in `providers/registry.ts`. The engine renders a
 * message, picks the provider through the registry and calls `send`; it never switches
 * over vendors. A provider knows its vendor's wire protocol and nothing of shops,
 * profiles, templates or the database.
 */

export const CHANNELS = ['email', 'sms', 'mobile_push', 'web_push', 'telegram', 'whatsapp', 'max', 'wallet'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A rendered email for one recipient. `headers` carries List-Unsubscribe and the like. */
export interface EmailMessage {
  readonly to: string;
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The left part of the Message-ID (`[A-Za-z0-9._-]+`), fixed per delivery: a resend after
   * a crash (delivery is at least once) carries the same Message-ID, which mail stores use
   * to drop the duplicate, and a bounce names it. The provider adds the sender's domain.
   */
  readonly idKey?: string;
}

/** An SMS: `to` is the phone number in digits, international form without '+'. */
export interface SmsMessage {
  readonly to: string;
  readonly body: string;
  /** The delivery's message code, the same on a resend after a crash: a client id for a gateway that takes one. */
  readonly idKey?: string;
}

/**
 * What a push shows. `data` rides along to the app as is: for a mobile push, the fields
 * the platform's SDKs read (domain/outgoing.ts, mobilePushData); for a web push, the
 * message `code` and `type`.
 */
export interface PushContent {
  readonly title: string;
  readonly body: string;
  readonly url?: string;
  readonly icon?: string;
  readonly picture?: string;
  readonly data: Readonly<Record<string, string>>;
  /**
   * The delivery's message code, fixed per delivery like an email's Message-ID: a resend
   * after a crash carries the same one, so a vendor that replaces a notification with the
   * same id (apns-collapse-id, android.notification.tag, web push Topic) shows it once.
   */
  readonly idKey?: string;
}

/** A mobile push to one device token (from the audience import or POST /mobile_push_tokens). */
export interface MobilePushMessage extends PushContent {
  readonly token: string;
  readonly platform: 'ios' | 'android';
}

/** A web push to one browser subscription (the PushSubscription a browser gave us). */
export interface WebPushMessage extends PushContent {
  readonly subscription: {
    readonly endpoint: string;
    readonly keys: { readonly p256dh: string; readonly auth: string };
  };
}

/**
 * A chat message: `to` is a Telegram chat id, a phone number for WhatsApp, and for MAX the
 * numeric user id its bot API addresses people by (it has no send by phone).
 */
export interface ChatMessage {
  readonly to: string;
  readonly text: string;
}

/** A wallet pass update: the pass's serial number and the text the update shows. */
export interface WalletMessage {
  readonly serialNumber: string;
  readonly pushToken: string;
  readonly text: string;
}

export interface MessageByChannel {
  email: EmailMessage;
  sms: SmsMessage;
  mobile_push: MobilePushMessage;
  web_push: WebPushMessage;
  telegram: ChatMessage;
  whatsapp: ChatMessage;
  max: ChatMessage;
  wallet: WalletMessage;
}

/**
 * The outcome of one send. `temporary` is retried with backoff (a timeout, a 5xx, a 429
 * with `retryAfterMs`); `permanent` is recorded with the vendor's message and not
 * retried; `dead_address` is permanent and also marks the token or address so that it is
 * not tried again (an unregistered FCM token, a 410 from a push service, a 550 mailbox).
 */
export type SendResult =
  | { readonly ok: true; readonly providerMessageId?: string }
  | {
      readonly ok: false;
      /**
       * `temporary` is retried, so it is only for a send the vendor cannot have taken (no
       * connection, a refusal). `unknown`: the whole message went out and the answer never
       * came (a timeout, a connection broken after it): the vendor may have taken it, and
       * it is not sent again (docs/messaging.md, "Sending once").
       */
      readonly kind: 'temporary' | 'permanent' | 'dead_address' | 'unknown';
      /** One sentence for an admin; the vendor's own words where it gave some. Never a secret. */
      readonly message: string;
      readonly retryAfterMs?: number;
    };

/** What a provider is given besides the message: the outbound guard's settings and a deadline. */
export interface SendContext {
  /** Non-public addresses a provider may reach (config PATRON_FETCH_ALLOW_PRIVATE); see net/safe-fetch.ts. */
  readonly allowPrivate: boolean | readonly string[];
  readonly signal?: AbortSignal;
}

export interface Provider<C extends Channel, S> {
  /** Stable vendor name, stored in a shop's channel settings: 'smtp', 'smpp', 'http_sms', 'fcm', 'apns', … */
  readonly vendor: string;
  readonly channel: C;
  /** The vendor's settings as PUT /admin/v1/shops/{shop_id}/channels/{channel} takes them. */
  readonly settingsSchema: TObject;
  /**
   * Top-level settings fields that are secrets: stored encrypted, never read back in
   * full (the admin API shows them masked).
   */
  readonly secretFields: readonly string[];
  send(settings: S, message: MessageByChannel[C], context: SendContext): Promise<SendResult>;
  /** Releases pooled connections (SMTP pools, SMPP sessions, HTTP/2 sessions). */
  close?(): Promise<void>;
}
