import { simpleParser } from 'mailparser';
import { startSmtpPeer } from '../helpers/smtp-peer.js';
import { call, createShop, type SeededShop } from './admin-api.js';
import { SMTP_CATCHER_HOST } from './global-setup.js';

/**
 * Seeding for the dashboards spec, as a shop's integration makes the numbers: an email sent
 * through POST /transact to a real local SMTP server and its link clicked, then the
 * customer's visit and order through GET /init and POST /push (interface.md §1), which the
 * click attributes to the email.
 */

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen in 15 s`);
}

export interface SeededDashboard {
  readonly shop: SeededShop;
  /** The transactional mailing's id: its funnel's `id`. */
  readonly mailingId: number;
}

/** A shop with a view, an order of 1,500 roubles and an email whose click that order is attributed to. */
export async function seedDashboard(): Promise<SeededDashboard> {
  const shop = await createShop(`Dashboard ${Date.now()}`);
  const admin = `/admin/v1/shops/${shop.shop_id}`;
  const email = 'kate@example.org';
  const smtp = await startSmtpPeer({ host: SMTP_CATCHER_HOST });
  try {
    await call('PUT', `${admin}/channels/email`, { smtp_url: `smtp://${SMTP_CATCHER_HOST}:${smtp.port}`, from: 'shop@example.org' });
    await call('PUT', `${admin}/mailings/transactional/welcome`, {
      email: { subject: 'Welcome', html: '<p><a href="https://shop.example/sale">Sale</a></p>' },
    });
    const mailing = await call<{ id: number }>('GET', `${admin}/mailings/transactional/welcome`);
    await call('POST', '/transact', { shop_id: shop.shop_id, shop_secret: shop.shop_secret, code: 'welcome', email });
    const raw = await until('the email', () => Promise.resolve(smtp.received[0]?.raw));
    const html = String((await simpleParser(raw)).html);
    const click = /href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    if (!click) throw new Error(`the email has no link: ${html}`);
    const followed = await fetch(click, { redirect: 'manual' });
    if (followed.status !== 302) throw new Error(`the email's link answered ${followed.status}`);

    const ids = await call<{ did: string; sid: string }>('GET', `/init?shop_id=${shop.shop_id}`);
    const push = (event: string, extra: Record<string, unknown>) =>
      call('POST', '/push', { shop_id: shop.shop_id, did: ids.did, sid: ids.sid, email, event, ...extra });
    await push('view', { items: [{ id: 'boots', price: 1500, amount: 1 }] });
    await push('purchase', { items: [{ id: 'boots', price: 1500, amount: 1 }], order_id: 'A-1', order_price: 1500 });
    // Attribution is the job of a tracking subscriber: wait until the dashboard counts it.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
    await until('the attribution', async () => {
      const overview = await call<{ totals: { attributed_purchases: number } }>('GET', `${admin}/dashboard?from=${today}&to=${today}`);
      return overview.totals.attributed_purchases > 0 ? true : undefined;
    });
    return { shop, mailingId: mailing.id };
  } finally {
    await smtp.close();
  }
}
