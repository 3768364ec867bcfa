import { createShop, pushCustom } from './admin-api.js';
import { expect, expectAccessible, test } from './fixtures.js';
import { EventCodesPage } from './pages/event-codes.page.js';
import { ShopsPage } from './pages/shops.page.js';

test('an event code created in the UI makes POST /push/custom accept it, and the event shows in the live feed', {
  tag: '@both-databases',
}, async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Events ${Date.now()}`);
  expect((await pushCustom(shop.shop_id, 'newsletter_signup')).body.status).toBe('error');

  const codes = new EventCodesPage(page);
  await codes.goto(shop.shop_id);
  await expect(page.getByText('No custom event codes yet.')).toBeVisible();
  await expectAccessible(page);
  await codes.create('newsletter_signup', 'Newsletter sign-up');
  await expect(codes.row('newsletter_signup')).toContainText('Newsletter sign-up');

  const accepted = await pushCustom(shop.shop_id, 'newsletter_signup');
  expect(accepted).toEqual({ status: 200, body: expect.objectContaining({ status: 'success' }) });

  const shops = new ShopsPage(page);
  await shops.gotoIntegration(shop.shop_id);
  await expect(shops.feed()).toContainText('newsletter_signup');
  await expectAccessible(page);
});

test('a code the API refuses is shown at its field in words', async ({ page, signedIn: _ }) => {
  const shop = await createShop(`Bad codes ${Date.now()}`);
  const codes = new EventCodesPage(page);
  await codes.goto(shop.shop_id);
  await codes.create('Not Valid!');
  await expect(page.getByText(/`code`/)).toBeVisible();
  await codes.create('twice');
  await expect(codes.row('twice')).toBeVisible();
  await codes.create('twice');
  await expect(page.getByText('This code exists already.')).toBeVisible();
});
