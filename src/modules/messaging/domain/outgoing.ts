import type { Channel, MessageByChannel } from '../providers/provider.js';
import type { RenderedMessage, RenderedPush } from '../render.js';

/**
 * The message a provider is given for one delivery: the rendered template of its channel
 * addressed to the delivery's address. A mobile push's data is what the platform's app
 * SDKs read (mobilePushData); a web push's carries the message `code` and `type` for the
 * shop's service worker.
 */

export interface DeliveryAddress {
  readonly shopId: string;
  readonly channel: Channel;
  readonly address: string;
  readonly platform: string | null;
  readonly code: string;
  readonly seq: number;
  readonly type: string;
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
}

/** The fields the history shows of what was sent (interface.md, "Sent message"). */
export interface SentContent {
  readonly subject: string | null;
  readonly body: string | null;
  readonly url: string | null;
  readonly icon: string | null;
  readonly picture: string | null;
}

export type Outgoing = { [C in Channel]: { channel: C; message: MessageByChannel[C]; content: SentContent } }[Channel];

/** undefined when the rendered set has no template for the channel, or the stored address cannot be read. */
export function buildOutgoing(to: DeliveryAddress, rendered: RenderedMessage): Outgoing | undefined {
  const none = { subject: null, body: null, url: null, icon: null, picture: null };
  switch (to.channel) {
    case 'email': {
      const email = rendered.email;
      if (!email) return undefined;
      // A Message-ID fixed per delivery (EmailMessage.idKey): a resend after a crash carries the same one.
      const message = {
        to: to.address,
        cc: to.cc,
        bcc: to.bcc,
        subject: email.subject,
        html: email.html,
        text: email.text,
        headers: {},
        idKey: `${to.code}.${to.seq}`,
      };
      return { channel: 'email', message, content: { ...none, subject: email.subject, body: email.text } };
    }
    case 'sms': {
      const sms = rendered.sms;
      return sms && { channel: 'sms', message: { to: to.address, body: sms.body, idKey: to.code }, content: { ...none, body: sms.body } };
    }
    case 'mobile_push': {
      const push = rendered.mobile_push;
      if (!push) return undefined;
      const platform = to.platform === 'ios' ? 'ios' : 'android';
      const data = mobilePushData(to, push);
      return {
        channel: 'mobile_push',
        message: { ...push, token: to.address, platform, data, idKey: to.code },
        content: pushContent(push),
      };
    }
    case 'web_push': {
      const push = rendered.web_push;
      const subscription = parseSubscription(to.address);
      if (!push || !subscription) return undefined;
      const data = { code: to.code, type: to.type };
      return { channel: 'web_push', message: { ...push, subscription, data, idKey: to.code }, content: pushContent(push) };
    }
    case 'telegram':
    case 'whatsapp':
    case 'max': {
      const chat = rendered[to.channel];
      if (!chat) return undefined;
      const message = { to: to.address, text: chat.text };
      return { channel: to.channel, message, content: { ...none, body: chat.text } };
    }
    case 'wallet': {
      const wallet = rendered.wallet;
      const pass = parseWalletAddress(to.address);
      if (!wallet || !pass) return undefined;
      return { channel: 'wallet', message: { ...pass, text: wallet.text }, content: { ...none, body: wallet.text } };
    }
  }
}

/**
 * The data of a mobile push as the platform's app SDKs read it (contract-notes, "Beyond
 * interface.md"; docs/mobile-sdk.md, "Push notifications"): the message code as `id` and
 * its type, which the SDK sends back to /track/* as `code` and `type`; the shop it routes
 * the push to; what it shows (it never reads FCM's notification block); and the tap
 * target as JSON text. A push template names only a link, so the target is always
 * `web`, the link as rendered: the SDK reports the tap itself, so the link is not wrapped
 * in a tracking redirect. FCM takes string values only.
 */
export function mobilePushData(to: Pick<DeliveryAddress, 'shopId' | 'code' | 'type'>, push: RenderedPush): Record<string, string> {
  const data: Record<string, string> = { id: to.code, type: to.type, shop_id: to.shopId, title: push.title, body: push.body };
  if (nonEmpty(push.icon)) data.icon = push.icon;
  if (nonEmpty(push.picture)) data.image = push.picture;
  if (nonEmpty(push.url)) data.event = JSON.stringify({ type: 'web', uri: push.url });
  return data;
}

function nonEmpty(text: string | undefined): text is string {
  return text !== undefined && text.trim() !== '';
}

function pushContent(push: { title: string; body: string; url?: string; icon?: string; picture?: string }): SentContent {
  return { subject: push.title, body: push.body, url: push.url ?? null, icon: push.icon ?? null, picture: push.picture ?? null };
}

/** A web push address is the browser's PushSubscription as JSON. */
function parseSubscription(address: string): MessageByChannel['web_push']['subscription'] | undefined {
  const value = parseObject(address);
  const keys = value?.keys as Record<string, unknown> | undefined;
  if (typeof value?.endpoint !== 'string' || typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string') return undefined;
  return { endpoint: value.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** A wallet address is `{"serialNumber", "pushToken"}` as JSON. */
function parseWalletAddress(address: string): { serialNumber: string; pushToken: string } | undefined {
  const value = parseObject(address);
  if (typeof value?.serialNumber !== 'string' || typeof value.pushToken !== 'string') return undefined;
  return { serialNumber: value.serialNumber, pushToken: value.pushToken };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
