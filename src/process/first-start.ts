import type { AddressInfo } from 'node:net';
import type { AdminTokenSource } from '../modules/system/admin-token.service.js';
import type { InstallationService } from '../modules/system/installation.service.js';
import type { Services } from '../services.js';
import { PATRON_VERSION } from '../version.js';
import {
  DEMO_COLLECTION_ID,
  DEMO_PRODUCT_BLOCK,
  DEMO_MAILING_CODE,
  DEMO_MEMBER_PHONE,
  DEMO_NPS_CATEGORY,
  DEMO_PROMO_CODE,
  DEMO_SLIDER_CODE,
  DEMO_STORY_SET,
  seedDemo,
  type DemoOutcome,
} from './demo.js';
import { DEMO_SUBSCRIPTION } from './demo-subscription.js';

export interface StartupFacts {
  readonly adminToken: AdminTokenSource;
  /** True on the first start of an empty installation (no shops yet). */
  readonly firstStart: boolean;
  /** The demo shop, when this start created it. */
  readonly demo: Extract<DemoOutcome, { kind: 'created' }> | undefined;
  /** The token of the first owner's invitation link, when this start made it (no admin user yet). */
  readonly ownerInvitation?: string | undefined;
}

/**
 * Makes sure an admin token exists and, on the first start of an empty installation,
 * creates the demo shop, so that a newcomer has something to call at once. While no
 * admin user exists, an invitation link for the first owner is made (once: a later start
 * finds it open and prints nothing; `patron user create` makes another).
 */
export async function prepareStartup(services: Services, installation: InstallationService): Promise<StartupFacts> {
  const adminToken = await services.adminToken.ensure();
  const firstStart = (await installation.claimFirstStart()) && (await services.shops.listShops()).length === 0;
  const outcome = firstStart ? await seedDemo(services) : undefined;
  const ownerInvitation = await services.adminAccounts.ensureFirstOwnerInvitation();
  return { adminToken, firstStart, demo: outcome?.kind === 'created' ? outcome : undefined, ownerInvitation };
}

/** The admin UI's invitation link of a token (docs/admin-users.md). */
export function inviteLink(baseUrl: string, token: string): string {
  return `${baseUrl}/admin/invite/${token}`;
}

/** The URL a person on this machine uses to reach the server (a wildcard host is not dialable). */
export function localBaseUrl(address: AddressInfo | string | null, host: string): string {
  if (address === null || typeof address === 'string') return `http://${host}`;
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const ip = wildcard ? (address.family === 'IPv6' ? '::1' : '127.0.0.1') : address.address;
  return `http://${ip.includes(':') ? `[${ip}]` : ip}:${address.port}`;
}

/**
 * The block printed after the first start: the generated admin token (shown this once),
 * the demo shop's credentials and curl lines to try. Undefined when there is nothing new
 * to tell, so later starts stay quiet.
 */
export function formatWelcome(facts: StartupFacts, baseUrl: string): string | undefined {
  const generated = facts.adminToken.kind === 'generated' ? facts.adminToken.token : undefined;
  if (!generated && !facts.firstStart && !facts.ownerInvitation) return undefined;

  const bearer =
    generated ?? (facts.adminToken.kind === 'environment' ? '$PATRON_ADMIN_TOKEN' : '<the admin token printed on first start>');
  const auth = `-H "Authorization: Bearer ${bearer}"`;
  const rule = '-'.repeat(72);
  const lines = [rule, `Patron ${PATRON_VERSION} is running at ${baseUrl}`, ''];
  if (generated) {
    lines.push('Admin token (shown only this once: store it now; set PATRON_ADMIN_TOKEN to use your own):', `  ${generated}`, '');
  }
  if (facts.ownerInvitation) {
    lines.push(
      'Admin UI: open this link to create the first owner (shown only this once, valid 7 days):',
      `  ${inviteLink(baseUrl, facts.ownerInvitation)}`,
      '',
    );
  }
  if (facts.demo) {
    lines.push(
      `Demo shop "${facts.demo.shop.name}" (its secret is shown only this once):`,
      `  shop_id      ${facts.demo.shop.shopId}`,
      `  shop_secret  ${facts.demo.secret}`,
      '',
    );
  }
  lines.push(
    'Try this:',
    `  curl ${baseUrl}/health`,
    `  curl ${auth} ${baseUrl}/admin/v1/shops`,
    `  curl ${auth} -H "Content-Type: application/json" -d '{"name":"My shop"}' ${baseUrl}/admin/v1/shops`,
  );
  if (facts.demo) {
    lines.push('', 'The public API, with the demo shop (run these in order):', ...demoCurls(facts.demo, baseUrl));
    lines.push('', ...messagingLines(facts.demo, baseUrl, auth));
  }
  lines.push(`  API documentation: ${baseUrl}/docs`, rule);
  return `${lines.join('\n')}\n`;
}

/**
 * The demo's transactional mailing: a /transact line that answers its code whatever the
 * channels, then how to make the mail arrive (a local SMTP catcher, which the outbound
 * guard refuses unless PATRON_FETCH_ALLOW_PRIVATE lets 127.0.0.1 through) and where to see
 * what became of it. The demo configures no channel itself: where mail goes is the operator's.
 */
function messagingLines(demo: Extract<DemoOutcome, { kind: 'created' }>, baseUrl: string, auth: string): string[] {
  const shop = demo.shop.shopId;
  const json = '-H "Content-Type: application/json"';
  const transact = JSON.stringify({
    shop_id: shop,
    shop_secret: demo.secret,
    code: DEMO_MAILING_CODE,
    email: 'maria@example.org',
    phone: `+${DEMO_MEMBER_PHONE}`,
    variables: { order_id: '1001', total: '4151.00' },
  });
  const email = JSON.stringify({ smtp_url: 'smtp://127.0.0.1:1025', from: 'Demo shop <shop@example.org>' });
  return [
    `Messaging: the mailing "${DEMO_MAILING_CODE}" (email and SMS). Send it, then read the delivery log:`,
    `  curl -X POST ${baseUrl}/transact ${json} -d '${transact}'`,
    `  curl ${auth} ${baseUrl}/admin/v1/shops/${shop}/messages`,
    'No channel is configured yet, so the log says so. To catch the mail locally, run an SMTP catcher',
    'on 127.0.0.1:1025, restart with PATRON_FETCH_ALLOW_PRIVATE=127.0.0.1 (outbound connections to',
    'private addresses are refused otherwise) and point the email channel at it:',
    `  curl -X PUT ${auth} ${json} -d '${email}' ${baseUrl}/admin/v1/shops/${shop}/channels/email`,
  ];
}

/** A device id for the demo lines: SDKs may invent their own, and /init then creates the device. */
export const DEMO_DID = 'demo000001';

/** Public API calls against the demo shop's sample data (process/demo.ts), pasteable in order. */
function demoCurls(demo: Extract<DemoOutcome, { kind: 'created' }>, baseUrl: string): string[] {
  const shop = demo.shop.shopId;
  const json = '-H "Content-Type: application/json"';
  const push = JSON.stringify({ shop_id: shop, did: DEMO_DID, event: 'cart', items: [{ id: '1003', amount: 1 }] });
  const profile = JSON.stringify({ shop_id: shop, did: DEMO_DID, email: 'ann@example.org', first_name: 'Ann', email_bulk: true });
  const estimate = JSON.stringify({
    shop_id: shop,
    shop_secret: demo.secret,
    identifier: DEMO_MEMBER_PHONE,
    promo_codes: [DEMO_PROMO_CODE],
    charge_bonuses: true,
    bonuses_amount: 100,
    cart_items: [
      { product_id: '2001', price: 3290, quantity: 1 },
      { product_id: '1003', price: 1490, quantity: 1 },
    ],
  });
  // The demo member's paid subscription (process/demo-subscription.ts): its benefits with this month's use, and its order.
  const subscriber = `shop_id=${shop}&shop_secret=${encodeURIComponent(demo.secret)}&identifier=${DEMO_MEMBER_PHONE}&subscription=${DEMO_SUBSCRIPTION}`;
  return [
    `  curl "${baseUrl}/init?shop_id=${shop}&did=${DEMO_DID}"`,
    `  curl -X POST ${baseUrl}/push ${json} -d '${push}'`,
    `  curl "${baseUrl}/products/cart?shop_id=${shop}&did=${DEMO_DID}"`,
    `  curl -X POST ${baseUrl}/profile/set ${json} -d '${profile}'`,
    `  curl "${baseUrl}/products/get?shop_id=${shop}&item_id=1003"`,
    `  curl "${baseUrl}/search?shop_id=${shop}&type=full_search&search_query=shirt&brands=Northwind&limit=2&page=1"`,
    `  curl "${baseUrl}/collection/${DEMO_COLLECTION_ID}?shop_id=${shop}"`,
    `  curl "${baseUrl}/recommend/${DEMO_PRODUCT_BLOCK}?shop_id=${shop}&did=${DEMO_DID}&item=1003"`,
    `  curl "${baseUrl}/products/categories?shop_id=${shop}&shop_secret=${encodeURIComponent(demo.secret)}"`,
    `  curl "${baseUrl}/slider?shop_id=${shop}&code=${DEMO_SLIDER_CODE}&did=${DEMO_DID}"`,
    `  curl "${baseUrl}/loyalty/members/status?shop_id=${shop}&identifier=${DEMO_MEMBER_PHONE}"`,
    `  curl -X POST ${baseUrl}/loyalty/checkout/estimate ${json} -d '${estimate}'`,
    `  curl "${baseUrl}/loyalty/subscriptions/members/status?${subscriber}"`,
    `  curl "${baseUrl}/loyalty/subscriptions/orders?${subscriber}"`,
    `  curl "${baseUrl}/stories/${DEMO_STORY_SET}?shop_id=${shop}&did=${DEMO_DID}"`,
    `  curl -X POST "${baseUrl}/nps/create?shop_id=${shop}&did=${DEMO_DID}&channel=web&category=${DEMO_NPS_CATEGORY}&rate=9"`,
  ];
}
