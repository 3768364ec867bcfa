import { simpleParser } from 'mailparser';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp-peer.js';
import { BASE_URL, call, createShop, type SeededShop } from './admin-api.js';
import { importAudience } from './customers-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { SMTP_CATCHER_HOST } from './global-setup.js';
import { TemplatesPage } from './pages/templates.page.js';

/**
 * The template editor and the transactional mailings (issue 36, parts 2 and 7): a welcome
 * email written with a variable and a link, previewed with a real customer, saved, sent
 * through POST /transact to a local SMTP peer, and its open and click seen on its funnel;
 * an error typed into a template shown at its line; a refused save and a delete.
 */

let shop: SeededShop;
let smtp: SmtpPeer;

const adminCall = (method: string, path: string, body?: unknown): Promise<unknown> =>
  call(method, `/admin/v1/shops/${shop.shop_id}${path}`, body);

test.beforeAll(async () => {
  test.setTimeout(60_000);
  shop = await createShop(`Templates ${Date.now()}`);
  smtp = await startSmtpPeer({ host: SMTP_CATCHER_HOST });
  await adminCall('PUT', '/channels/email', { smtp_url: `smtp://${SMTP_CATCHER_HOST}:${smtp.port}`, from: 'shop@example.org' });
  await importAudience(shop, [{ email: 'nina@example.org', first_name: 'Nina' }]);
});

test.afterAll(async () => {
  await smtp.close();
});

const WELCOME_HTML = '<p>Hello {{ profile.first_name }}!</p>\n<p><a href="https://shop.example/sale">See the sale</a></p>';

test('a welcome email is written, previewed with a customer, saved, sent through /transact, opened and clicked', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  test.setTimeout(90_000);
  const templates = new TemplatesPage(page);
  await templates.gotoList(shop.shop_id);
  await expect(page.getByText('There are no transactional mailings yet.')).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Transactional mailings' })).toBeVisible();
  await expectAccessible(page);

  await templates.startNew();
  await page.getByLabel('Code').fill('welcome');
  await page.getByLabel('Name').fill('Welcome');
  await templates.write('Subject', 'Welcome, {{ profile.first_name }}');
  await templates.write('HTML or MJML', WELCOME_HTML);
  // The sample profile first, then a real customer of the shop.
  await expect(templates.previewSubject()).toHaveText('Welcome, Jane');
  await templates.previewWith('nina@example.org');
  await expect(templates.previewSubject()).toHaveText('Welcome, Nina');
  await expect(templates.previewBody()).toContainText('Hello Nina!');
  await expect(templates.previewBody().getByRole('link', { name: 'See the sale' })).toBeVisible();
  await page.getByText('Mobile', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Mobile' })).toBeChecked();
  await expect(templates.previewBody()).toContainText('Hello Nina!');
  await expectAccessible(page);

  // An error typed on line 3 is shown at line 3 as the user types, and the preview says it does not render.
  await templates.write('HTML or MJML', `${WELCOME_HTML}\n{% iff x %}`);
  await expect(templates.fieldErrors()).toContainText(/^line 3: /);
  await expect(templates.errorList()).toContainText('Email HTML or MJML (Default): line 3:');
  await expect(page.getByText('This channel does not render')).toBeVisible();
  await expectAccessible(page);
  await templates.write('HTML or MJML', WELCOME_HTML);
  await expect(templates.errorList()).toBeHidden();

  await page.getByRole('button', { name: 'Create the mailing' }).click();
  await expect(page.getByRole('heading', { name: 'Mailing: Welcome', level: 1 })).toBeVisible();
  await expect(page.getByText('Nothing has been sent yet')).toBeVisible();
  await expectAccessible(page);

  // The shop's backend sends it; the customer opens it and follows its link.
  const sent = await fetch(`${BASE_URL}/transact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ shop_id: shop.shop_id, shop_secret: shop.shop_secret, code: 'welcome', email: 'nina@example.org' }),
  });
  expect(sent.status).toBe(200);
  await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(1);
  const mail = await simpleParser(smtp.received[0]?.raw ?? Buffer.alloc(0));
  expect(mail.subject).toBe('Welcome, Nina');
  const html = String(mail.html);
  expect(html).toContain('Hello Nina!');
  const unescape = (url: string | undefined) => url?.replace(/&amp;/g, '&') ?? '';
  const click = unescape(/<a [^>]*href="([^"]+)"[^>]*>See the sale/.exec(html)?.[1]);
  const pixel = unescape(/<img [^>]*src="([^"]+)"/.exec(html)?.[1]);
  expect(click).toContain('/m/');
  expect(pixel).toContain('/m/');
  expect((await fetch(pixel)).status).toBe(200);
  const followed = await fetch(click, { redirect: 'manual' });
  expect(followed.status).toBe(302);
  expect(followed.headers.get('location')).toBe('https://shop.example/sale');

  // The outcomes are counted as they arrive (the funnel's rollups): wait for the count, then see it.
  const { id } = (await adminCall('GET', '/mailings/transactional/welcome')) as { id: number };
  await expect
    .poll(
      async () => {
        const funnel = (await adminCall('GET', `/dashboard/funnels/transactional/${id}`)) as { opened: number; clicked: number };
        return funnel.opened + funnel.clicked;
      },
      { timeout: 20_000 },
    )
    .toBe(2);
  await page.reload();
  await expect(page.getByRole('img', { name: /Sent 1, Delivered 1, Opened 1, Clicked 1/ })).toBeVisible();
  await expectAccessible(page);
});

test('a save the server refuses shows at its template, and a mailing is deleted behind a confirmation', { tag: '@both-databases' }, async ({
  page,
  signedIn: _,
}) => {
  test.setTimeout(60_000);
  await adminCall('PUT', '/mailings/transactional/keep', { sms: { body: 'Kept' } });
  await adminCall('PUT', '/mailings/transactional/bye', { name: 'Goodbye', email: { subject: 'Bye', html: '<p>Bye</p>' } });
  const templates = new TemplatesPage(page);
  await templates.gotoList(shop.shop_id);
  // The list filters on the server, by code or name.
  await page.getByLabel('Code or name holds').fill('GOODBYE');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('link', { name: 'keep', exact: true })).toBeHidden();
  await page.getByRole('link', { name: 'bye', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Mailing: Goodbye', level: 1 })).toBeVisible();

  // A test send of the email to an address typed reaches the peer, marked as the test it is.
  // (Once the preview is in: its frame moves the form below it as it comes.)
  await expect(templates.previewSubject()).toHaveText('Bye');
  await page.getByLabel('Send a test to (email address)').fill('qa@example.org');
  // Once in a full CI run, the click was performed on the enabled button and no request left
  // (the trace shows none; 14 runs of the spec alone never repeated it). A click that sent
  // nothing is clicked again; one that sent is never repeated, so the peer's count below
  // still proves one send.
  await expect(async () => {
    const sending = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/templates/test'), { timeout: 3_000 });
    await page.getByRole('button', { name: 'Send a test' }).click();
    await sending;
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('status').filter({ hasText: /^Sent: message \S+ \(in the delivery log as a test\)\.$/ })).toBeVisible({
    timeout: 15_000,
  });
  await expect.poll(() => smtp.received.filter((m) => m.rcptTo.includes('qa@example.org')).length, { timeout: 15_000 }).toBe(1);

  // An SMS whose body does not parse: the preview lists it, and the save is refused at it.
  await page.getByRole('tab', { name: 'SMS' }).click();
  await page.getByRole('button', { name: 'Write the SMS template' }).click();
  await templates.write('Body', 'Bye {{ profile.first_name | no_such_filter }}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved: a template does not parse' })).toContainText('sms.body');
  await expect(templates.errorList()).toContainText('SMS Body (Default)');
  await expectAccessible(page);

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Delete the mailing bye' }).click();
  await expect(page.getByRole('heading', { name: 'Transactional mailings', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'keep', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'bye', exact: true })).toBeHidden();
});
