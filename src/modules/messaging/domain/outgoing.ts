import type { Channel, MessageByChannel } from '../providers/provider.js';
import type { RenderedMessage } from '../render.js';

/**
 * The message a provider is given for one delivery: the rendered template of its channel
 * addressed to the delivery's address. Push data carries the message `code` and `type`,
 * which the mobile SDK sends back to /track/*.
 */

export interface DeliveryAddress {
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
  const data = { code: to.code, type: to.type };
  const none = { subject: null, body: null, url: null, icon: null, picture: null };
  switch (to.channel) {
    case 'email': {
      const email = rendered.email;
      if (!email) return undefined;
      // A Message-ID fixed per delivery (EmailMessage.idKey): a resend after a crash carries the same one.
      const message = { to: to.address, cc: to.cc, bcc: to.bcc, subject: email.subject, html: email.html, text: email.text, headers: {}, idKey: `${to.code}.${to.seq}` };
      return { channel: 'email', message, content: { ...none, subject: email.subject, body: email.text } };
    }
    case 'sms': {
      const sms = rendered.sms;
      return sms && { channel: 'sms', message: { to: to.address, body: sms.body }, content: { ...none, body: sms.body } };
    }
    case 'mobile_push': {
      const push = rendered.mobile_push;
      if (!push) return undefined;
      const platform = to.platform === 'ios' ? 'ios' : 'android';
      return { channel: 'mobile_push', message: { ...push, token: to.address, platform, data }, content: pushContent(push) };
    }
    case 'web_push': {
      const push = rendered.web_push;
      const subscription = parseSubscription(to.address);
      if (!push || !subscription) return undefined;
      return { channel: 'web_push', message: { ...push, subscription, data }, content: pushContent(push) };
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
