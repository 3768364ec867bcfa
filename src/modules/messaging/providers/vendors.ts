import type { Clock } from '../../../clock.js';
import { ApnsProvider } from './apns.provider.js';
import { AppleWalletProvider } from './apple-wallet.provider.js';
import { FcmProvider } from './fcm.provider.js';
import { HttpSmsProvider } from './http-sms.provider.js';
import { MaxProvider } from './max.provider.js';
import { apnsAccepts, fcmAccepts } from './mobile-push-routing.js';
import { ProviderRegistry } from './registry.js';
import { SmppProvider } from './smpp.provider.js';
import { SmtpProvider } from './smtp.provider.js';
import { TelegramProvider } from './telegram.provider.js';
import { VapidProvider } from './vapid.provider.js';
import { WhatsappProvider } from './whatsapp.provider.js';

/**
 * Every delivery vendor Patron ships, one instance each per process (they pool their
 * connections by settings). A new vendor is one file under providers/ and one line here.
 * On mobile_push both vendors may be configured at once: the predicates route android
 * tokens to FCM and iOS hex tokens to APNs, and never one token to both.
 */
export function createProviderRegistry(clock: Clock): ProviderRegistry {
  return new ProviderRegistry()
    .add(new SmtpProvider())
    .add(new SmppProvider())
    .add(new HttpSmsProvider({ clock }))
    .add(new FcmProvider({ clock }), { accepts: fcmAccepts })
    .add(new ApnsProvider({ clock }), { accepts: apnsAccepts })
    .add(new VapidProvider({ clock }))
    .add(new TelegramProvider({ clock }))
    .add(new WhatsappProvider({ clock }))
    .add(new MaxProvider({ clock }))
    .add(new AppleWalletProvider());
}
