import type { Channel } from '../providers/provider.js';

/**
 * Where one message goes (docs/messaging.md, "Transact"): every channel of the mailing
 * the recipient can be reached on and has not unsubscribed from. Pure: the caller loads
 * the profile, its audience flags and push tokens, the shop's configured channels and
 * the dead addresses.
 */

export interface RecipientFacts {
  readonly email: string | null;
  readonly phone: string | null;
  readonly telegramId: string | null;
  /**
   * The audience flag of the message's kind (`email_transactional`, `email_bulk`,
   * `email_chain`, and the same of sms): false = unsubscribed, undefined = never given
   * (the message goes).
   */
  readonly emailFlag: boolean | undefined;
  readonly smsFlag: boolean | undefined;
  readonly pushTokens: readonly { readonly token: string; readonly platform: 'ios' | 'android' }[];
  /** Addresses of channels the core does not store (web push subscriptions, wallet passes), from registered sources. */
  readonly extra: Partial<Record<Channel, readonly string[]>>;
}

export interface PlannedAddress {
  readonly channel: Channel;
  readonly address: string;
  readonly platform: 'ios' | 'android' | null;
}

export interface DeliveryPlan {
  /** Addresses to send to. */
  readonly send: readonly PlannedAddress[];
  /** Addresses of channels the shop has no settings for: recorded as failed, so the delivery log says why. */
  readonly unconfigured: readonly PlannedAddress[];
  /** Channels with an address whose flag of the message's kind is off (a bulk mailing counts these skips apart). */
  readonly unsubscribed: readonly Channel[];
}

export function addressesOf(channel: Channel, facts: RecipientFacts): PlannedAddress[] {
  const one = (address: string | null): PlannedAddress[] => (address ? [{ channel, address, platform: null }] : []);
  switch (channel) {
    case 'email':
      return facts.emailFlag === false ? [] : one(facts.email);
    case 'sms':
      return facts.smsFlag === false ? [] : one(facts.phone);
    case 'whatsapp':
    case 'max':
      return one(facts.phone);
    case 'telegram':
      return one(facts.telegramId);
    case 'mobile_push':
      return facts.pushTokens.map((t) => ({ channel, address: t.token, platform: t.platform }));
    case 'web_push':
    case 'wallet':
      return (facts.extra[channel] ?? []).map((address) => ({ channel, address, platform: null }));
  }
}

export function planDeliveries(
  channels: readonly Channel[],
  facts: RecipientFacts,
  configured: ReadonlySet<string>,
  dead: ReadonlySet<string>,
): DeliveryPlan {
  const send: PlannedAddress[] = [];
  const unconfigured: PlannedAddress[] = [];
  const unsubscribed: Channel[] = [];
  for (const channel of channels) {
    if (
      (channel === 'email' && facts.emailFlag === false && facts.email) ||
      (channel === 'sms' && facts.smsFlag === false && facts.phone)
    ) {
      unsubscribed.push(channel);
    }
    for (const planned of addressesOf(channel, facts)) {
      if (dead.has(`${channel}:${planned.address}`)) continue;
      (configured.has(channel) ? send : unconfigured).push(planned);
    }
  }
  return { send, unconfigured, unsubscribed };
}

/** An email address that would break out of its header (CR or LF): a header injection, refused. */
export function hasLineBreak(value: string): boolean {
  return /[\r\n]/.test(value);
}
