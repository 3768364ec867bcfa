import { createShop } from './admin-api.js';
import { createCustomProperty, createEventCode, createSegment, importAudience, sdkCustomEvent } from './customers-seed.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { CustomersPage } from './pages/customers.page.js';

// Each test walks several screens, each checked by axe, and waits for a background import:
// longer than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test('a visitor the SDK identified by email is found by that email, and the page shows the email, the event and the properties', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Customers ${Date.now()}`);
  await createEventCode(shop.shop_id, 'newsletter_signup');
  const did = await sdkCustomEvent(shop.shop_id, { email: 'Kate@Example.org', event: 'newsletter_signup' });
  await importAudience(shop, [{ email: 'kate@example.org', first_name: 'Kate', email_bulk: true }]);

  const customers = new CustomersPage(page);
  await customers.gotoList(shop.shop_id);
  await expect(customers.results()).toContainText('kate@example.org');
  await expectAccessible(page);

  await customers.search('kate@example.org');
  await expect(page).toHaveURL(/\?q=kate%40example\.org$/);
  await expect(customers.results().getByRole('row')).toHaveCount(2);
  await customers.open('kate@example.org');
  await expect(customers.identities()).toContainText('kate@example.org');
  await expect(customers.identities()).toContainText(did);
  await expect(customers.properties().getByRole('row').filter({ hasText: 'first_name' })).toContainText('Kate');
  await expect(page.getByRole('region', { name: 'Subscriptions' }).getByRole('row', { name: /Email campaigns/ })).toContainText(
    'Subscribed',
  );
  await expect(customers.timeline()).toContainText('newsletter_signup');
  await expectAccessible(page);

  for (const tab of ['Orders', 'Loyalty', 'Messages'] as const) {
    await customers.tab(tab);
    await expect(page.getByRole('tabpanel')).toContainText(
      { Orders: 'No orders yet.', Loyalty: 'Not a member of the loyalty programme.', Messages: 'No messages sent.' }[tab],
    );
    await expectAccessible(page);
  }

  await customers.gotoList(shop.shop_id);
  await customers.search('nobody@example.org');
  await expect(page.getByText('No customer holds “nobody@example.org”.')).toBeVisible();
});

test('customer properties holding markup are shown as text and never run', async ({ page, signedIn: _ }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const shop = await createShop(`Hostile ${Date.now()}`);
  await createCustomProperty(shop.shop_id, 'nickname');
  const script = '<script>alert(1)</script>';
  const image = '<img src=x onerror=alert(1)>';
  await importAudience(shop, [{ email: 'mallory@example.org', first_name: script, nickname: image }]);

  const customers = new CustomersPage(page);
  await customers.gotoList(shop.shop_id);
  await customers.search('mallory@example.org');
  await customers.open('mallory@example.org');
  await expect(customers.properties().getByRole('row').filter({ hasText: 'first_name' })).toContainText(script);
  await expect(customers.properties().getByRole('row').filter({ hasText: 'nickname' })).toContainText(image);
  // No element came from the values: they are text, and nothing ran.
  await expect(page.locator('main img[src="x"]')).toHaveCount(0);
  await expect(page.locator('main script')).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test('segments are listed with their member counts and can be created', async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Segments ${Date.now()}`);
  const customers = new CustomersPage(page);
  await customers.gotoSegments(shop.shop_id);
  await expect(page.getByText('No segments yet.')).toBeVisible();
  await expectAccessible(page);
  await customers.createSegment('Newsletter readers');
  await expect(customers.segmentRow('Newsletter readers')).toContainText('0');
  await customers.createSegment('');
  await expect(page.getByText(/`name`/)).toBeVisible();
  await expectAccessible(page);
});

test('an audience CSV uploaded in the UI shows its progress, then its report with the skipped rows and why', async ({
  page,
  signedIn: _,
}) => {
  const shop = await createShop(`Import ${Date.now()}`);
  await createSegment(shop.shop_id, 'Spring sale');
  const customers = new CustomersPage(page);
  await customers.gotoImports(shop.shop_id);
  await expect(page.getByText('No imports yet.')).toBeVisible();
  await expectAccessible(page);

  const csv = 'email;first_name;phone\nann@example.org;Ann;\n;Nobody;\nbob@example.org;Bob;+7 912 345-67-89\n';
  await customers.upload('audience.csv', csv, 'Spring sale');
  const report = customers.report();
  await expect(report.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await expect(report).toContainText('3 of 3 rows read');
  await expect(report).toContainText('Done');
  await expect(report).toContainText('2 imported (2 new customers), 1 skipped.');
  await expect(report).toContainText('Row 2: no_identifier');
  await expectAccessible(page);

  await customers.gotoSegments(shop.shop_id);
  await expect(customers.segmentRow('Spring sale')).toContainText('2');
  await customers.gotoList(shop.shop_id);
  await customers.search('8 912 345 67 89');
  await expect(customers.results()).toContainText('bob@example.org');
});
