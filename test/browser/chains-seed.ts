import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp-peer.js';
import { call, createShop, type SeededShop } from './admin-api.js';
import { SMTP_CATCHER_HOST } from './global-setup.js';

/**
 * Seeding for the chains spec, through the admin API as a shop's team would set it up: an
 * email channel pointed at a local SMTP server (on 127.0.0.2, the one private address the
 * tests' Patron may reach) and the custom event code the chain is triggered by. The
 * customer's event then comes through POST /push/custom, as an SDK sends it.
 */

export interface SeededChainShop {
  readonly shop: SeededShop;
  readonly smtp: SmtpPeer;
}

/** A shop with an email channel to a local SMTP peer and the custom event code `signed_up`. */
export async function seedChainShop(): Promise<SeededChainShop> {
  const shop = await createShop(`Chains ${Date.now()}`);
  const admin = `/admin/v1/shops/${shop.shop_id}`;
  const smtp = await startSmtpPeer({ host: SMTP_CATCHER_HOST });
  await call('PUT', `${admin}/channels/email`, { smtp_url: `smtp://${SMTP_CATCHER_HOST}:${smtp.port}`, from: 'shop@example.org' });
  await call('POST', `${admin}/custom-events`, { code: 'signed_up', name: 'Signed up' });
  return { shop, smtp };
}

/** POST /push/custom as a site's SDK sends it: the event, the customer's email and the event's own variable `plan`. */
export async function sendCustomEvent(shopId: string, email: string, plan: string): Promise<void> {
  const body = await call<{ status?: string }>('POST', '/push/custom', { shop_id: shopId, email, event: 'signed_up', plan });
  if (body.status !== 'success') throw new Error(`POST /push/custom answered ${JSON.stringify(body)}`);
}
