import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp-peer.js';
import { call, createShop, createUser, type SeededShop } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { SMTP_CATCHER_HOST } from './global-setup.js';
import { MessagingPage } from './pages/messaging.page.js';
import { SignInPage } from './pages/sign-in.page.js';

/**
 * The messaging screens (issue 36, parts 1 and 6) against a real local SMTP server and a
 * real webhook receiver, both on 127.0.0.2 (the one private address the tests' Patron may
 * reach): a channel configured and test-sent, a /transact email found in the delivery log,
 * a webhook endpoint's delivery sent again, and a marketer who only reads channel settings.
 */

interface Hook {
  readonly url: string;
  readonly received: Array<{ readonly id: string; readonly body: string }>;
  close(): Promise<void>;
}

/** A webhook receiver answering 200 to every POST, keeping each request's webhook-id and body. */
async function startHook(): Promise<Hook> {
  const received: Array<{ id: string; body: string }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, SMTP_CATCHER_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${SMTP_CATCHER_HOST}:${port}/hook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const CUSTOMER = 'kate@example.org';

let smtp: SmtpPeer;
let hook: Hook;
/** Configured through the UI by the first test. */
let blank: SeededShop;
/** Seeded through the API: an email channel to the peer and a welcome mailing. */
let shop: SeededShop;

async function transact(): Promise<void> {
  await call('POST', '/transact', { shop_id: shop.shop_id, shop_secret: shop.shop_secret, code: 'welcome', email: CUSTOMER });
}

test.beforeAll(async () => {
  smtp = await startSmtpPeer({ host: SMTP_CATCHER_HOST });
  hook = await startHook();
  blank = await createShop(`Channels ${Date.now()}`);
  shop = await createShop(`Messaging ${Date.now()}`);
  const admin = `/admin/v1/shops/${shop.shop_id}`;
  await call('PUT', `${admin}/channels/email`, { smtp_url: `smtp://${SMTP_CATCHER_HOST}:${smtp.port}`, from: 'shop@example.org' });
  await call('PUT', `${admin}/mailings/transactional/welcome`, {
    email: {
      subject: 'Welcome to our shop',
      // The script must never run: the admin shows the email in a frame without script rights.
      html:
        '<html lang="en"><body><h1>Welcome to the shop</h1><p><a href="https://shop.example/sale">Sale</a></p>' +
        "<script>parent.document.title = 'script ran'</script></body></html>",
    },
  });
});

test.afterAll(async () => {
  await smtp?.close();
  await hook?.close();
});

test('an owner configures the email channel to the local SMTP server, test-sends to it and sees it in the health', async ({
  page,
  signedIn: _,
}) => {
  // Three saves, a test send and three axe runs: longer than one screen's test.
  test.setTimeout(60_000);
  const messaging = new MessagingPage(page);
  await messaging.gotoChannel(blank.shop_id, 'email', 'Email');
  await expect(page.getByText('Configure the channel first')).toBeVisible();
  await expect(page.getByText(/Secret: not set\./).first()).toBeVisible();
  await expectAccessible(page);

  await messaging.setting('smtp_url').fill(`smtp://${SMTP_CATCHER_HOST}:${smtp.port}`);
  await messaging.setting('from').fill('Shop <shop@example.org>');
  await messaging.save();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  // The secret reads back as set, never as its value; saving with it empty keeps it.
  await expect(messaging.setting('smtp_url')).toHaveValue('');
  await expect(page.getByText(/Secret: set\. Leave empty to keep it\./)).toBeVisible();
  await messaging.save();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const before = smtp.received.length;
  await messaging.testSend('ann@example.org');
  await expect(page.getByText('Sent: the provider accepted the test message.')).toBeVisible();
  await expect.poll(() => smtp.received.slice(before).some((m) => m.rcptTo.includes('ann@example.org'))).toBe(true);
  await expect(messaging.health()).toContainText(/Sent\s*1\s*Failed\s*0\s*Bounced\s*0/);
  await expect(messaging.health()).toContainText('No provider error so far.');
  await expectAccessible(page);

  await messaging.gotoChannels(blank.shop_id);
  await expect(messaging.channelsTable().getByRole('row').filter({ hasText: 'Email' })).toContainText(/Configured: smtp\s*1\s*0\s*0/);
  await expect(messaging.channelsTable().getByRole('row').filter({ hasText: 'SMS' })).toContainText('Not configured');
  await expectAccessible(page);
});

test("a /transact email is found in the delivery log by the customer's email; its page shows the email in a sandboxed frame and its outcome", async ({
  page,
  signedIn: _,
}) => {
  // A search, a reload, the message, the customer and back, and three axe runs.
  test.setTimeout(60_000);
  await transact();
  const messaging = new MessagingPage(page);
  await messaging.gotoLog(shop.shop_id);
  await messaging.searchLog(CUSTOMER);
  await expect(page).toHaveURL(/[?&]customer=kate%40example\.org/);
  const row = messaging.logResults().getByRole('row').filter({ hasText: CUSTOMER }).first();
  await expect(row).toContainText(/Email.*kate@example\.org.*Sent/);
  await expectAccessible(page);

  // The filters live in the address: the same search, opened afresh.
  await page.reload();
  await expect(page.getByRole('textbox', { name: /^Customer/ })).toHaveValue(CUSTOMER);
  await row.getByRole('link').click();
  await expect(page.getByRole('heading', { name: /^Message \S+$/, level: 1 })).toBeVisible();
  await expect(page.getByText('Welcome to our shop')).toBeVisible();
  const frame = page.locator('iframe[title="The email as rendered"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(messaging.emailFrame().getByRole('heading', { name: 'Welcome to the shop' })).toBeVisible();
  await expect(frame).toHaveAttribute('srcdoc', /script ran/);
  await expect(page).toHaveTitle(/^Message \S+ · Patron$/);
  const tries = page.getByRole('table', { name: 'Attempts' });
  await expect(tries.getByRole('row').nth(1)).toContainText(/1.*smtp.*Sent/);
  await expectAccessible(page);

  // The customer's Messages tab links the message back to this page.
  const code = (await page.getByRole('heading', { level: 1 }).textContent())?.replace(/^Message /, '') ?? '';
  await page.getByRole('link', { name: /^Profile \d+$/ }).click();
  await page.getByRole('tab', { name: 'Messages' }).click();
  await page.getByRole('link', { name: code }).click();
  await expect(page.getByRole('heading', { name: `Message ${code}`, level: 1 })).toBeVisible();
});

test('a webhook endpoint pointed at a local receiver shows its secret once, lists its delivery and sends it again', async ({
  page,
  signedIn: _,
}) => {
  // Two webhook round trips to the receiver and three axe runs.
  test.setTimeout(60_000);
  const messaging = new MessagingPage(page);
  await messaging.gotoWebhooks(shop.shop_id);
  await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
  await expectAccessible(page);
  await messaging.addEndpoint(hook.url, 'Receiver of the test', ['message.sent']);
  await expect(page.getByText(`Endpoint ${hook.url} added.`)).toBeVisible();
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
  await expect(page.getByRole('table', { name: 'Webhook endpoints' })).toContainText('Receiver of the test');
  await expectAccessible(page);

  await transact();
  await expect.poll(() => hook.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
  const first = hook.received[0];
  expect(first?.body).toContain('message.sent');

  await page.getByRole('link', { name: 'Open the endpoint' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
  const row = messaging
    .deliveries()
    .getByRole('row')
    .filter({ hasText: first?.id ?? '' });
  await expect(row).toContainText(/message\.sent.*Succeeded\s*1\s*HTTP 200/);
  await expectAccessible(page);
  await row.getByRole('button', { name: /^Send delivery .* again$/ }).click();
  await expect(row.getByRole('status')).toHaveText('Queued to send again.');
  await expect.poll(() => hook.received.filter((r) => r.id === first?.id).length, { timeout: 15_000 }).toBe(2);

  await page.getByRole('textbox', { name: 'Description' }).fill('Renamed receiver');
  await messaging.save();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
});

test("a marketer sees a channel's settings and the webhooks read-only, and may still test-send", async ({ page }) => {
  const marketer = await createUser('marketer');
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(marketer.email, marketer.password);
  await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();

  const messaging = new MessagingPage(page);
  await messaging.gotoChannel(shop.shop_id, 'email', 'Email');
  await expect(page.getByText('Only owners and administrators change a channel’s settings; you see them read-only.')).toBeVisible();
  await expect(messaging.setting('from')).toHaveAttribute('readonly', '');
  await expect(messaging.setting('from')).toHaveValue('shop@example.org');
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send a test' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Send to' }).fill('bob@example.org');
  await expect(page.getByRole('button', { name: 'Send a test' })).toBeEnabled();
  await expectAccessible(page);

  await messaging.gotoWebhooks(shop.shop_id);
  await expect(page.getByText(/Only owners and administrators add, change or delete webhook endpoints/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
  await expectAccessible(page);
});
